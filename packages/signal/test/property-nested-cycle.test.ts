// Random loops through renders and effects (formats and effects that write signals, effects that call flush(), a
// synchronous schedule or not, reportError or not): only "Cycle detected" is thrown or reported, the loop ends
// within a bound on its runs (nested cut-offs do not multiply: the worst of 400 cases ran ~500,000-970,000 times
// before, ~3,000-11,000 now), and once the writes stop, one write of every signal brings every effect and every
// binding up to date, with no error.
import { afterEach, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { Signal, batch, configure, effect, flush } from '@eddy/signal'

afterEach(() => {
  vi.unstubAllGlobals()
  configure({ schedule: 'microtask' })
  try {
    flush()
  } catch {}
})

const N = 4
const writes = fc.array(fc.nat(N - 1), { maxLength: 2 })
// An effect reads one or two signals and, once armed, increments some and may call flush(); a binding's format
// increments some.
const effectArb = fc.record({ reads: fc.uniqueArray(fc.nat(N - 1), { minLength: 1, maxLength: 2 }), writes, flushes: fc.boolean() })
const caseArb = fc.record({
  effects: fc.array(effectArb, { maxLength: 4 }),
  bindings: fc.array(fc.record({ source: fc.nat(N - 1), writes }), { maxLength: 4 }),
  sync: fc.boolean(),
  report: fc.boolean(),
  start: fc.nat(N - 1),
})

it('after any loop through renders and effects, the next writes bring everything up to date', () => {
  fc.assert(
    fc.property(caseArb, (c) => {
      const reported: unknown[] = []
      vi.stubGlobal('reportError', c.report ? (e: unknown) => reported.push(e) : undefined)
      configure({ schedule: c.sync ? (f) => f() : 'microtask' })
      const sigs = Array.from({ length: N }, () => new Signal(0))
      let armed = false
      let runs = 0
      const seen: number[][] = []
      const disposers: (() => void)[] = []
      const errors: unknown[] = []
      const guard = (f: () => void) => {
        try {
          f()
        } catch (e) {
          errors.push(e)
        }
      }
      c.effects.forEach((e, j) =>
        disposers.push(
          effect(() => {
            runs++
            seen[j] = e.reads.map((r) => sigs[r]!.value)
            if (armed) {
              for (const w of e.writes) sigs[w]!.value++
              if (e.flushes) flush()
            }
          }),
        ),
      )
      const texts = c.bindings.map((b) => {
        const text = document.createTextNode('')
        const binding = sigs[b.source]!.bind(text, {
          format: (v) => {
            runs++
            if (armed) for (const w of b.writes) sigs[w]!.value++
            return String(v)
          },
        })
        disposers.push(() => binding.dispose())
        return text
      })
      guard(flush)
      armed = true
      runs = 0
      guard(() => sigs[c.start]!.value++)
      guard(flush)
      // Was up to ~970,000 (a few loops of 201 turns, each running an inner loop of 201 rounds).
      expect(runs).toBeLessThan(30_000)
      for (const e of [...errors, ...reported])
        for (const x of e instanceof AggregateError ? e.errors : [e]) expect(String(x)).toBe('Error: Cycle detected')
      armed = false
      errors.length = reported.length = 0
      guard(() => batch(() => sigs.forEach((s, i) => (s.value = -1000 - i))))
      guard(flush)
      expect(errors).toEqual([])
      expect(reported).toEqual([])
      c.effects.forEach((e, j) => expect(seen[j]).toEqual(e.reads.map((r) => -1000 - r)))
      c.bindings.forEach((b, j) => expect(texts[j]!.data).toBe(String(-1000 - b.source)))
      disposers.forEach((d) => d())
    }),
    { numRuns: 400 },
  )
})
