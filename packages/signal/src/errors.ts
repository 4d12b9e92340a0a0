// Error helpers shared by every module (short, stable messages), and the drain loop of both queues: errors in
// one item are reported without stopping the others; a queue that keeps refilling itself is a cycle.

import { COMPUTED, DIRTY, NOTIFIED, PENDING } from './flags.ts'

let pending: unknown[] | undefined
// How many drains are running (they nest: a render's format may write, an effect may call flush()).
let draining = 0
// How many effects were ever created (see drain).
let born = 0
// How many nested drains were cut off so far (see drain).
let cuts = 0

/** @internal Counts an effect's creation; returns its serial number, the effect's birth stamp (see drain). */
export const birth = (): number => ++born

/** Names the kind of a bad argument for a TypeError message: `null`, `number`, `object`, ... */
export function kind(value: unknown): string {
  return value === null ? 'null' : typeof value
}

/** Returns `fn` if it is a function; throws `TypeError('<name>: expected a function, got <kind>')` otherwise. */
export function expectFunction<F>(fn: F, name: string): F {
  if (typeof fn != 'function') throw new TypeError(`${name}: expected a function, got ${kind(fn)}`)
  return fn
}

/** Throws `TypeError('<name>: expected an object, got <kind>')` unless `value` is a non-null object (an options bag). */
export function expectObject(value: unknown, name: string): void {
  if (typeof value != 'object' || !value) throw new TypeError(`${name}: expected an object, got ${kind(value)}`)
}

/** The error thrown when an evaluation reaches itself, or a flush keeps re-scheduling work. */
export function cycle(): Error {
  return new Error('Cycle detected')
}

/**
 * Reports an error thrown by an effect, subscriber, cleanup or render without stopping the others. Without
 * `reportError`, it is rethrown after the outermost drain, or at once outside of one (a cleanup run by dispose).
 * A `reportError` that throws is treated like a missing one: `error` itself is collected or thrown (as the scheduler
 * does).
 */
export function report(error: unknown): void {
  // Looked up at call time, so a host (or a test) can install it late.
  if (typeof reportError == 'function')
    try {
      return reportError(error)
    } catch {
      // Kept as it was: what a broken reportError (a stub that throws) threw would take the user's error's place.
    }
  // Stored with no call: a push that overflowed the stack left an empty list, thrown as `undefined` at the end.
  if (draining) (pending ??= [])[pending.length] = error
  else throw error
}

// The AggregateErrors made by `several`: one that is combined again is spread, not nested (a user's is kept whole).
const made = new WeakSet<object>()

/** The one error of `errors` as it is, or an AggregateError of them all, in order (flat). */
export function several(errors: unknown[]): unknown {
  errors = errors.flatMap((e) => (made.has(e as object) ? (e as AggregateError).errors : [e]))
  if (errors.length < 2) return errors[0]
  const all = new AggregateError(errors, `${errors.length} errors`)
  made.add(all)
  return all
}

/** Runs `fn` once `error` was thrown, then throws `error`, with what `fn` threw (see `several`): neither is lost. */
export function rethrowAfter(error: unknown, fn: () => void): never {
  try {
    fn()
  } catch (late) {
    throw several([error, late])
  }
  throw error
}

/**
 * @internal A queue that is drained and refilled many times per second: items in a reused array, with its own
 * size (shrinking an array's length is a runtime call in V8, measured on the write path).
 */
export interface Queue<T extends Queued> {
  _items: (T | undefined)[]
  _size: number
  /** Where its items begin: past 0 only after a drain thrown through (see drain). */
  _start: number
}

/** @internal What a queue holds: an effect or a binding, flagged PENDING while queued. */
export interface Queued {
  _flags: number
  /** Its source links (a binding has one). */
  _deps?: SourceLink | undefined
  /** An effect's birth stamp (see birth); a binding has none. */
  _version?: number
}

interface SourceLink {
  _dep: Queued
  _nextDep?: SourceLink | undefined
}

/** @internal Appends `item` to `queue`; returns the new size. */
export function push<T extends Queued>(queue: Queue<T>, item: T): number {
  queue._items[queue._size] = item
  return ++queue._size
}

// release's walk (it makes no calls; it runs no user code, so it never nests).
const todo: (Queued | undefined)[] = []

/**
 * @internal Unflags a queued leaf that will not run now (cut off by a cycle), so that its sources' next change
 * queues it again. A computed source still flagged PENDING would stop that change on its way down (propagate does
 * not go below flagged nodes): it becomes DIRTY instead (recomputed when next read or checked), and so do its
 * PENDING sources. A binding's source loses NOTIFIED, or its writes would not queue it.
 */
export function release(item: Queued): void {
  // No call (a builtin's too can overflow the stack): one that overflowed here, with a source unflagged and the
  // ones below it still flagged, left nothing to unflag them later.
  let n = 0
  for (let node = item; ; ) {
    for (let l = node._deps; l; l = l._nextDep) {
      const dep = l._dep
      if ((dep._flags & (PENDING | COMPUTED)) == (PENDING | COMPUTED)) {
        dep._flags = (dep._flags & ~PENDING) | DIRTY
        todo[n++] = dep
      }
    }
    if (!n) break
    node = todo[--n]!
    todo[n] = undefined
  }
  if (item._deps) item._deps._dep._flags &= ~NOTIFIED
  item._flags &= ~PENDING
}

/**
 * @internal Runs `run` on every item of `queue`, including items queued meanwhile, then empties it. Items queued
 * by items run in later rounds. Past 100 rounds, each item's runs are counted: a chain of effects that each write
 * the next one's source runs each once, however long, but an item that runs 100 more times is a loop, cut off with
 * "Cycle detected" (thrown), unless it ran no more often than the number of items counted that ran at most 100
 * times, less those of them created since counting began, plus one: a reader of every link of a long chain runs
 * once per link, as often as new links run, but a loop that creates an effect at each turn makes a new item at
 * each turn too, and is no chain (not compared with all items either: with each created effect run at every turn,
 * such a loop slows down quadratically long before 100,000 rounds). Only created effects that run here count: one
 * made once, for anything, while a long chain runs, must not cut the chain's reader (it did when every effect
 * created since counting began was subtracted). Anything past 100,000 rounds is cut off too, whatever ran. Where
 * the host has no `reportError`, the errors reported meanwhile are thrown at the end of the outermost drain (see
 * `several`), with the cycle's last.
 *
 * Drains nest (a render's write runs the effects it queued in a drain of their own, an effect's flush() renders in
 * one), and a loop may run through both: the outer item queues itself again at each turn, and each turn runs an
 * inner loop to its own cut-off, so the outer loop was cut off after rounds x rounds (200 x 200). An item during
 * four of whose runs a nested drain was cut off (thrown through the item or caught on the way) is taken for a loop:
 * the drain is cut off when it comes up again. Four, not two: an item that runs a few times for a finite reason (a
 * reader of a short chain that calls flush()) while a loop elsewhere is cut in its flushes is no loop, and cutting
 * the drain would drop the unrelated items queued after it. Drains nest at most two deep (a nested flush() returns,
 * and so does a write's settle while effects run), so the run during which `cuts` moved is the enclosing drain's.
 */
export function drain<T extends Queued>(queue: Queue<T>, run: (item: T) => void): void {
  const items = queue._items
  let i = queue._start
  let end = queue._size
  let rounds = 0
  let runs: Map<T, number> | undefined
  // How many counted items ran over 100 times; how many are effects created since counting began, when `born` was
  // `since` (an effect created and never queued again is not counted at all; one also over 100 runs counts in both,
  // which only cuts a loop sooner).
  let looping = 0
  let created = 0
  let since = 0
  let cut: Error | undefined
  let errors: unknown[] | undefined
  // How many of each item's runs saw a nested drain cut off (see above).
  let inner: Map<T, number> | undefined
  draining++
  try {
    for (; i < queue._size; i++) {
      if (i == end) {
        if (++rounds > 100 && !runs) (runs = new Map()), (since = born)
        end = queue._size
      }
      const item = items[i]
      // A hole: a slot cleared after its item ran, where an overflow then cut the loop short (see finally).
      if (!item) continue
      if (runs) {
        const n = (runs.get(item) || 0) + 1
        runs.set(item, n)
        if (n == 1 && item._version! > since) created++
        if (n == 101) looping++
        if ((n > 100 && n > runs.size - looping - created + 1) || rounds > 1e5) {
          cut = cycle()
          break
        }
      }
      if (inner && inner.get(item)! > 3) {
        cut = cycle()
        break
      }
      const seen = cuts
      const queued = queue._size
      try {
        run(item)
      } catch (error) {
        // Still flagged and not queued again (by its own run, so among what that run queued): it never started, for
        // a stack overflow where the stack was nearly full here. Thrown through (see finally): it is kept, with the rest.
        if (item._flags & PENDING && items.indexOf(item, queued) < 0) throw error
        report(error)
      }
      if (cuts != seen) (inner ??= new Map()).set(item, (inner.get(item) || 0) + 1)
      // Last: should anything above throw through (a stack overflow), the item is kept with the rest (see finally).
      items[i] = undefined
    }
  } finally {
    // Normally everything ran. After a cycle the rest, what kept queuing itself, is dropped and released, so
    // that its next change queues it again: left queued, it would loop in the next drain, which may be a later
    // unrelated write or effect(). Thrown through (a stack overflow that nothing here could catch), the rest stays
    // queued for the next drain where it is, from `_start`, set by one store: moving it was a loop, which an
    // overflow can cut short too where the code is still cold (see recompute in graph.ts), and one that did left
    // the rest dropped and still flagged, never queued again. Its sources' next write notifies it (see NOTIFIED);
    // the errors reported so far are thrown at the end of the next outermost drain (they would be lost: nothing
    // here can throw them).
    const size = queue._size
    if (!--draining && (i == size || cut)) {
      errors = pending
      pending = undefined
    }
    if (i < size && !cut) {
      queue._start = i
      for (; i < size; i++) {
        const l = items[i]?._deps
        if (l) l._dep._flags &= ~NOTIFIED
      }
    } else {
      queue._size = queue._start = 0
      for (; i < size; i++) {
        const item = items[i]
        items[i] = undefined
        if (item) release(item)
      }
    }
  }
  if (cut) (errors ??= []).push(cut), draining && cuts++
  if (errors?.length) throw several(errors)
}
