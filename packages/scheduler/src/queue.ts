import { fnArg, numArg } from './errors.ts'
import { poster, report, strategy as detected, type Strategy } from './host.ts'
import { slicer } from './slice.ts'

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
  const post = poster(strategy)
  numArg('budgetMs', budgetMs)
  // `q` collects callbacks queued since the last snapshot; `rest[at..]` is what is left of the snapshot being
  // drained. Arrays are never compacted or reused, only replaced, so a cancel function (array + index) stays exact
  // and clearing a slot that already ran is harmless; a cancelled slot holds undefined. `posted` is true from the
  // first push until a wake-up finds nothing left, so a queue never has two wake-ups in flight.
  let q: ((() => void) | undefined)[] = []
  let rest: typeof q = []
  let at = 0
  let posted = false
  const drain = () => {
    // Snapshot: a callback queued by this drain lands in the new `q` and waits for a later wake-up, after the
    // microtasks queued before it. Locals in the hot loop: closure variables cost a context access each.
    if (at == rest.length) { rest = q; q = []; at = 0 }
    const items = rest
    const end = items.length
    const from = at
    // One callback needs no clock: a wake-up always runs at least one.
    const tick = end - from > 1 && slicer(budgetMs)
    let i = from
    let next = from + 1
    while (i < end) {
      const fn = items[i++]
      try { fn && fn() } catch (e) { report(e) }
      if (i >= next && i < end && (next = from + (tick as (done: number) => number)(i - from)) < from) break
    }
    at = i
    // Idle: drop the finished snapshot, so the callbacks it held can be collected.
    i < end || q.length ? post(drain) : ((posted = false), (rest = []), (at = 0))
  }
  return {
    strategy,
    macrotask(fn) {
      const slots = q
      const i = q.push(fnArg('fn', fn)) - 1
      posted || ((posted = true), post(drain))
      return () => { slots[i] = undefined }
    },
  }
}

/** Runs `fn` in a later event-loop turn; every callback queued before that turn shares ONE host dispatch. */
export const macrotask: (fn: () => void) => () => void = createQueue().macrotask
