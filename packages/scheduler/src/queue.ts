import { fnArg, numArg, objArg } from './errors.ts'
import { post, poster, report, strategy as detected, type Strategy } from './host.ts'
import { slicer } from './slice.ts'

/** Options of {@link createQueue}. */
export interface QueueOptions {
  /** The host primitive to wake up with; default: the one detected at load. */
  strategy?: Strategy | undefined
  /** Longest time one wake-up runs callbacks before it yields and re-posts itself, in ms; default 5 (as React). */
  budgetMs?: number | undefined
}

/** A batched macrotask queue bound to one host primitive. */
export interface Queue {
  /** Runs `fn` in a later event-loop turn; returns a function that cancels it if it has not run yet. */
  macrotask(fn: () => void): () => void
  /** The host primitive this queue wakes up with. */
  readonly strategy: Strategy
}

type Slot = (() => void) | 0

/** Creates a batched queue: callbacks queued before a wake-up share one dispatch, drained FIFO in time slices. */
export function createQueue(options: QueueOptions = {}): Queue {
  const { strategy = detected, budgetMs = 5 } = objArg(options)
  return { strategy, macrotask: queue(numArg('budgetMs', budgetMs), poster(strategy)) }
}

// Annotated so that a bundler may drop a call whose result is unused: an app importing only `microtask` (say) then
// ships neither this nor the default queue below (`createQueue().macrotask` at the top level, a call and a property
// read, was kept by Vite and esbuild: `{ microtask }` alone cost 1,038 B min+gzip in a Vite app, about half the package).
/** @internal The macrotask function of a queue that drains for `budgetMs` at a time and wakes up with `post`. */
/* @__NO_SIDE_EFFECTS__ */
export function queue(budgetMs: number, post: (fn: () => void) => void): (fn: () => void) => () => void {
  // Two arrays swapped at each snapshot and reused: a batch writes into slots that already exist instead of growing
  // a fresh array (measured in Node at 1,000 callbacks per turn: this alone takes the queue, cancel functions
  // included, from ~0.8x to ~1.1-1.25x a hand-written dispatcher that grows a new array per batch). `q[0..n)` holds
  // the callbacks queued since the last snapshot, `rest[at..size)` what is left of the snapshot being drained. A
  // cancelled slot is cleared at once; a slot that ran is not (clearing each as it ran was ~4% of the queue at 10
  // and ~10% at 100 callbacks per turn in Node: 0.86x-0.92x of the hand-written one with it, 0.93x-0.99x without).
  // A callback that ran stays in its slot until a later batch writes over it, a snapshot cuts its array down to its
  // own length, or the queue goes idle and cuts both to nothing: at most two snapshots after its own (a snapshot
  // drained over many slices is held until it is drained). A wake-up is in flight exactly while something waits
  // (`n` or `at < size`), two hops of one included.
  let q: Slot[] = []
  let rest: Slot[] = []
  let n = 0
  let at = 0
  let size = 0
  // Callback ids are serial: q[k] is `base + k`, rest[k] is `base - size + k`; an id below the snapshot maps to no
  // slot, so a cancel function stays exact forever even though the arrays are reused.
  let base = 0
  // How many callbacks a slice runs before its first clock read: learned at each read (the count predicted to take
  // half the remaining budget), capped at 16 so a sudden slowdown overruns by at most that many. A clock read costs
  // about as much as two trivial callbacks (~45 ns in Node), and a batch no longer than this reads none (measured:
  // two reads per wake-up were ~8% of the queue at 10 callbacks per turn). Starts at 1: no history, look early. At
  // most doubled by a wake-up (`most`) and never raised by a look, which only checks: once a slow batch was seen, one
  // fast batch (or a look that landed on one) set it straight back to 16, and the next slow batches ran whole again.
  // A whole count: a fractional one (4.5) made a batch of 5 start a slicer that never compared the clock (its last
  // callback is not checked), so slow callbacks in such batches were never noticed.
  let gap = 1
  // Wake-ups of more than one callback that read no clock since the last look, less a random amount under 8: the one
  // that takes it past 16 looks, after its first callback (as a new queue does) and at its end. Without looks,
  // callbacks that turned slow in batches shorter than the gap would never be seen (each batch one long task). Lone
  // callbacks do not count (nothing after them to look before). The interval is random (17 to 24 such wake-ups)
  // because every fixed one tried locked onto some repeating workload: each look landed on the same fast batch, and
  // the slow ones ran whole for ever (README).
  let blind = 0
  // A cancel function is an id bound to this one function: a single small allocation per call, with no closure
  // context and no reference to the arrays (measured at 1,000 callbacks per turn: a closure per call cost ~25% of
  // the queue, a bound id about half of that).
  function cancel(this: number) {
    let k = this - base
    k < 0 ? (k += size) >= 0 && (rest[k] = 0) : (q[k] = 0)
  }
  const drain = () => {
    if (at == size) {
      // Snapshot: a callback queued by this drain lands in `q` and waits for a later wake-up, after the microtasks
      // queued before it. Locals in the hot loop: closure variables cost a context access each.
      const t = rest
      rest = q
      q = t
      // A snapshot shorter than its array leaves callbacks that ran before beyond it: cut them off, or a burst would
      // stay reachable for as long as the queue stays busy with shorter batches (a review measured ~100 MB held).
      // Only when longer: setting an array's length costs ~30 ns even to the length it has (~5 ns for the check).
      rest.length > n && (rest.length = n)
      base += size = n
      n = at = 0
    }
    const items = rest
    const end = size
    let i = at
    let next = i + gap
    const look = next >= end && end - i > 1 && ++blind > 16
    const most = look ? gap : 2 * gap
    if (look) (next = i + 1), (blind = -8 * Math.random())
    const tick = next < end && slicer(budgetMs, i)
    while (i < end) {
      const fn = items[i++]
      try { fn && fn() } catch (e) { report(e) }
      if (i >= next && i < end) {
        // Out of budget: the next slice looks after its first callback again.
        if ((next = (tick as (count: number) => number)(i)) < 0) { gap = 1; break }
        gap = Math.min(16, most, Math.ceil(next - i))
      }
    }
    // A look that ran its batch whole reads the clock once more: a batch that overran (its first callback was cheap)
    // sets the count back to 1.
    if (look && i == end && (tick as (count: number) => number)(i) < 0) gap = 1
    at = i
    // Out of budget: re-post in two hops, as loop() yields (Chromium queues a timer that came due during the slice
    // behind a single hop, and timers then fired every other slice: 40 in 81 slices). Only new callbacks: one hop, a
    // turn as raw as the primitive's. Idle: cut both arrays to nothing, as a snapshot cuts its own, and with them
    // every callback that ran.
    i < end ? post(() => post(drain)) : n ? post(drain) : (rest.length = q.length = at = size = 0)
  }
  return (fn) => {
    q[n] = fnArg('fn', fn)
    // The first callback since the last snapshot posts a wake-up, unless the drain will re-post itself anyway.
    n || at < size || post(drain)
    return cancel.bind(base + n++)
  }
}

/** Runs `fn` in a later event-loop turn; every callback queued before that turn shares ONE host dispatch. */
export const macrotask: (fn: () => void) => () => void = queue(5, post)
