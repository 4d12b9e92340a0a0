// Error helpers shared by every module (short, stable messages), and the drain loop of both queues: errors in
// one item are reported without stopping the others; a queue that keeps refilling itself is a cycle.

let pending: unknown[] | undefined

/** Names the kind of a bad argument for a TypeError message: `null`, `number`, `object`, ... */
export function kind(value: unknown): string {
  return value === null ? 'null' : typeof value
}

/** Returns `fn` if it is a function; throws `TypeError('<name>: expected a function, got <kind>')` otherwise. */
export function expectFunction<F>(fn: F, name: string): F {
  if (typeof fn != 'function') throw new TypeError(`${name}: expected a function, got ${kind(fn)}`)
  return fn
}

/** The error thrown when an evaluation reaches itself, or a flush keeps re-scheduling work. */
export function cycle(): Error {
  return new Error('Cycle detected')
}

/** Reports an error thrown by an effect, subscriber, cleanup or render without stopping the others. */
export function report(error: unknown): void {
  // Looked up at call time, so a host (or a test) can install it late.
  if (typeof reportError == 'function') reportError(error)
  else (pending ??= []).push(error)
}

/**
 * @internal Runs `run` on every item of `queue`, including items queued meanwhile, then empties it. Items queued
 * by items run in later rounds; more than 100 rounds is a loop, cut off with "Cycle detected" (the rest stays
 * queued, still flagged, for the next drain). Where the host has no `reportError`, the first reported error is
 * rethrown at the end.
 */
export function drain<T>(queue: T[], run: (item: T) => void): void {
  let i = 0
  let end = queue.length
  let rounds = 0
  try {
    for (; i < queue.length; i++) {
      if (i == end) {
        if (++rounds > 100) throw cycle()
        end = queue.length
      }
      try {
        run(queue[i]!)
      } catch (error) {
        report(error)
      }
    }
  } finally {
    if (i == queue.length) queue.length = 0
    else queue.splice(0, i)
  }
  if (pending) {
    const error = pending[0]
    pending = undefined
    throw error
  }
}
