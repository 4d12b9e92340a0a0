// Stack overflows where the stack is nearly full, in each kind of call the library makes, and what must still work
// after them: the cases of overflow.test.ts (the build, in Node).
import { expect } from 'vitest'
import type * as source from '@eddy/signal'

// Recurses until the stack overflows, then calls `act` on the way back at each of the 2,000 deepest levels (an act
// needs a few hundred), from a few starting depths: the overflow lands on every call the library makes on the way
// (each run of this varies with what V8 compiled).
export const nearlyFull = (act: () => void): void => {
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

/** The app (`app()`) and the calls tried where the stack is nearly full (`acts`), made with `lib`. */
export function overflowCases(lib: typeof source) {
  const { Signal, computed, effect, batch, flush, untracked, configure, settled } = lib
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
  return { app, acts }
}
