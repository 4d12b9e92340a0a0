/**
 * The eddy adapter for the signal benchmark, against the public API (src/index.ts).
 * Kept apart from ./adapters.ts so the peers' benchmark runs whatever state eddy's core is in.
 */
import { Signal, computed, effect, batch, flush } from '@eddy/signal'
import type { Adapter } from './adapters.ts'

type Box<T> = { value: T }

/** eddy: `new Signal(v)` and `computed(fn)`, both read through `.value`; `bind` coalesces renders. */
export const eddyAdapter: Adapter = {
  name: 'eddy',
  reference: false,
  signal: (value) => new Signal(value) as never,
  computed: (fn) => computed(fn) as never,
  read: (node) => (node as unknown as Box<never>).value,
  write: (signal, value) => {
    ;(signal as unknown as Box<unknown>).value = value
  },
  effect: (fn) => effect(fn),
  batch: (fn) => batch(fn),
  bind: (signal, el) => {
    const binding = (signal as unknown as Signal<unknown>).bind(el)
    return () => binding.dispose()
  },
  flush,
}
