// Error helpers shared by every module: short, stable messages, and one way to report errors that must not
// stop a flush.

let pending: unknown[] | undefined

/** Names the kind of a bad argument for a TypeError message: `null`, `number`, `object`, ... */
export function kind(value: unknown): string {
  return value === null ? 'null' : typeof value
}

/** Returns `fn` if it is a function; throws `TypeError('<name>: expected a function, got <kind>')` otherwise. */
export function expectFunction<F>(fn: F, name: string): F {
  if (typeof fn !== 'function') throw new TypeError(`${name}: expected a function, got ${kind(fn)}`)
  return fn
}

/** Reports an error thrown by an effect, subscriber or render without stopping the others. */
export function report(error: unknown): void {
  // reportError is looked up at call time so a host (or a test) can install it late.
  if (typeof reportError === 'function') reportError(error)
  else (pending ??= []).push(error)
}

/** Where the host has no `reportError`, rethrows the first error reported during the flush that just ended. */
export function rethrow(): void {
  if (pending !== undefined) {
    const error = pending[0]
    pending = undefined
    throw error
  }
}

/** The error thrown when an evaluation reaches itself, or a flush keeps re-scheduling work. */
export function cycle(): Error {
  return new Error('Cycle detected')
}
