/**
 * The render queue: every pending DOM write shares ONE queue and ONE scheduled flush per checkpoint.
 * The flush is scheduled only when the queue goes from empty to non-empty.
 */

/** A job that writes the latest value of its source to the DOM. */
export interface RenderJob {
  /** @internal Set while the job sits in the queue, so a job is queued at most once per flush. */
  _queued: boolean
  /** @internal Writes the DOM. */
  _render(): void
}

const queue: RenderJob[] = []

/** Queues `job` for the next flush; a job already queued is not queued twice. */
export function enqueue(job: RenderJob): void {
  if (job._queued) return
  job._queued = true
  if (queue.push(job) === 1) queueMicrotask(flush)
}

/** Writes every pending render now, synchronously. */
export function flush(): void {
  for (let i = 0; i < queue.length; i++) {
    const job = queue[i]!
    job._queued = false
    job._render()
  }
  queue.length = 0
}
