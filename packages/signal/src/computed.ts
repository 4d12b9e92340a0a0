// Computeds: lazy, cached, glitch-free derived values (the algorithm is in graph.ts).
import { COMPUTED, DIRTY, ERRORED, PENDING, RUNNING, UNWATCHED } from './flags.ts'
import { activeSub, keepAlive, link, readComputed, type Link } from './graph.ts'
import { expectFunction } from './errors.ts'
import { Signal } from './signal.ts'
import type { Binding, DomNode, ReadonlyBindTarget } from './bind.ts'
import type { Dispose } from './effect.ts'

/** A read-only value derived from signals and computeds; recomputed lazily, at most once per change. */
declare class Computed<T = unknown> {
  /** @internal Use `computed(fn)`. */
  constructor(fn: () => T)
  /** The current value (tracked inside computeds and effects); rethrows the error the function threw, if it did. */
  readonly value: T
  /** Reads the value without tracking it. */
  peek(): T
  /** Calls `fn` with the value now and after each change; returns the function that unsubscribes. */
  subscribe(fn: (value: T) => void): Dispose
  /** Renders the value into `node` (text by default), coalesced; see `Signal.prototype.bind`. */
  bind(node: DomNode, target?: ReadonlyBindTarget<T>): Binding
  /** The value, read as `.value` is (tracked): `JSON.stringify` writes a computed as its value. */
  toJSON(): T
  /** The value, read as `.value` is (tracked): `+doubled`. */
  valueOf(): T
  /** The value as a string, read as `.value` is (tracked): `${doubled}`. */
  toString(): string
  /** @internal */ _value: T
  /** @internal */ _version: number
  /** @internal */ _flags: number
  /** @internal */ _subs: Link | undefined
  /** @internal */ _subsTail: Link | undefined
  // Optional, the internals a signal lacks: a Signal<T> is a Computed<T> in the repo's own types too, as in the
  // shipped ones (internals are stripped), for code type-checked against the sources in this workspace.
  /** @internal */ _fn?: () => T
  /** @internal */ _deps?: Link | undefined
  /** @internal */ _depsTail?: Link | undefined
  /** @internal */ _gv?: number
}

// A constructor function whose prototype extends Signal.prototype (subscribe, bind, instanceof Signal) rather
// than an ES class, for the same reasons as Signal: smaller output and monomorphic, fast property access.
function Computed<T>(this: Computed<T>, fn: () => T): void {
  // Field order matters: signals, computeds and effects start with the same fields in the same slots (see graph.ts).
  this._flags = COMPUTED | DIRTY | UNWATCHED
  this._subs = undefined
  this._subsTail = undefined
  this._version = 0
  this._value = undefined as T
  this._deps = undefined
  this._depsTail = undefined
  this._gv = -1
  this._fn = fn
}

Object.setPrototypeOf(Computed.prototype, Signal.prototype)

Object.defineProperty(Computed.prototype, 'value', {
  get(this: Computed) {
    // Fast path: a clean computed that subscribers keep up to date (no check needed).
    if (this._flags & (DIRTY | PENDING | RUNNING | ERRORED | UNWATCHED)) return readComputed(this, true)
    if (activeSub) link(this, activeSub)
    return this._value
  },
  set() {
    throw new TypeError('computed: value is read-only')
  },
})

Computed.prototype.peek = function (this: Computed) {
  return readComputed(this, false)
}

keepAlive.push(new Computed(() => 0))

/** Creates a computed value from `fn`, which reads signals and computeds (and must not write them). */
export function computed<T>(fn: (this: void) => T): Computed<T> {
  return new Computed(expectFunction(fn, 'computed'))
}

export type { Computed }
