// Property test of bindings and the bound-write shortcut (NOTIFIED, READ): random sequences of writes, bindings,
// disposals, unwatched computeds, effects, batches and flushes over a few signals. After every step effects and
// computeds must show the signals' values; after every flush, every live binding must show its signal's value.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Signal, batch, computed, effect, flush, type Binding, type Computed } from '@eddy/signal'

type Op =
  | { kind: 'write'; s: number; v: number }
  | { kind: 'batch'; writes: [number, number][] }
  | { kind: 'bind'; s: number }
  | { kind: 'unbind'; k: number }
  | { kind: 'computed'; s: number }
  | { kind: 'read'; k: number }
  | { kind: 'effect'; s: number }
  | { kind: 'stop'; k: number }
  | { kind: 'flush' }

const SIGNALS = 3
const sig = fc.nat(SIGNALS - 1)
// Few distinct values, so that equal writes (no-ops) and writes back to what the DOM shows are frequent.
const value = fc.integer({ min: 0, max: 3 })
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('write' as const), s: sig, v: value }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('batch' as const), writes: fc.array(fc.tuple(sig, value), { maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('bind' as const), s: sig }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unbind' as const), k: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('computed' as const), s: sig }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const), k: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('effect' as const), s: sig }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stop' as const), k: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('flush' as const) }) },
)

describe('bindings (property)', () => {
  it('should show every signal value in its bindings, computeds and effects, whatever the order of operations', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 40 }), (ops) => {
        const signals = Array.from({ length: SIGNALS }, () => new Signal(0))
        const bindings: { s: number; el: HTMLElement; b: Binding; live: boolean }[] = []
        const computeds: { s: number; c: Computed<number> }[] = []
        const effects: { s: number; seen: number; runs: number; stop: () => void; live: boolean }[] = []
        const check = () => {
          for (const e of effects) if (e.live) expect(e.seen).toBe(signals[e.s]!.peek())
        }
        for (const op of ops) {
          switch (op.kind) {
            case 'write':
              signals[op.s]!.value = op.v
              break
            case 'batch':
              batch(() => {
                for (const [s, v] of op.writes) signals[s]!.value = v
              })
              break
            case 'bind': {
              const el = document.createElement('p')
              bindings.push({ s: op.s, el, b: signals[op.s]!.bind(el), live: true })
              break
            }
            case 'unbind': {
              const b = bindings[op.k % (bindings.length || 1)]
              if (b) (b.b.dispose(), (b.live = false))
              break
            }
            case 'computed': {
              const s = signals[op.s]!
              const c = computed(() => s.value * 10 + 1)
              computeds.push({ s: op.s, c })
              expect(c.value).toBe(s.peek() * 10 + 1)
              break
            }
            case 'read': {
              const c = computeds[op.k % (computeds.length || 1)]
              if (c) expect(c.c.value).toBe(signals[c.s]!.peek() * 10 + 1)
              break
            }
            case 'effect': {
              const s = signals[op.s]!
              const e = { s: op.s, seen: -1, runs: 0, stop: () => {}, live: true }
              e.stop = effect(() => {
                e.seen = s.value
                e.runs++
              })
              effects.push(e)
              break
            }
            case 'stop': {
              const e = effects[op.k % (effects.length || 1)]
              if (e) (e.stop(), (e.live = false))
              break
            }
            case 'flush':
              flush()
              for (const b of bindings) if (b.live) expect(b.el.textContent).toBe(String(signals[b.s]!.peek()))
              break
          }
          check()
        }
        flush()
        for (const b of bindings) if (b.live) expect(b.el.textContent).toBe(String(signals[b.s]!.peek()))
        for (const c of computeds) expect(c.c.value).toBe(signals[c.s]!.peek() * 10 + 1)
        for (const b of bindings) b.b.dispose()
        for (const e of effects) e.stop()
      }),
      { numRuns: 1000 },
    )
  })
})
