import { fnArg, numArg, objArg } from './errors.ts'
import { post, queueMicrotask } from './host.ts'
import { slicer } from './slice.ts'

// The native `then`, captured at load: once a page patches Promise.prototype.then, promises are adopted like any
// other thenable (`adopt`, below).
const then = Promise.prototype.then
// Adopts a thenable as `await` does (see run). Out here: an arrow in `run` that read its `v` put `v` in a context
// allocated at every call of `run`, every step (loop / microtask recursion 1.34x in Chromium, against 1.04-1.16x).
const adopt = (v: unknown) => new Promise((resolve) => resolve(v))

/** A running cooperative loop. */
export interface Loop {
  /** Ends the loop before its next step; `done` then resolves (or rejects, if a step in flight rejects). */
  stop(): void
  /** Resolves with the number of steps run once the loop ends; rejects with the error of a throwing step. */
  readonly done: Promise<number>
  /** Steps started so far. */
  readonly iterations: number
}

/** Options of {@link loop}. */
export interface LoopOptions {
  /** How long a slice runs steps before it yields to the event loop, in ms; default 5. */
  budgetMs?: number | undefined
}

/**
 * Calls `step()` back to back (awaiting it when it returns a promise) and yields to the event loop whenever
 * `budgetMs` is spent (timers, input and rendering run before the next slice); ends on `stop()` or when a step
 * returns (or resolves to) `false`; a throwing step rejects `done`.
 */
export function loop(step: () => unknown, options: LoopOptions = {}): Loop {
  fnArg('step', step)
  const { budgetMs = 5 } = objArg(options)
  numArg('budgetMs', budgetMs)
  // Each yield is host tasks of its own (`post`), not a callback of the batched queue: a batch of several loops'
  // slices would run them back to back in ONE task wherever the queue skips the clock (a batch no longer than its
  // learned count, up to 16, reads none), so two loops made 10 ms tasks, three 15 ms, at every wake-up.
  let count = 0
  let stopped = false
  const done = new Promise<number>((resolve, rejected) => {
    // Once `done` settles, the step is dropped: the handle (`stop`, `iterations`), which a page may keep (an
    // onclick that stops it), shares this function's context, and kept the step and all it reaches.
    const reject = (e: unknown) => {
      step = 0 as any
      rejected(e)
    }
    let next: number
    let tick: (count: number) => number
    // A slice starts in a fresh macrotask (the first one in a microtask, once the caller's code has run).
    const slice = () => {
      tick = slicer(budgetMs, count)
      next = count + 1
      run()
    }
    // Runs steps until the budget is spent (then yields), a step returns a promise (then resumes with its value)
    // or the loop ends. `v` is the previous step's value: `false` ends the loop. Once `done` settles nothing calls
    // `run` again, so an ended loop needs no flag of its own.
    const run = (v?: any): unknown => {
      try {
        while (!stopped && v !== false) {
          // Out of budget: yield through two host tasks. Chromium queues a timer that came due during the slice only
          // when it picks its next task, behind a yield posted at the slice's end: with one hop the next slice ran
          // first, and timers fired every other slice (a 1 ms timer chain's worst delay at a 5 ms budget, blank
          // page: 9.8-13.4 ms; two hops: 4.4-6.0 ms; per step unchanged). The first hop runs before the timer is
          // queued, the second after it. Node runs timers before setImmediate's phase anyway: the second hop costs
          // it one ~1 us turn. On the setTimeout strategy (a host with nothing faster) each hop is a clamped timer:
          // ~8 ms between slices instead of ~4; skipping the hop there costs 20 B, for hosts that hardly exist.
          if (count >= next && (next = tick(count)) < 0) return void post(() => post(slice))
          count++
          v = step()
          // No `return v.then(...)`: a promise returned from a `then` callback costs an extra job per step.
          // Anything whose `then` is not the native one is adopted by a new promise, as `await` adopts a thenable:
          // its `then` is called in a later job and only its first call back counts, so one that calls back
          // synchronously (or twice) can neither nest the steps in the stack nor fork the loop; that holds for a
          // real promise given a `then` of its own too (Promise.resolve returned it as it was, and the loop forked),
          // though `await` would ignore that `then`. The native `then` always calls back in a later job (and throws
          // for a non-promise), so with it the step skips that detour: 5-10% of a trivial async step in Chromium.
          // Not covered: a `then` getter that returns the native function on one read and another on the next. A
          // value whose `then` is truthy but not a function comes back as itself, one job later (-4 B over a typeof).
          if (v?.then) return void (v.then == then ? v : adopt(v)).then(run, reject)
        }
        step = 0 as any
        resolve(count)
      } catch (e) {
        reject(e)
      }
    }
    queueMicrotask(slice)
  })
  return { stop() { stopped = true }, done, get iterations() { return count } }
}
