// A stack overflow in the middle of the graph's own work (a deep, cold read, a write, a drain) must leave nothing
// stuck. Run against the shipped build (`pnpm run build`), in a file of its own: in Vitest's transform of the sources
// each imported flag constant is read through a getter, a call (where an overflow can land) that the build does not
// make, and the library's functions must still be cold (not inlined into each other), as in an app that just started.
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as source from '@eddy/signal'

const dist = join(fileURLToPath(import.meta.url), '../../dist/index.js')
const { Signal, computed, effect, batch, flush }: typeof source = await import(/* @vite-ignore */ pathToFileURL(dist).href)

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

  // Recurses until the stack overflows, then calls `act` on the way back at every depth, from a few starting depths:
  // the overflow lands on every call the library makes on the way (each run of this varies with what V8 compiled).
  const nearlyFull = (act: () => void): void => {
    const deep = (): void => {
      try {
        deep()
      } catch {}
      try {
        act()
      } catch {}
    }
    const at = (k: number): void => (k ? at(k - 1) : deep())
    for (let k = 0; k < 8; k++) at(k)
  }

  // A chain of computeds read by effects, an effect that writes a bound signal, and bindings.
  const app = () => {
    const s = new Signal(0)
    const a = computed(() => s.value + 1)
    const b = computed(() => a.value + 1)
    const c = computed(() => b.value + 1)
    const t = new Signal(0)
    let seen = -1
    effect(() => {
      seen = c.value
    })
    effect(() => {
      t.value = b.value
    })
    const p = document.createElement('p')
    const q = document.createElement('p')
    t.bind(p)
    s.bind(q)
    flush()
    // Everything follows the next write, and a new effect runs at its writes, in a batch too.
    const works = (): void => {
      s.value = 1000
      flush()
      expect([c.value, seen, t.value, p.textContent, q.textContent]).toEqual([1003, 1003, 1002, '1002', '1000'])
      const fresh = new Signal(0)
      const runs: number[] = []
      effect(() => {
        runs.push(fresh.value)
      })
      fresh.value = 1
      batch(() => {
        fresh.value = 2
      })
      expect(runs).toEqual([0, 1, 2])
    }
    return { s, c, t, works }
  }

  const acts: Record<string, (g: ReturnType<typeof app>) => void> = {
    'a write': (g) => {
      g.s.value++
    },
    'a write and a flush': (g) => {
      g.s.value++
      flush()
    },
    'a batch': (g) =>
      batch(() => {
        g.s.value++
      }),
    'a write and a read': (g) => {
      g.s.value++
      g.c.value
    },
    'an effect created and disposed': (g) => effect(() => void g.c.value)(),
    'a binding created, rendered and disposed': (g) => {
      const binding = g.t.bind(document.createElement('i'))
      g.t.value++
      flush()
      binding.dispose()
    },
  }
  for (const [name, act] of Object.entries(acts))
    it(`should leave no effect, binding, computed or batch stuck when the stack overflows in ${name}`, () => {
      const g = app()
      nearlyFull(() => act(g))
      g.works()
    })
})
