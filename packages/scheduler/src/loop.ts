import { fnArg, numArg } from './errors.ts'
import { now, queueMicrotask } from './host.ts'
import { macrotask } from './queue.ts'
import { nextCheck } from './slice.ts'

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
 * is spent; ends on `stop()` or when a step returns (or resolves to) `false`; a throwing step rejects `done`.
 */
export function loop(step: () => unknown, { budgetMs = 5 }: { budgetMs?: number } = {}): Loop {
  fnArg('loop', 'step', step)
  numArg('loop', 'budgetMs', budgetMs)
  let count = 0
  let stopped = false
  let resolve!: (n: number) => void
  let reject!: (e: unknown) => void
  const done = new Promise<number>((res, rej) => { resolve = res; reject = rej })
  const fail = (e: unknown) => {
    stopped = true
    reject(e)
  }
  // The clock is read before step `check` of the slice (see nextCheck), not at every step.
  let start = 0
  let n = 0
  let check = 0
  const slice = () => {
    start = now()
    n = 0
    check = 1 // a slice always runs one step; the first clock read comes after it
    run()
  }
  // Runs steps until the budget is spent (then yields), a step returns a promise (then resumes with its value) or
  // the loop ends. `v` is the value of the previous step: `false` ends the loop.
  const run = (v?: any): void => {
    try {
      while (!stopped && v !== false) {
        if (++n > check) {
          const spent = now() - start
          if (spent >= budgetMs) return void macrotask(slice)
          check = nextCheck(n - 1, spent, budgetMs) + 1
        }
        count++
        v = step()
        if (v && typeof v.then == 'function') return void v.then(run, fail)
      }
    } catch (e) {
      return fail(e)
    }
    stopped = true
    resolve(count)
  }
  queueMicrotask(slice)
  return { stop: () => { stopped = true }, done, get iterations() { return count } }
}
