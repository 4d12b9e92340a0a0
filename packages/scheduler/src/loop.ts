import { nativeMicrotask, now } from './host.ts'
import { checkBudget, macrotask } from './queue.ts'

/** A running cooperative loop. */
export interface Loop {
  /** Ends the loop before its next step; `done` then resolves. */
  stop(): void
  /** Resolves with the number of steps run once the loop ends; rejects with the error of a throwing step. */
  readonly done: Promise<number>
  /** Steps started so far. */
  readonly iterations: number
}

/**
 * Calls `step()` back to back (awaiting it when it returns a promise) and yields one macrotask whenever `budgetMs`
 * is spent; ends on `stop()`, when a step returns (or resolves to) `false`, or rejects `done` when a step throws.
 */
export function loop(step: () => unknown, options: { budgetMs?: number } = {}): Loop {
  if (typeof step != 'function') throw new TypeError(`loop: expected step to be a function, got ${typeof step}`)
  const budget = checkBudget('loop', options.budgetMs)
  let count = 0
  let stopped = false
  let resolve!: (n: number) => void
  let reject!: (e: unknown) => void
  const done = new Promise<number>((res, rej) => { resolve = res; reject = rej })
  // The clock is read at iteration `check` of the slice, not every step (a clock read costs as much as a trivial
  // step): each read aims the next one at half the remaining budget at the rate seen so far, so a slice ends close
  // to the budget after ~log2(budget / step cost) reads.
  let start = 0
  let n = 0
  let check = 0
  const end = () => {
    stopped = true
    resolve(count)
  }
  const fail = (e: unknown) => {
    stopped = true
    reject(e)
  }
  const resume = (v: unknown) => v === false ? end() : run()
  const slice = () => {
    start = now()
    n = check = 0
    run()
  }
  const run = (): void => {
    while (!stopped) {
      if (++n > check) {
        const spent = now() - start
        if (spent >= budget) return void macrotask(slice)
        check = n + (spent > 0 ? (n * (budget - spent)) / spent / 2 : n)
      }
      count++
      let r: any
      try { r = step() } catch (e) { return fail(e) }
      if (r === false) break
      if (r && typeof r.then == 'function') return void r.then(resume, fail)
    }
    end()
  }
  nativeMicrotask(slice)
  return { stop: () => { stopped = true }, done, get iterations() { return count } }
}
