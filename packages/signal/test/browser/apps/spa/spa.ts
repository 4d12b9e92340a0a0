// Measurement helpers of the SPA trial (on top of the soak trial's: heap after a full collection, live eddy
// objects by prototype through the DevTools protocol, medians and slopes).
import { renders } from '../../../../src/render.ts'
import { subscribers } from '../../dom.ts'
import type { Store } from './spa-app.ts'

export { heapUsed, liveObjects, median, prototypes, settleHeap, sleep, slope } from '../soak.ts'

/** Subscribers of each of the store's signals, and their sum. */
export function storeSubs(store: Store): { total: number; each: Record<string, number> } {
  const each = Object.fromEntries(Object.entries(store).map(([k, s]) => [k, subscribers(s)]))
  return { total: Object.values(each).reduce((a, b) => a + b, 0), each }
}

/** White-box: render jobs waiting in the shared queue. */
export const queuedRenders = (): number => renders._size - renders._start
