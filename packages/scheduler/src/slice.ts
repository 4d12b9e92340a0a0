import { now } from './host.ts'

// Time slicing without reading the clock at every step: a clock read costs about as much as a trivial callback
// (measured: reading it per callback made the queue 0.3x a hand-written dispatcher at 1,000 callbacks per turn),
// and even a function call per step shows (Chromium: loop() 1.23x microtask recursion with one, 0.96x without).

/**
 * Starts a time slice of `budget` ms at step count `first`. The returned function, called at step count `count`,
 * reads the clock and returns -1 when the budget is spent, else the step count at which to call it again: half the
 * remaining budget ahead at the rate seen so far, but never more than 16 past doubling the steps done in this
 * slice, nor more than 64 ahead. So a slice reads the clock ~2 log2(budget / step cost) times for steps of ~4 us and
 * more, and about once per 64 steps for faster ones. Callers compare counts inline, in their hot loop.
 */
export const slicer = (budget: number, first: number): ((count: number) => number) => {
  const start = now()
  return (count) => {
    const spent = now() - start
    const done = count - first
    // At most `done + 16` more (16: the queue's longest unmeasured start), and never more than 64: fast steps cannot
    // predict slow ones, so a sudden slowdown overruns the budget by at most 64 steps (and by at most 16 more than
    // the slice ran before it). Without the 64, 60,000 trivial steps then 1 ms ones ran 0.2-3 s past a 5 ms budget.
    // A clock read per 64 trivial steps costs ~1% of them. A clock that has not moved (x / 0 is Infinity) takes
    // that bound.
    return spent < budget ? count + Math.min(done + 16, 64, (done * (budget - spent)) / spent / 2) : -1
  }
}
