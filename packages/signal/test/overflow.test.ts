// A stack overflow in the middle of the graph's own work (a deep, cold read, a write, a drain) must leave nothing
// stuck. Run against the shipped build (`pnpm run build`), in a file of its own: in Vitest's transform of the sources
// each imported flag constant is read through a getter, a call (where an overflow can land) that the build does not
// make, and the library's functions must still be cold (not inlined into each other), as in an app that just started.
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as source from '@eddy/signal'

const dist = join(fileURLToPath(import.meta.url), '../../dist/index.js')
const { Signal, computed, effect, batch, flush, untracked, configure, settled }: typeof source = await import(/* @vite-ignore */ pathToFileURL(dist).href)

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

  // Recurses until the stack overflows, then calls `act` on the way back at each of the 2,000 deepest levels (an act
  // needs a few hundred), from a few starting depths: the overflow lands on every call the library makes on the way
  // (each run of this varies with what V8 compiled).
  const nearlyFull = (act: () => void): void => {
    let left = 0
    const deep = (): void => {
      try {
        deep()
      } catch {
        left = 2000
      }
      if (left-- > 0)
        try {
          act()
        } catch {}
    }
    const at = (k: number): void => (k ? at(k - 1) : deep())
    for (let k = 0; k < 8; k++) at(k)
  }

  // A chain of computeds read by effects, an effect that writes a bound signal, a subscriber, and bindings of
  // several kinds (one two-way).
  const app = () => {
    const s = new Signal(0)
    const a = computed(() => s.value + 1)
    const b = computed(() => a.value + 1)
    const c = computed(() => b.value + 1)
    const t = new Signal(0)
    let seen = -1
    let heard = -1
    effect(() => {
      seen = c.value
    })
    effect(() => {
      t.value = b.value
    })
    s.subscribe((v) => (heard = v))
    const p = document.createElement('p')
    const q = document.createElement('p')
    const r = document.createElement('p')
    const input = document.createElement('input')
    t.bind(p)
    s.bind(q, { attr: 'data-x' })
    c.bind(r, 'title')
    s.bind(input, { model: 'input' })
    flush()
    // Everything follows the next write, both ways, a new effect runs at its writes, in a batch too, and settled()
    // resolves.
    const works = async (): Promise<void> => {
      s.value = 1000
      flush()
      expect([c.value, seen, heard, t.value, p.textContent, q.dataset.x, r.title, input.value]).toEqual([
        1003, 1003, 1000, 1002, '1002', '1000', '1003', '1000',
      ])
      input.value = '5'
      input.dispatchEvent(new Event('input'))
      flush()
      expect([s.value, c.value, seen, heard, q.dataset.x]).toEqual([5, 8, 8, 5, '5'])
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
      s.value = 6
      await expect(settled()).resolves.toBe(undefined)
      expect(q.dataset.x).toBe('6')
    }
    return { s, c, t, input, works }
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
    'an attribute binding created, rendered and disposed': (g) => {
      const binding = g.s.bind(document.createElement('i'), { attr: 'x' })
      g.s.value++
      flush()
      binding.dispose()
    },
    'a subscribe and a write': (g) => {
      const stop = g.c.subscribe(() => {})
      g.s.value++
      stop()
    },
    'untracked()': (g) =>
      untracked(() => {
        g.s.value++
        g.c.value
      }),
    'nested batches that create an effect': (g) =>
      batch(() => batch(() => (g.s.value++, effect(() => void g.c.value)()))),
    'an input event of a two-way binding': (g) => {
      g.input.value = String(+g.input.value + 1)
      g.input.dispatchEvent(new Event('input'))
    },
    'a write with a synchronous schedule': (g) => {
      configure({ schedule: (flush) => flush() })
      try {
        g.s.value++
      } finally {
        configure({ schedule: 'microtask' })
      }
    },
  }
  for (const [name, act] of Object.entries(acts))
    it(`should leave no effect, binding, computed or batch stuck when the stack overflows in ${name}`, async () => {
      const g = app()
      nearlyFull(() => act(g))
      await g.works()
    })
})
