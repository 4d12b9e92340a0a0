/// <reference lib="esnext.disposable" preserve="true" />
// Effects: a leaf of the graph whose body runs synchronously once now, then after each change of what it read
// (after the outermost batch). Subscriptions (`.subscribe`) are effects too.
import { WATCHING } from './flags.ts'
import { disposeEffect, keepAlive, start, type ReactiveNode } from './graph.ts'
import { expectFunction, rethrowAfter } from './errors.ts'

/** `Symbol.dispose`, or the `Symbol.for('Symbol.dispose')` stand-in that transpiled `using` looks for where there is none. */
export const disposeKey: typeof Symbol.dispose = Symbol.dispose ?? (Symbol.for('Symbol.dispose') as typeof Symbol.dispose)

/** Stops an effect or subscription: call it, or let `using` call it through `Symbol.dispose`. */
export interface Dispose {
  /** Stops it; calling it again does nothing. */
  (): void
  /** Same as calling it, for `using`. */
  [Symbol.dispose](): void
}

/**
 * The body of an effect; it may return a cleanup, run before the next run and on dispose. A primitive it returns
 * (what `() => (el.title = s.value)` assigns) is ignored; an object or a promise is a type error (`fn` is synchronous).
 */
export type EffectFn = (this: void) => void | ((this: void) => void) | string | number | bigint | boolean | symbol | null

// A constructor, not an object literal, for a stable map (see Link in graph.ts).
// `_subs`, `_subsTail` and `_value` are unused by effects, and `_version` holds the birth stamp (see start in
// graph.ts): they keep `_deps`, `_depsTail` and `_gv` in the same slots as in a computed (see graph.ts).
function Effect(this: ReactiveNode, fn: EffectFn): void {
  this._flags = WATCHING
  this._subs = undefined
  this._subsTail = undefined
  this._version = 0
  this._value = undefined
  this._deps = undefined
  this._depsTail = undefined
  this._gv = 0
  this._fn = fn
  this._cleanup = undefined
}

// Keeps the maps of an effect node and of its dispose function (a bound function with a symbol key) alive.
keepAlive.push(dispose(new (Effect as any)(() => {})))

function dispose(e: ReactiveNode): Dispose {
  const d = disposeEffect.bind(e) as Dispose
  d[disposeKey] = d
  return d
}

/** Runs `fn` now and again whenever a signal or computed it read changes; returns the function that stops it. */
export function effect(fn: EffectFn): Dispose {
  expectFunction(fn, 'effect')
  const e: ReactiveNode = new (Effect as any)(fn)
  const stop = dispose(e)
  // If the first run throws (or its writes end in a cycle) the effect is disposed and the error goes to the
  // caller: nothing half-applied. Its cleanup may throw too (without `reportError`): then both go.
  try {
    start(e)
  } catch (error) {
    rethrowAfter(error, stop)
  }
  return stop
}
