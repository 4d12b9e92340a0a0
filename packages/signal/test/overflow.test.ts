// A stack overflow in the middle of the graph's own work (a deep, cold read, a write, a drain) must leave nothing
// stuck. Run against the shipped build (`pnpm run build`), in a file of its own: in Vitest's transform of the sources
// each imported flag constant is read through a getter, a call (where an overflow can land) that the build does not
// make, and the library's functions must still be cold (not inlined into each other), as in an app that just started.
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as source from '@eddy/signal'
import { nearlyFull, overflowCases } from './overflow-cases.ts'

const dist = join(fileURLToPath(import.meta.url), '../../dist/index.js')
const lib: typeof source = await import(/* @vite-ignore */ pathToFileURL(dist).href)
const { Signal, computed } = lib

describe('stack overflow (built dist)', () => {
  it('should not leave computeds taken for a cycle when the stack overflows while they are checked', () => {
    // A warm part under a cold chain, read top first, is checked where the stack is nearly full. This recurses
    // until it overflows, then writes and reads on the way back, one frame shallower each time, so that some
    // read overflows in the middle of checking the computeds.
    const s = new Signal(0)
    const a = computed(() => s.value + 1)
    const b = computed(() => a.value + 1)
    const c = computed(() => b.value + 1)
    c.value
    const deep = (): void => {
      try {
        deep()
      } catch {}
      try {
        s.value++
        c.value
      } catch {}
    }
    // from a few starting depths, so that the overflow lands on each call of the check
    const at = (k: number): void => (k ? at(k - 1) : deep())
    for (let k = 0; k < 4; k++) at(k)
    s.value = 10
    expect(c.value).toBe(13)
    expect(b.value).toBe(12)
    expect(a.value).toBe(11)
  })

  const { app, acts } = overflowCases(lib)
  for (const [name, act] of Object.entries(acts))
    it(`should leave no effect, binding, computed or batch stuck when the stack overflows in ${name}`, async () => {
      const g = app()
      nearlyFull(() => act(g))
      await g.works()
    })
})
