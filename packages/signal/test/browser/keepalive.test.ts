// The keep-alive instances of the shipped bundle (packages/signal/dist, built before Vitest runs), counted in the
// real heap through the DevTools protocol's Runtime.queryObjects (which collects garbage first).
//
// Why it matters: V8 builds an object's hidden class (map) field by field and optimized code depends on those
// maps; when every instance of a kind dies, its maps can be collected and the hot functions' optimized code is
// thrown away ("embedded weak objects cleared"). So eddy keeps one live instance of each node kind (keepAlive in
// graph.ts). Once, the list holding them was reachable only from the bundle's top-level code and was collected
// after it ran: every benchmark round then rebuilt the maps and re-optimized the write path, and Chromium's
// reactivity benchmark went from 1.1x to 2x alien-signals. No other test notices that: this one counts them.
import { describe, expect, it } from 'vitest'
import { heapCounter } from './heap.ts'
import type * as Eddy from '@eddy/signal'

const load = (): Promise<typeof Eddy> => import(/* @vite-ignore */ new URL('../../dist/index.js', import.meta.url).href)

describe('keep-alive instances of the built bundle (Chromium heap)', () => {
  it('should outlive every graph the user made, so V8 keeps the node maps', async () => {
    const { Signal, computed, effect } = await load()
    // Prototypes reachable from the public API: Signal, Computed (its prototype extends Signal's), Binding.
    const kinds = (() => {
      const s = Signal(1)
      const c = computed(() => s.value + 1)
      const stop = effect(() => void c.value)
      const binding = s.bind(document.createElement('p'))
      const protos = {
        Signal: Signal.prototype as object,
        Computed: Object.getPrototypeOf(c) as object,
        Binding: Object.getPrototypeOf(binding) as object,
      }
      binding.dispose()
      stop()
      return protos
    })()
    // Every graph above is garbage now; what is left of each kind is eddy's own.
    const heap = await heapCounter()
    const counts: Record<string, number> = {}
    for (const [kind, proto] of Object.entries(kinds)) counts[kind] = await heap.count(proto)
    await heap.close()
    // Measured: 1 Computed and 1 Binding (eddy's), >= 1 Signal; with the list collected, 0 Computed and 0 Binding.
    for (const kind of Object.keys(kinds)) expect(counts[kind], `live ${kind} objects`).toBeGreaterThanOrEqual(1)
  })
})
