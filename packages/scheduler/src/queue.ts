import { fnArg, numArg } from './errors.ts'
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

/** Creates a batched queue: callbacks queued before a wake-up share one dispatch, drained FIFO in time slices. */
export function createQueue({ strategy = detected, budgetMs = 5 }: QueueOptions = {}): Queue {
  const post = poster('createQueue', strategy)
  numArg('createQueue', 'budgetMs', budgetMs)
  // Invariants: `q[head..]` is what is left to run (a cancelled or started slot holds undefined); a wake-up is in
  // flight or running exactly while `head < q.length`, so a push onto an idle queue (it lands at `head`) is the
  // only one that posts, and a queue never has two wake-ups in flight.
  let q: ((() => void) | undefined)[] = []
  let head = 0
  const drain = () => {
    // Snapshot: a callback queued by this drain lands past `end` and waits for the next wake-up, after the
    // microtasks queued before it.
    const end = q.length
    const start = now()
    while (head < end) {
      const fn = q[head]
      q[head] = undefined
      try { fn && fn() } catch (e) { report(e) }
      // `head` moves only after the callback, so a push made by the last callback does not look like an idle queue.
      if (++head < end && now() - start >= budgetMs) break
    }
    head < q.length ? post(drain) : (q = [], head = 0)
  }
  return {
    strategy,
    macrotask(fn) {
      const slots = q
      const i = q.push(fnArg('macrotask', 'fn', fn)) - 1
      i == head && post(drain)
      return () => { slots[i] == fn && (slots[i] = undefined) }
    },
  }
}

/** Runs `fn` in a later event-loop turn; every callback queued before that turn shares ONE host dispatch. */
export const macrotask: (fn: () => void) => () => void = createQueue().macrotask
