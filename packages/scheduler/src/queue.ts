import { now, poster, report, strategy as detected, type Strategy } from './host.ts'

/** Options of {@link createQueue}. */
export interface QueueOptions {
  /** The host primitive to wake up with; default: the one detected at load. */
  strategy?: Strategy
  /** Longest time one wake-up runs callbacks before it yields and re-posts itself, in ms; default 5 (as React). */
  budgetMs?: number
}

/** A batched macrotask queue bound to one host primitive. */
export interface Queue {
  /** Runs `fn` in a later event-loop turn; returns a function that cancels it if it has not run yet. */
  macrotask(fn: () => void): () => void
  /** The host primitive this queue wakes up with. */
  readonly strategy: Strategy
}

/** Checks a budget option: a non-negative number of milliseconds. */
export const checkBudget = (where: string, ms: unknown = 5): number => {
  if (typeof ms != 'number' || !(ms >= 0)) throw new TypeError(`${where}: expected budgetMs to be a number >= 0, got ${String(ms)}`)
  return ms
}

/** Creates a batched queue: callbacks queued before a wake-up share one dispatch, drained FIFO in time slices. */
export function createQueue(options: QueueOptions = {}): Queue {
  const name = options.strategy ?? detected
  const post = poster('createQueue', name)
  const budget = checkBudget('createQueue', options.budgetMs)
  // Invariants: `q[head..]` is what is left to run; a cancelled slot holds undefined. `posted` is true from the
  // first push until a wake-up finds nothing left, so a queue has at most one wake-up in flight.
  let q: ((() => void) | undefined)[] = []
  let head = 0
  let posted = false
  const drain = () => {
    // Snapshot: a callback queued by this drain lands past `end` and waits for the next wake-up, so the microtasks
    // queued before it run first.
    const end = q.length
    const start = now()
    while (head < end) {
      const fn = q[head]
      q[head++] = undefined
      if (fn) {
        try { fn() } catch (e) { report(e) }
        if (now() - start >= budget) break
      }
    }
    if (head < q.length) post(drain)
    else { q = []; head = 0; posted = false }
  }
  return {
    strategy: name,
    macrotask(fn) {
      if (typeof fn != 'function') throw new TypeError(`macrotask: expected fn to be a function, got ${typeof fn}`)
      const slots = q
      const i = q.push(fn) - 1
      if (!posted) { posted = true; post(drain) }
      return () => { if (slots[i] === fn) slots[i] = undefined }
    },
  }
}

const main = createQueue()

/** Runs `fn` in a later event-loop turn; every callback queued before that turn shares ONE host dispatch. */
export const macrotask: (fn: () => void) => () => void = main.macrotask
