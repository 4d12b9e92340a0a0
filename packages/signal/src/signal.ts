// Signals: writable reactive values.
import { activeSub, keepAlive, link, untracked, write, type Link } from './graph.ts'
import { bind, type BindTarget, type Binding, type DomNode, type ModelTarget } from './bind.ts'
import { effect, type Dispose } from './effect.ts'
import type { Computed } from './computed.ts'
import { expectFunction, expectObject } from './errors.ts'
import { EQUALS } from './flags.ts'

/**
 * `NoInfer<T>` for TypeScript before 5.4 too (the built-in is a type error there, in dist): an indexed access
 * TypeScript does not infer through.
 */
type NoInfer_<T> = [T][T extends any ? 0 : never]

/** Options of `new Signal(value, options)`. */
export interface SignalOptions<T> {
  /** Decides whether a write changes the value (a write of an equal value is a no-op); default `Object.is`. */
  equals?: ((this: void, previous: T, next: T) => boolean) | undefined
}

/** A reactive value. Reads inside computeds and effects are tracked; writes notify them and re-render bindings. */
declare class Signal<T = unknown> {
  /**
   * True for signals and computeds (`computed()` values are instances too), and narrows so. Generic over `this`:
   * the static is inherited, and `x instanceof Subclass` narrows to the subclass (the default would to Signal).
   */
  static [Symbol.hasInstance]<C>(
    this: C,
    value: unknown,
  ): value is typeof Signal extends C ? Signal<any> | Computed<any> : C extends abstract new (...args: any) => infer I ? I : never
  /** Creates a signal holding `value`; `Signal(value)` without `new` works too. */
  constructor(value: T, options?: SignalOptions<NoInfer_<T>>)
  /** The current value. Reading it inside a computed or effect tracks it; writing an equal value is a no-op. */
  value: T
  /** Reads the value without tracking it. */
  peek(): T
  /** Calls `fn` with the value now and after each change; returns the function that unsubscribes. */
  subscribe(fn: (value: T) => void): Dispose
  /** Binds `node` two-way: its `target.model` event writes the field's value back (see BindTarget). */
  bind(this: { peek(): string | number | boolean | readonly string[] }, node: DomNode, target: ModelTarget): Binding
  /** Renders the value into `node` (text by default, or `target`), coalesced: at most one DOM write per flush. */
  bind(node: DomNode, target?: BindTarget<T>): Binding
  /** The value, read as `.value` is (tracked): `JSON.stringify` writes a signal as its value. */
  toJSON(): T
  /** The value, read as `.value` is (tracked): `+count` (and `count > 3` in JavaScript; TypeScript wants `+count > 3`). */
  valueOf(): T
  /** The value as a string, read as `.value` is (tracked): `${count}`. */
  toString(): string
  /** @internal */ _value: T
  /** @internal */ _version: number
  /** @internal */ _flags: number
  /** @internal */ _subs: Link | undefined
  /** @internal */ _subsTail: Link | undefined
  // `any`, not T: a function of T here would make Signal<T> invariant in the repo's own types, not in the shipped
  // ones (internals are stripped), and the type tests would check something else than what users get.
  /** @internal */ _equals: ((previous: any, next: any) => boolean) | undefined
}

// Signal is a constructor function with its methods on Signal.prototype, not an ES class: the minified output is
// smaller (no class fields or private-name helpers) and every instance gets one stable shape built in a plain
// function, which keeps property access monomorphic and fast (this is how @preact/signals-core is written).
// It also lets `Signal(0)` work without `new`, and `Signal.call(this, v)` initialize `this`: ES5 inheritance, and what
// TypeScript's ES5 target and Babel's loose mode emit for `class C extends Signal` (as with @preact/signals-core).
/** Creates a signal holding `value`; `new` is optional. */
function Signal<T>(this: unknown, value: T, options?: SignalOptions<NoInfer_<T>>): Signal<T> {
  // Only an instance not yet initialized is initialized in place; on a live one (`s.constructor(5)`) it makes one.
  if (!new.target && !(this instanceof Signal && (this as Signal<T>)._flags == null)) return new Signal(value, options)
  const s = this as Signal<T>
  // Field order matters: signals, computeds and effects start with the same fields in the same slots (see graph.ts).
  // `new Signal(v, (a, b) => …)` passes the comparison where the options go: refused, not silently ignored.
  if (options !== undefined) expectObject(options, 'options')
  const equals = options?.equals
  if (equals !== undefined) expectFunction(equals, 'equals')
  s._flags = equals ? EQUALS : 0
  s._subs = undefined
  s._subsTail = undefined
  s._version = 0
  s._value = value
  s._equals = equals
  return s
}

Object.defineProperty(Signal.prototype, 'value', {
  get(this: Signal) {
    if (activeSub) link(this, activeSub)
    return this._value
  },
  set(this: Signal, value: unknown) {
    write(this, value)
  },
})

Signal.prototype.peek = function (this: Signal) {
  return this._value
}

Signal.prototype.subscribe = function <T>(this: Signal<T>, fn: (value: T) => void): Dispose {
  expectFunction(fn, 'subscribe')
  // Taken off its signal, as `useSyncExternalStore(count.subscribe, ...)` does: named here, not "reading 'value' of
  // undefined" from inside the effect.
  if (!this) throw new TypeError('subscribe() needs its signal: s.subscribe(fn)')
  return effect(() => {
    const value = this.value
    untracked(() => fn(value))
  })
}

Signal.prototype.bind = bind as Signal<any>['bind']

// As @preact/signals-core: a signal stands for its value in JSON, arithmetic and template literals (JSON.stringify
// wrote its internal fields, and `${s}` read '[object Object]').
Signal.prototype.toJSON = Signal.prototype.valueOf = function (this: Signal) {
  return this.value
}

Signal.prototype.toString = function (this: Signal) {
  return String(this.value)
}

keepAlive.push(new Signal(undefined))

export { Signal }
