// Property tests: random DAGs of signals, computeds and effects, random batches of writes, checked against a
// naive oracle that recomputes every node from scratch. The second one also adds and disposes effects and reads
// a few nodes at a time (inside batches too), so computeds connect, disconnect and go stale in between.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Signal, batch, computed, effect } from '@eddy/signal'
import { failed, recomputeAll, type Outcome } from './evaluate.ts'

interface NodeSpec {
  /** Earlier node indices this computed may read (the first one decides which others it reads). */
  deps: number[]
  /** 0: dynamic sum, 1: parity (cuts propagation off), 2: max. */
  op: number
}

/** The computed's function over a reader: the same code runs on signals and in the oracle. */
function evaluate(spec: NodeSpec, read: (i: number) => number): number {
  const [first, ...rest] = spec.deps as [number, ...number[]]
  const a = read(first)
  if (spec.op === 1) return a % 2
  if (spec.op === 2) return Math.max(a, ...rest.map(read))
  // dynamic dependencies: the other sources are read only when `a` is a multiple of 3
  return a % 3 === 0 ? rest.reduce((sum, i) => sum + read(i), a) : a * 2 - (rest.length ? read(rest[rest.length - 1]!) : 0)
}

/** Builds the graph: `signals` signals, then one computed per spec (running `run`), counting each one's recomputes. */
function build(signals: number, nodes: NodeSpec[], run: (spec: NodeSpec, read: (i: number) => number) => number) {
  const inputs = Array.from({ length: signals }, (_, i) => new Signal(i))
  const all: { value: number }[] = [...inputs]
  const recomputes = nodes.map(() => 0)
  nodes.forEach((spec, k) => {
    all.push(
      computed(() => {
        recomputes[k]!++
        return run(spec, (i) => all[i]!.value)
      }),
    )
  })
  return { inputs, all, recomputes }
}

const graphArb = fc
  .record({
    signals: fc.integer({ min: 1, max: 5 }),
    computeds: fc.array(fc.record({ picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), op: fc.nat(2) }), {
      maxLength: 12,
    }),
    effects: fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
    batches: fc.array(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 6 })), { minLength: 1, maxLength: 4 }), {
      minLength: 1,
      maxLength: 12,
    }),
  })
  .map(({ signals, computeds, effects, batches }) => {
    const nodes: NodeSpec[] = computeds.map((c, k) => ({
      deps: c.picks.map((p) => p % (signals + k)),
      op: c.op,
    }))
    const total = signals + nodes.length
    return {
      signals,
      nodes,
      effects: effects.map((picks) => [...new Set(picks.map((p) => p % total))]),
      batches: batches.map((b) => b.map(([s, v]) => [s % signals, v] as const)),
    }
  })

describe('the graph (property)', () => {
  it('should match a recompute-everything oracle; effects see consistent state and run at most once per batch', () => {
    fc.assert(
      fc.property(graphArb, ({ signals, nodes, effects, batches }) => {
        const { inputs, all, recomputes } = build(signals, nodes, evaluate)
        const oracle = (values: number[]): number[] => {
          const out = [...values]
          for (const spec of nodes) out.push(evaluate(spec, (i) => out[i]!))
          return out
        }
        let expected = oracle(inputs.map((s) => s.peek()))
        const runs = effects.map(() => 0)
        const seen: number[][] = effects.map(() => [])
        const stops = effects.map((reads, e) =>
          effect(() => {
            runs[e]!++
            seen[e] = reads.map((i) => all[i]!.value)
          }),
        )
        effects.forEach((reads, e) => expect(seen[e]).toEqual(reads.map((i) => expected[i])))

        for (const writes of batches) {
          const before = expected
          const runsBefore = [...runs]
          const recomputesBefore = [...recomputes]
          batch(() => {
            for (const [s, v] of writes) inputs[s]!.value = v
          })
          expected = oracle(inputs.map((s) => s.peek()))
          effects.forEach((reads, e) => {
            const changed = reads.some((i) => !Object.is(before[i], expected[i]))
            // at most once per batch; exactly once if something it read changed (a signal written and written
            // back within the batch may still count as a change)
            expect(runs[e]! - runsBefore[e]!).toBeLessThanOrEqual(1)
            if (changed) expect(runs[e]! - runsBefore[e]!).toBe(1)
            // and what it saw is the consistent, final state
            expect(seen[e]).toEqual(reads.map((i) => expected[i]))
          })
          // each computed recomputed at most once for the batch
          recomputes.forEach((n, k) => expect(n - recomputesBefore[k]!).toBeLessThanOrEqual(1))
          // every node, observed or not, matches the oracle
          all.forEach((node, i) => expect(node.value).toBe(expected[i]))
        }
        for (const stop of stops) stop()
      }),
      { numRuns: 300 },
    )
  })
})

/** Op 3, in the second property only: throws when its first source is 3 mod 4 (a cached error), else returns it plus one. */
const THROWS = 3

/** One step of the second property: writes (maybe batched, maybe with reads between them), reads of any nodes, new effects, disposals. */
const stepArb = fc.oneof(
  fc.record({
    writes: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 6 })), { minLength: 1, maxLength: 4 }),
    batched: fc.boolean(),
    readsBetween: fc.array(fc.nat(), { maxLength: 2 }),
  }),
  fc.record({ reads: fc.array(fc.nat(), { maxLength: 3 }) }),
  fc.record({ watch: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) }),
  fc.record({ dispose: fc.nat() }),
)

describe('the graph (property, effects come and go)', () => {
  it('should match the oracle whatever is watched, read or disposed in between, and cache errors', () => {
    fc.assert(
      fc.property(
        fc.record({
          signals: fc.integer({ min: 1, max: 4 }),
          computeds: fc.array(fc.record({ picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), op: fc.nat(3) }), {
            maxLength: 10,
          }),
          steps: fc.array(stepArb, { minLength: 1, maxLength: 30 }),
        }),
        ({ signals, computeds, steps }) => {
          const nodes: NodeSpec[] = computeds.map((c, k) => ({ deps: c.picks.map((p) => p % (signals + k)), op: c.op }))
          const total = signals + nodes.length
          const run = (spec: NodeSpec, read: (i: number) => number): number => {
            if (spec.op !== THROWS) return evaluate(spec, read)
            const a = read(spec.deps[0]!)
            if (a % 4 === 3) throw failed
            return a + 1
          }
          const { inputs, all, recomputes } = build(signals, nodes, run)
          const oracle = (): Outcome[] => recomputeAll(inputs.map((s) => s.peek()), nodes, run)
          const read = (i: number): Outcome => {
            try {
              return all[i]!.value
            } catch (e) {
              if (e === failed) return failed
              throw e
            }
          }
          let expected = oracle()
          const watchers: { reads: number[]; seen: Outcome[]; runs: number; stop: () => void }[] = []
          for (const step of steps) {
            if ('writes' in step) {
              const runsBefore = watchers.map((w) => w.runs)
              const recomputesBefore = [...recomputes]
              const before = expected
              const writes = () => {
                for (const [s, v] of step.writes) {
                  inputs[s % signals]!.value = v
                  const now = oracle()
                  for (const i of step.readsBetween) expect(read(i % total)).toEqual(now[i % total])
                }
              }
              if (step.batched) batch(writes)
              else writes()
              expected = oracle()
              if (step.batched) {
                watchers.forEach((w, k) => {
                  expect(w.runs - runsBefore[k]!).toBeLessThanOrEqual(1)
                  if (w.reads.some((i) => !Object.is(before[i], expected[i]))) expect(w.runs - runsBefore[k]!).toBe(1)
                })
                if (!step.readsBetween.length)
                  recomputes.forEach((n, k) => expect(n - recomputesBefore[k]!).toBeLessThanOrEqual(1))
              }
            } else if ('reads' in step) {
              for (const i of step.reads) expect(read(i % total)).toEqual(expected[i % total])
            } else if ('watch' in step) {
              const w = { reads: [...new Set(step.watch.map((p) => p % total))], seen: [] as Outcome[], runs: 0, stop: () => {} }
              w.stop = effect(() => {
                w.runs++
                w.seen = w.reads.map(read)
              })
              watchers.push(w)
            } else if (watchers.length) {
              watchers.splice(step.dispose % watchers.length, 1)[0]!.stop()
            }
            // every live effect saw the current state
            for (const w of watchers) expect(w.seen).toEqual(w.reads.map((i) => expected[i]))
          }
          all.forEach((_, i) => expect(read(i)).toEqual(expected[i]))
          for (const w of watchers) w.stop()
          // nothing watches any more: no source holds a subscriber
          for (const node of all) expect((node as unknown as { _subs?: unknown })._subs).toBeUndefined()
        },
      ),
      { numRuns: 1000 },
    )
  })
})
