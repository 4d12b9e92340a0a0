// A fourth property test: computeds whose getters write signals (each one may echo its value into a signal of
// its own, read by later computeds), watched by effects, with random writes and reads. Once everything has been
// read (in a batch: effects run after it), every node and what every effect saw must be the fixed point that an
// eager oracle computes in order. Catches a node left with a value from before a getter wrote a signal it had read.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { evaluate } from './evaluate.ts'
import { Signal, batch, computed, effect, untracked } from '@eddy/signal'

interface Spec {
  /** Earlier slots it reads (the first one decides which others it reads). */
  deps: number[]
  op: number
  /** Its getter writes its value into its echo signal... */
  echo: boolean
  /** ...untracked. */
  quiet: boolean
}

const stepArb = fc.oneof(
  fc.record({
    writes: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 9 })), { minLength: 1, maxLength: 3 }),
    batched: fc.boolean(),
  }),
  fc.record({ reads: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) }),
)

describe('the graph (property, getters that write signals)', () => {
  it('should settle on the fixed point of the oracle', () => {
    fc.assert(
      fc.property(
        fc.record({
          inputs: fc.integer({ min: 1, max: 3 }),
          nodes: fc.array(
            fc.record({
              picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
              op: fc.nat(3),
              echo: fc.boolean(),
              quiet: fc.boolean(),
            }),
            { minLength: 1, maxLength: 8 },
          ),
          watched: fc.array(fc.nat(), { maxLength: 4 }),
          steps: fc.array(stepArb, { minLength: 1, maxLength: 15 }),
        }),
        ({ inputs, nodes, watched, steps }) => {
          // Slots: the inputs, then for each node its computed and its echo signal.
          const n = nodes.length
          const specs: Spec[] = nodes.map((node, k) => ({ ...node, deps: node.picks.map((p) => p % (inputs + 2 * k)) }))
          const signals = Array.from({ length: inputs }, (_, i) => new Signal(i))
          const slots: { value: number; peek(): number }[] = [...signals]
          for (const spec of specs) {
            const echo = new Signal(0)
            const c = computed(() => {
              const value = evaluate(spec, (i) => slots[i]!.value)
              if (spec.echo && spec.quiet) untracked(() => (echo.value = value))
              else if (spec.echo) echo.value = value
              return value
            })
            slots.push(c, echo)
          }
          const total = slots.length
          const oracle = (): number[] => {
            const out = signals.map((s) => s.peek())
            for (const spec of specs) {
              const value = evaluate(spec, (i) => out[i]!)
              out.push(value, spec.echo ? value : 0)
            }
            return out
          }
          // Reads every computed, again and again: an echo written by a later one may be read by an earlier one.
          const readAll = () =>
            batch(() => {
              for (let round = 0; round <= n; round++) for (let i = inputs; i < total; i += 2) slots[i]!.value
            })
          const check = () => {
            const expected = oracle()
            for (let i = 0; i < total; i++) expect([i, slots[i]!.peek()]).toEqual([i, expected[i]])
            for (const [i, v] of seen) expect([i, v]).toEqual([i, expected[i]])
          }
          const seen = new Map<number, number>()
          const stops = [...new Set(watched.map((w) => inputs + 2 * (w % n)))].map((i) =>
            effect(() => void seen.set(i, slots[i]!.value)),
          )
          readAll()
          check()
          for (const step of steps) {
            if ('writes' in step) {
              const writes = () => {
                for (const [i, v] of step.writes) signals[i % inputs]!.value = v
              }
              if (step.batched) batch(writes)
              else writes()
            } else
              batch(() => {
                for (const r of step.reads) slots[inputs + 2 * (r % n)]!.value
              })
          }
          readAll()
          check()
          for (const stop of stops) stop()
        },
      ),
      { numRuns: 1000 },
    )
  })
})
