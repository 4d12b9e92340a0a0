// A third property test: effects that write signals (derived signals, each written by one effect), effects that
// dispose other effects (or themselves) or create new ones or flush while they run, getters that dispose effects
// while they are checked, formats that dispose other bindings while they render, subscribers, bindings and
// flushes, against an oracle that recomputes every node from scratch. Every live effect must have seen the current
// state after each step; nothing disposed may run or render again.
import { afterEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { evaluate } from './evaluate.ts'
import { Signal, batch, computed, effect, flush } from '@eddy/signal'

afterEach(() => {
  flush()
})

interface NodeSpec {
  /** A computed, or a signal written by an effect (which can be disposed and created again). */
  derived: boolean
  /** Earlier node indices it reads (the first one decides which others it reads). */
  deps: number[]
  op: number
  /** The writer writes a throwaway value first, in a batch. */
  twice: boolean
  /** The derived signal has an `equals` option. */
  equals: boolean
  /** The computed disposes a watcher at every third run (from its second one on). */
  disposer: boolean
}

const stepArb = fc.oneof(
  fc.record({
    writes: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 9 })), { minLength: 1, maxLength: 4 }),
    batched: fc.boolean(),
  }),
  fc.record({ reads: fc.array(fc.nat(), { maxLength: 3 }) }),
  // role 1: on each later run, disposes another watcher; 2: creates a new one; 3: disposes itself; 4: calls flush()
  fc.record({ watch: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), role: fc.nat(4), subscribe: fc.boolean() }),
  fc.record({ dispose: fc.nat() }),
  fc.record({ toggleWriter: fc.nat() }),
  // kill: its format disposes another binding at every other render
  fc.record({ bind: fc.nat(), kill: fc.boolean() }),
  fc.record({ unbind: fc.nat() }),
  fc.constant({ flush: true as const }),
)

interface Watcher {
  reads: number[]
  dead?: boolean
  seen: number[]
  runs: number
  stop: () => void
}

describe('the graph (property, effects writing signals, disposing and creating effects)', () => {
  it('should match the oracle after every step', () => {
    fc.assert(
      fc.property(
        fc.record({
          inputs: fc.integer({ min: 1, max: 4 }),
          nodes: fc.array(
            fc.record({
              derived: fc.boolean(),
              picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
              op: fc.nat(4),
              twice: fc.boolean(),
              equals: fc.boolean(),
              disposer: fc.boolean(),
            }),
            { maxLength: 10 },
          ),
          steps: fc.array(stepArb, { minLength: 1, maxLength: 40 }),
        }),
        ({ inputs, nodes, steps }) => {
          const specs: NodeSpec[] = nodes.map((n, k) => ({ ...n, deps: n.picks.map((p) => p % (inputs + k)) }))
          const total = inputs + specs.length
          const all: Signal<number>[] = Array.from({ length: inputs }, (_, i) => new Signal(i))
          const watchers: Watcher[] = []
          const violations: string[] = []
          const kill = (w: Watcher) => {
            watchers.splice(watchers.indexOf(w), 1)
            w.dead = true
            w.stop()
          }
          let getterRuns = 0
          for (const spec of specs)
            all.push(
              spec.derived
                ? // Object.is, as the oracle compares: `===` kept +0 where a writer wrote -0 (a soak found it).
                  new Signal<number>(0, spec.equals ? { equals: (a: number, b: number) => Object.is(a, b) } : undefined)
                : (computed(() => {
                    const value = evaluate(spec, (i) => all[i]!.value)
                    if (spec.disposer && getterRuns++ % 3 === 1 && watchers.length)
                      kill(watchers[getterRuns % watchers.length]!)
                    return value
                  }) as unknown as Signal<number>),
            )
          const writer = (k: number) =>
            effect(() => {
              const spec = specs[k]!
              const target = all[inputs + k]!
              const v = evaluate(spec, (i) => all[i]!.value)
              if (spec.twice)
                batch(() => {
                  target.value = -1
                  target.value = v
                })
              else target.value = v
            })
          const writers = specs.map((spec, k) => (spec.derived ? writer(k) : undefined))
          const oracle = (): number[] => {
            const out = all.slice(0, inputs).map((s) => s.peek())
            specs.forEach((spec, k) =>
              out.push(!spec.derived || writers[k] ? evaluate(spec, (i) => out[i]!) : all[inputs + k]!.peek()),
            )
            return out
          }
          const watch = (reads: number[], role: number, subscribe: boolean): Watcher => {
            const w: Watcher = { reads, seen: [], runs: 0, stop: () => {} }
            if (subscribe && reads.length === 1)
              w.stop = all[reads[0]!]!.subscribe((v) => {
                if (w.dead) violations.push('a disposed subscriber ran')
                w.runs++
                w.seen = [v]
              })
            else
              w.stop = effect(() => {
                if (w.dead) violations.push('a disposed effect ran')
                w.runs++
                w.seen = w.reads.map((i) => all[i]!.value)
                if (w.runs > 1 && role === 1 && watchers.length) kill(watchers[(w.runs * 7) % watchers.length]!)
                if (w.runs > 1 && role === 2 && watchers.length < 12) watchers.push(watch([...w.reads].reverse(), 0, false))
                if (w.runs > 1 && role === 3 && watchers.includes(w)) kill(w)
                if (role === 4) flush()
              })
            return w
          }
          const bindings: { i: number; el: HTMLElement; dispose: () => void }[] = []
          // disposed bindings, with what their element showed then
          const unbound: { el: HTMLElement; text: string | null }[] = []
          const unbind = (b: (typeof bindings)[number]) => {
            bindings.splice(bindings.indexOf(b), 1)
            unbound.push({ el: b.el, text: b.el.textContent })
            b.dispose()
          }
          const rendered = () => {
            const expected = oracle()
            for (const b of bindings) expect(b.el.textContent).toBe(String(expected[b.i]))
          }
          for (const step of steps) {
            if ('writes' in step) {
              const writes = () => {
                for (const [i, v] of step.writes) {
                  all[i % inputs]!.value = v
                  // reads between unbatched writes (effects have run: derived signals are up to date)
                  if (v === 7 && !step.batched) {
                    const expected = oracle()
                    for (let j = 0; j < total; j += 2) expect(all[j]!.value).toBe(expected[j])
                  }
                }
              }
              if (step.batched) batch(writes)
              else writes()
            } else if ('reads' in step) {
              const expected = oracle()
              for (const i of step.reads) expect(all[i % total]!.value).toBe(expected[i % total])
            } else if ('watch' in step) {
              watchers.push(watch([...new Set(step.watch.map((p) => p % total))], step.role, step.subscribe))
            } else if ('dispose' in step) {
              if (watchers.length) watchers.splice(step.dispose % watchers.length, 1)[0]!.stop()
            } else if ('toggleWriter' in step) {
              const derived = specs.flatMap((spec, k) => (spec.derived ? [k] : []))
              if (derived.length) {
                const k = derived[step.toggleWriter % derived.length]!
                if (writers[k]) {
                  writers[k]!()
                  writers[k] = undefined
                } else writers[k] = writer(k)
              }
            } else if ('bind' in step) {
              const el = document.createElement('p')
              const i = step.bind % total
              let renders = 0
              const b = all[i]!.bind(el, {
                format: (v) => {
                  const other = bindings.find((x) => x.el !== el)
                  if (step.kill && renders++ % 2 === 1 && other) unbind(other)
                  return v
                },
              })
              bindings.push({ i, el, dispose: () => b.dispose() })
            } else if ('unbind' in step) {
              if (bindings.length) unbind(bindings[step.unbind % bindings.length]!)
            } else {
              flush()
              rendered()
            }
            const expected = oracle()
            for (const w of watchers) expect(w.seen).toEqual(w.reads.map((i) => expected[i]))
            expect(violations).toEqual([])
          }
          const expected = oracle()
          all.forEach((node, i) => expect(node.value).toBe(expected[i]))
          flush()
          rendered()
          for (const u of unbound) expect(u.el.textContent).toBe(u.text)
          for (const w of watchers) w.stop()
          for (const stop of writers) stop?.()
          for (const b of bindings) b.dispose()
          // nothing watches any more: no source holds a subscriber
          for (const node of all) expect((node as unknown as { _subs?: unknown })._subs).toBeUndefined()
        },
      ),
      { numRuns: 500 },
    )
  })
})
