// Measurement helpers of the SPA trial (on top of the soak trial's: heap after a full collection, live eddy
// objects by prototype through the DevTools protocol, medians and slopes).
import { Signal, computed, effect } from '@eddy/signal'
import { renders } from '../../../../src/render.ts'
import { subscribers } from '../../dom.ts'
import type { Store } from './spa-app.ts'

export { heapUsed, liveObjects, median, settleHeap, sleep, slope } from '../soak.ts'

/** The prototypes of eddy's node kinds, found through the public API. */
export function prototypes(): Record<string, object> {
  const s = new Signal(0)
  const c = computed(() => s.value)
  const stop = effect(() => void c.value)
  const b = s.bind(document.createElement('p'))
  const protos = {
    Signal: Signal.prototype,
    Computed: Object.getPrototypeOf(c),
    Effect: Object.getPrototypeOf((c as any)._subs._sub),
    Binding: Object.getPrototypeOf(b),
    Link: Object.getPrototypeOf((s as any)._subs),
  }
  b.dispose()
  stop()
  return protos
}

/** Subscribers of each of the store's signals, and their sum. */
export function storeSubs(store: Store): { total: number; each: Record<string, number> } {
  const each = Object.fromEntries(Object.entries(store).map(([k, s]) => [k, subscribers(s)]))
  return { total: Object.values(each).reduce((a, b) => a + b, 0), each }
}

/** White-box: render jobs waiting in the shared queue. */
export const queuedRenders = (): number => renders._size - renders._start
