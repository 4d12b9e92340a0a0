// The render queue. It knows nothing of the DOM: a job is anything with a `_render()` method (bind.ts makes them).
// Every pending render shares ONE queue and ONE scheduled flush: the talk measured one queueMicrotask per
// signal at ~1.3 us each in Chromium, and a shared queue halves its 3 x 1,000,000 benchmark.
import { drain, expectObject, kind, push, report, type Queue, type Queued } from './errors.ts'
import { computing, untracked } from './graph.ts'
import { NOTIFIED } from './flags.ts'

/** @internal A pending DOM write. It clears its own queued flag first thing in `_render()`. */
export interface RenderJob extends Queued {
  _render(): void
}

/** When to flush pending renders: at the next microtask checkpoint, before the next frame, or your own way. */
export type Schedule = 'microtask' | 'animationFrame' | ((flush: () => void) => void)

/** @internal The render queue; propagate queues bindings itself (see there). */
export const renders: Queue<RenderJob> = { _items: [], _size: 0, _start: 0 }
let waiters: (() => void)[] = []
/** A flush is posted and no flush ran since: schedule() posts none meanwhile. */
export let scheduled = false
// A flush is running: jobs queued meanwhile are drained by it, so nothing is posted (a render that keeps queuing
// renders is cut off, never re-posted).
let flushing = false
// The 'microtask' schedule. Only the flush posted last runs: one posted before a manual flush() or a change of
// schedule still comes, and it ran a second chain of flushes beside the new one, in every microtask round of a
// burst of writes (10 flush() calls among 1,000 writes: one DOM write per write). `queue`: the `queueMicrotask` found
// at load or at the last configure({ schedule: 'microtask' }) (a test's stub installed before that call is used).
let queue = queueMicrotask
let posts = 0
const micro = (flush: () => void): void => {
  const n = posts + 1
  // `>=`: a queueMicrotask that calls back at once (a test's stub) runs it before `posts` is set.
  queue(() => n >= posts && flush())
  posts = n
}
let post: (flush: () => void) => void = micro

/** @internal Queues `job` for the next flush; `schedule` posts the flush once the write has fully propagated. */
export function enqueue(job: RenderJob): void {
  push(renders, job)
}

/**
 * @internal Posts one flush if renders wait and none is pending. Called after a write has propagated everywhere
 * and after a batch or an effect run, never mid-propagation: a schedule that flushes synchronously must not
 * render a computed whose other sources are not flagged yet (a half-propagated diamond).
 */
export function schedule(): void {
  if (renders._size && !scheduled && !flushing) {
    // Set first: a schedule may call flush synchronously (and flush clears it).
    scheduled = true
    try {
      post(flush)
    } catch (error) {
      // Cleared with no call first: the call to unpost can overflow the stack too, and left the mark set with
      // nothing posted (no later write rendered).
      scheduled = false
      unpost(error)
    }
  }
}

// A schedule that throws (no requestAnimationFrame here) posted nothing: the next render tries again. So must the
// next write of a queued binding's signal: its mark (see NOTIFIED), set while a flush was posted (the old one, before
// configure(), or this one, by a write in the schedule), is taken off. Never in a flush, which posts nothing: every
// slot is filled (a binding disposed while queued has no source left).
function unpost(error: unknown): void {
  scheduled = false
  for (let i = renders._start, l; i < renders._size; i++) if ((l = renders._items[i]?._deps)) l._dep._flags &= ~NOTIFIED
  report(error)
}

const render = (job: RenderJob): void => job._render()
// Untracked: a flush() called inside an effect or computed must not subscribe it to what a format reads.
const renderAll = (): void => drain(renders, render)

/**
 * Writes every pending render now, synchronously (tests, measurements, before reading layout).
 * Called while a computed's function runs (directly, through untracked(), or from an effect it created), it writes
 * them at the next microtask instead: a render could read that computed mid-evaluation (a false "Cycle detected").
 */
export function flush(): void {
  if (flushing) return
  if (computing()) return queueMicrotask(flush)
  // A manual flush also clears `scheduled`: a posted flush that never comes (a custom schedule that drops it)
  // cannot block later renders; one that still comes finds an empty queue.
  scheduled = false
  flushing = true
  try {
    untracked(renderAll)
  } finally {
    flushing = false
    const list = waiters
    waiters = []
    for (const resolve of list) resolve()
  }
}

/** Resolves once the renders pending now have been flushed. */
export function settled(): Promise<void> {
  return new Promise((resolve) => (renders._size ? waiters.push(resolve) : resolve()))
}

// 'animationFrame': a flush in a requestAnimationFrame callback of ours, asked for in a microtask, so after the code
// that wrote: a game loop that writes and then asks for its next frame has its callback before ours in that frame,
// and its writes are painted in it (asked for at once, ours came first and each frame showed the last one's values).
// A frame that rendered asks for the next one at once, so that a loop that asks for its next frame first, then
// writes, finds ours after it (asked for at each write, its writes were painted in every other frame: measured,
// 17 of 34). A frame with nothing to render, or once the schedule has changed, asks for no more (a throttle set
// since must not be overridden). A requestAnimationFrame that throws (none here, a stub) posted nothing (see unpost).
const onFrame = (): void => {
  const waiting = renders._size
  flush()
  if (waiting && post == frame) requestAnimationFrame(onFrame)
}
// One function, so that setting 'animationFrame' again changes nothing (a new one each time posted another flush).
const frame = (): void =>
  queueMicrotask(() => {
    try {
      requestAnimationFrame(onFrame)
    } catch (error) {
      unpost(error)
    }
  })

/** Sets how pending renders are flushed: 'microtask' (default), 'animationFrame', or `(flush) => void`. */
export function configure(options: { schedule?: Schedule | undefined }): void {
  // `configure('animationFrame')` would otherwise change nothing, silently.
  expectObject(options, 'configure')
  const option = options.schedule
  const old = post
  if (option == 'microtask') (post = micro), (queue = queueMicrotask)
  else if (option == 'animationFrame') post = frame
  else if (typeof option == 'function') post = option
  else if (option !== undefined)
    // A misspelt name is shown as it was written: `got "raf"`.
    throw new TypeError(`schedule: expected 'microtask', 'animationFrame' or a function, got ${typeof option == 'string' ? JSON.stringify(option) : kind(option)}`)
  // A flush posted the old way may never come (a custom schedule that dropped it, no frame in a background tab),
  // or none was posted (the old schedule threw): the pending renders are posted the new way. The old one, if it
  // comes, finds them written.
  // 'microtask' again posts them anew too: its flush may sit in a faked queueMicrotask, now replaced by the real one.
  if (post != old || option == 'microtask') {
    scheduled = false
    schedule()
  }
}
