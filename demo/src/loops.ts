/**
 * The five loops. Each runs the same work unit (work.ts) until its deadline and reports how many units it did:
 * what differs is only how the loop gives the event loop a turn (or not), which is the whole lesson.
 */
import { loop, macrotask, type Loop } from '@eddy/scheduler'
import { busyFor, CHECK_EVERY, workUnit, type WorkResult } from './work.ts'
import type { WorkerRequest } from './worker.ts'

/** Queues a callback for a later event-loop turn (`macrotask`, or a `createQueue({ strategy })`'s). */
export type Post = (fn: () => void) => unknown

/** The ids used in `tr[data-loop]` (e2e/PAGE.md). */
export type LoopId = 'blocking' | 'nonblocking' | 'microtask' | 'cooperative' | 'worker'

/** Accessible names of the buttons, in page order. */
export const LOOP_NAMES: Record<LoopId, string> = {
  blocking: 'Blocking loop',
  nonblocking: 'Non-blocking loop',
  microtask: 'Microtask loop',
  cooperative: 'Cooperative loop',
  worker: 'Worker loop',
}

/** One synchronous loop: the fastest, and nothing else happens until it ends (no frames, no input). */
function blocking(ms: number): Promise<WorkResult> {
  return Promise.resolve(busyFor(ms))
}

/**
 * Promise recursion: every unit schedules the next as a microtask. It looks asynchronous, but the microtask queue
 * is drained completely before the event loop moves on, so it freezes the page exactly like `blocking`.
 */
function microtaskLoop(ms: number): Promise<WorkResult> {
  return new Promise((resolve) => {
    const start = performance.now()
    const deadline = start + ms
    let units = 0
    let seed = 1
    const step = (): void => {
      seed = workUnit(seed)
      units++
      if (units % CHECK_EVERY === 0) {
        const now = performance.now()
        if (now >= deadline) return resolve({ units, ms: now - start, checksum: seed })
      }
      Promise.resolve().then(step)
    }
    step()
  })
}

/**
 * One unit per macrotask, the talk's `setTimeout(safeLoop, 0)`, by default with eddy's `macrotask()` (no 4 ms timer
 * clamp; the page lets you pick the host primitive): the event loop turns between any two units, so frames and input
 * get in, but every unit pays a whole turn. The clock is read every unit: a turn costs far more than the read.
 */
function nonBlocking(ms: number, post: Post = macrotask): Promise<WorkResult> {
  return new Promise((resolve) => {
    const start = performance.now()
    const deadline = start + ms
    let units = 0
    let seed = 1
    const step = (): void => {
      seed = workUnit(seed)
      units++
      const now = performance.now()
      if (now >= deadline) return resolve({ units, ms: now - start, checksum: seed })
      post(step)
    }
    post(step)
  })
}

/**
 * `loop()` from @eddy/scheduler with a 5 ms budget: steps run back to back, and every 5 ms the loop yields to the
 * event loop, so frames, timers and input still get their turn (at about 3/4 of the blocking loop's rate: the rest
 * of the time draws the frames).
 */
function cooperative(ms: number): Promise<WorkResult> {
  const start = performance.now()
  const deadline = start + ms
  let units = 0
  let seed = 1
  let running: Loop | undefined = undefined
  running = loop(
    () => {
      seed = workUnit(seed)
      units++
      if (units % CHECK_EVERY === 0 && performance.now() >= deadline) {
        // stop() is the documented way out; returning false ends the loop at once as well.
        running?.stop()
        return false
      }
      return undefined
    },
    { budgetMs: 5 },
  )
  return running.done.then(() => ({ units, ms: performance.now() - start, checksum: seed }))
}

let worker: Worker | undefined

/** The same blocking loop, in a Web Worker: the main thread stays free the whole time. */
function inWorker(ms: number): Promise<WorkResult> {
  worker ??= new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'eddy-work' })
  const w = worker
  return new Promise((resolve, reject) => {
    w.onmessage = (event: MessageEvent<WorkResult>) => resolve(event.data)
    w.onerror = (event) => {
      event.preventDefault()
      // A worker whose script failed to load never answers again: the next run starts a new one.
      w.terminate()
      worker = undefined
      reject(new Error(`worker failed: ${event.message || 'could not start'}`))
    }
    const request: WorkerRequest = { ms }
    w.postMessage(request)
  })
}

/** Runs the loop `id` for `ms` milliseconds; `post` is the macrotask the non-blocking loop yields with. */
export const RUNNERS: Record<LoopId, (ms: number, post?: Post) => Promise<WorkResult>> = {
  blocking,
  nonblocking: nonBlocking,
  microtask: microtaskLoop,
  cooperative,
  worker: inWorker,
}
