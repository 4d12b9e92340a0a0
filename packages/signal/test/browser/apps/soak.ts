// Measurement helpers of the soak trial: heap after a full collection, live objects by prototype (the DevTools
// protocol's Runtime.queryObjects, which collects garbage first), medians and slopes.
import { cdp } from 'vitest/browser'
import { gc } from '../../../../../scripts/gc.ts'
import { heapCounter } from '../heap.ts'
import { Signal, computed, effect } from '@eddy/signal'

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Collects garbage between macrotasks, so FinalizationRegistry callbacks (eddy drops bindings in them) run. */
export async function settleHeap(rounds = 4): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await sleep(2)
    gc()
  }
}

/** The JS heap in use after a full collection: CDP's Runtime.getHeapUsage (exact), and performance.memory's figure. */
export async function heapUsed(): Promise<{ cdp: number; memory: number | undefined }> {
  await settleHeap()
  const session = cdp()
  const { usedSize } = (await session.send('Runtime.getHeapUsage')) as { usedSize: number }
  return { cdp: usedSize, memory: (performance as any).memory?.usedJSHeapSize }
}

/** Counts live objects whose prototype is exactly `proto`, after a full collection (see heap.ts). */
export async function liveObjects(protos: Record<string, object>): Promise<Record<string, number>> {
  await settleHeap()
  const heap = await heapCounter()
  const out: Record<string, number> = {}
  try {
    for (const [name, proto] of Object.entries(protos)) out[name] = await heap.count(proto)
  } finally {
    await heap.close()
  }
  return out
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Least-squares slope of ys over xs. */
export const slope = (xs: number[], ys: number[]): number => {
  const n = xs.length
  const mx = xs.reduce((a, b) => a + b, 0) / n
  const my = ys.reduce((a, b) => a + b, 0) / n
  let num = 0
  let den = 0
  for (let i = 0; i < n; i++) (num += (xs[i]! - mx) * (ys[i]! - my)), (den += (xs[i]! - mx) ** 2)
  return num / den
}

/** The prototypes of eddy's node kinds, found through the public API. */
export function prototypes(): Record<string, object> {
  const s = new Signal(0)
  const c = computed(() => s.value)
  const stop = effect(() => void c.value)
  const b = s.bind(document.createElement('p'))
  const protos = {
    Signal: Signal.prototype,
    Computed: Object.getPrototypeOf(c),
    Binding: Object.getPrototypeOf(b),
    Link: Object.getPrototypeOf((s as any)._subs),
    Effect: Object.getPrototypeOf((c as any)._subs._sub),
  }
  b.dispose()
  stop()
  return protos
}
