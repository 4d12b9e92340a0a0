// A fifth property test, for what the others leave out: input signals with an `equals` option (always false, or
// coarser than Object.is, so a write may keep the old value), -0 and NaN, getters that also peek or read untracked
// other nodes (checked against the oracle on the spot), effects and subscribers made and disposed inside (nested)
// batches, reading dynamically, with cleanups, throwing, and reading, disposing, binding or flushing from their
// runs; bindings flushed anywhere, even mid-batch; renders flushed at once by the schedule or not; a host with
// `reportError` or not. Invariants, against an oracle that recomputes every node from scratch from the values the
// signals hold:
// - every read (anywhere: steps, getters, effects, subscribers, cleanups, formats) returns the oracle's value;
// - a computed or effect re-runs only if a node it read in its last run changed version since (the test mirrors
//   versions: a signal's moves on each write its `equals` lets through, a computed's when a run gives a new
//   value or error), so equality cut-off stops exactly where nothing changed;
// - a watcher runs at most once per top-level step, and after each step has seen the current state;
// - a flush writes each binding's text at most once, and leaves it showing the oracle's value (with a schedule
//   that flushes at once: after every step);
// - only what getters and effects threw is thrown or reported, and nothing is left subscribed at the end.
import { afterEach, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { evaluate, failed, recomputeAll, type Outcome } from './evaluate.ts'
import { Signal, batch, computed, configure, effect, flush, untracked } from '@eddy/signal'

afterEach(() => {
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
  flush()
})


/** Op 4: throws when its first source is 3 mod 4 (a cached error), else returns it plus one. */
const THROWS = 4
const equalities: (((a: number, b: number) => boolean) | undefined)[] = [
  undefined,
  () => false,
  (a, b) => a >> 1 === b >> 1,
  (a, b) => a === b,
]

const valueArb = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom(-0, Number.NaN))

type Op =
  | { write: number; v: number }
  | { read: number; mode: number }
  | { watch: [number, boolean][]; sub: boolean; act: Op | null; cleanup: number | null; throws: boolean }
  | { unwatch: number }
  | { bind: number }
  | { unbind: number }
  | { flush: true }
  | { batch: Op[] }

// What a watcher's run may do besides reading (from its second run on): no writes, no new watchers.
const actArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ read: fc.nat(), mode: fc.nat(2) }),
  fc.record({ unwatch: fc.nat() }),
  fc.record({ bind: fc.nat() }),
  fc.record({ unbind: fc.nat() }),
  fc.constant({ flush: true as const }),
)
const leafArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ write: fc.nat(), v: valueArb }), weight: 5 },
  { arbitrary: fc.record({ read: fc.nat(), mode: fc.nat(2) }), weight: 2 },
  {
    arbitrary: fc.record({
      watch: fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 3 }),
      sub: fc.boolean(),
      act: fc.option(actArb, { freq: 3 }),
      cleanup: fc.option(fc.nat(), { freq: 3 }),
      // It throws (after its reads) when what it read first is 2.
      throws: fc.boolean(),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ unwatch: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ bind: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ unbind: fc.nat() }), weight: 1 },
  { arbitrary: fc.constant({ flush: true as const }), weight: 1 },
)
const opArb: fc.Arbitrary<Op> = fc.letrec<{ op: Op }>((tie) => ({
  op: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'op' },
    { arbitrary: leafArb, weight: 4 },
    { arbitrary: fc.record({ batch: fc.array(tie('op'), { maxLength: 5 }) }), weight: 1 },
  ),
})).op

interface Spec {
  deps: number[]
  op: number
  /** Earlier nodes the getter also reads without tracking (checked, not used). */
  side: number[]
  /** 0: `.peek()`, 1: `untracked(() => .value)`. */
  sideMode: number
  sideFirst: boolean
}

interface Watcher {
  /** Node and whether it is read tracked (`.value`) or peeked. The first one decides whether the others are read. */
  reads: [number, boolean][]
  sub: boolean
  dead: boolean
  runs: number
  /** What its last run read (node, tracked, value). */
  seen: [number, boolean, Outcome][]
  /** What its last run read, tracked, with the versions then. */
  last?: [number, number][]
  stop: () => void
}

interface Bound {
  i: number
  el: HTMLElement
  renders: number
  writes: number
  dispose: () => void
}

const flat = (e: unknown): unknown[] => (e instanceof AggregateError ? e.errors.flatMap(flat) : [e])

describe('the graph (property, equals options, peeks, watchers and bindings in nested batches)', () => {
  it('should match the oracle on every read; re-run only on a real change', () => {
    fc.assert(
      fc.property(
        fc.record({
          signals: fc.array(fc.nat(equalities.length - 1), { minLength: 1, maxLength: 4 }),
          // Renders flushed synchronously, as soon as each write (or batch) has propagated.
          sync: fc.boolean(),
          // The host has reportError (errors of effects, subscribers and renders are reported, not thrown).
          report: fc.boolean(),
          computeds: fc.array(
            fc.record({
              picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
              op: fc.nat(THROWS),
              side: fc.array(fc.nat(), { maxLength: 2 }),
              sideMode: fc.nat(1),
              sideFirst: fc.boolean(),
            }),
            { maxLength: 8 },
          ),
          ops: fc.array(opArb, { minLength: 1, maxLength: 25 }),
        }),
        ({ signals, computeds, ops, sync, report }) => {
          const n = signals.length
          const specs: Spec[] = computeds.map((c, k) => ({
            ...c,
            deps: c.picks.map((p) => p % (n + k)),
            side: c.side.map((p) => p % (n + k)),
          }))
          const total = n + specs.length
          const violations: string[] = []
          // What the signals hold (set before each write, so that everything run by the write sees it).
          const stored: number[] = signals.map((_, i) => i)
          const version: number[] = Array.from({ length: total }, () => 0)
          const run = (spec: Spec, read: (i: number) => number): number => {
            if (spec.op !== THROWS) return evaluate(spec, read)
            const a = read(spec.deps[0]!)
            if (a % 4 === 3) throw failed
            return a + 1
          }
          const oracle = (): Outcome[] => recomputeAll(stored, specs, run)
          const all: Signal<number>[] = signals.map((e, i) => new Signal(i, { equals: equalities[e] }))
          const outcome = (get: () => number): Outcome => {
            try {
              return get()
            } catch (e) {
              if (e === failed) return failed
              throw e
            }
          }
          const check = (where: string, i: number, got: Outcome) => {
            const want = oracle()[i]
            if (!Object.is(got, want)) violations.push(`${where}: node ${i} read ${String(got)}, oracle ${String(want)}`)
          }
          // Whether a re-run is justified: some node read last time changed version since.
          const justified = (last: [number, number][] | undefined) => !last || last.some(([i, v]) => version[i] !== v)
          specs.forEach((spec, k) => {
            const me = n + k
            let last: [number, number][] | undefined
            let result: Outcome | undefined
            all.push(
              computed(() => {
                if (!justified(last)) violations.push(`computed ${me} re-ran, nothing it read changed`)
                const reads: [number, number][] = []
                const side = () => {
                  for (const j of spec.side)
                    check(
                      `getter ${me}`,
                      j,
                      outcome(() => (spec.sideMode ? untracked(() => all[j]!.value) : all[j]!.peek())),
                    )
                }
                let value: Outcome = failed
                try {
                  if (spec.sideFirst) side()
                  value = run(spec, (i) => {
                    try {
                      return all[i]!.value
                    } finally {
                      reads.push([i, version[i]!])
                    }
                  })
                  if (!spec.sideFirst) side()
                  return value
                } finally {
                  last = reads
                  if (result === undefined || !Object.is(result, value)) version[me]!++
                  result = value
                }
              }) as unknown as Signal<number>,
            )
          })

          const watchers: Watcher[] = []
          const bindings: Bound[] = []
          const watch = (op: { watch: [number, boolean][]; sub: boolean; act: Op | null; cleanup: number | null; throws: boolean }) => {
            let reads = op.watch.map(([p, t]): [number, boolean] => [p % total, t])
            if (op.sub) reads = [[reads[0]![0], true]]
            const w: Watcher = { reads, sub: op.sub, dead: false, runs: 0, seen: [], stop: () => {} }
            const body = (value?: Outcome) => {
              if (w.dead) violations.push('a disposed watcher ran')
              if (!justified(w.last)) violations.push(`watcher ${JSON.stringify(reads)} re-ran, nothing it read changed`)
              w.runs++
              const last: [number, number][] = []
              w.seen = []
              for (const [i, tracked] of reads) {
                const got = op.sub ? value! : outcome(() => (tracked ? all[i]!.value : all[i]!.peek()))
                if (tracked) last.push([i, version[i]!])
                check('watcher', i, got)
                w.seen.push([i, tracked, got])
                // Dynamic: an odd first value (or an error) and it reads nothing else.
                if (got === failed || (got as number) & 1) break
              }
              const throws = op.throws && w.seen[0]![2] === 2
              // A run that throws having read nothing tracked keeps the sources of the run before it (README: effect).
              if (!throws || last.length) w.last = last
              if (op.act && w.runs > 1) untracked(() => apply(op.act!))
              if (throws) throw failed
              if (op.cleanup !== null) {
                const j = op.cleanup % total
                return () => check('cleanup', j, outcome(() => all[j]!.peek()))
              }
            }
            if (op.sub) {
              const i = reads[0]![0]
              const stop = all[i]!.subscribe((v) => void body(v))
              w.stop = op.cleanup === null ? stop : () => {
                stop()
                const j = op.cleanup! % total
                check('after unsubscribe', j, outcome(() => all[j]!.peek()))
              }
            } else w.stop = effect(() => body())
            watchers.push(w)
          }
          const bind = (i: number) => {
            const el = document.createElement('p')
            let proto: object | null = el
            let desc: PropertyDescriptor | undefined
            while (proto && !(desc = Object.getOwnPropertyDescriptor(proto, 'textContent'))) proto = Object.getPrototypeOf(proto)
            const b: Bound = { i, el, renders: 0, writes: 0, dispose: () => {} }
            Object.defineProperty(el, 'textContent', {
              get: () => desc!.get!.call(el),
              set: (v) => {
                b.writes++
                desc!.set!.call(el, v)
              },
            })
            const binding = all[i]!.bind(el, {
              format: (v) => {
                b.renders++
                check('format', i, v)
                return v
              },
            })
            b.dispose = () => binding.dispose()
            bindings.push(b)
          }
          let flushes = 0
          const doFlush = () => {
            const before = bindings.map((b) => [b, b.renders, b.writes] as const)
            flushes++
            try {
              flush()
            } finally {
              const now = oracle()
              for (const [b, renders, writes] of before)
                if (b.renders - renders > 1 || b.writes - writes > 1)
                  violations.push(`binding of ${b.i}: ${b.renders - renders} renders, ${b.writes - writes} writes in one flush`)
              for (const b of bindings)
                if (now[b.i] !== failed && b.el.textContent !== String(now[b.i]))
                  violations.push(`binding of ${b.i} shows ${b.el.textContent}, oracle ${String(now[b.i])}`)
            }
          }
          const apply = (op: Op): void => {
            if ('write' in op) {
              const i = op.write % n
              const eq = equalities[signals[i]!] ?? Object.is
              if (!eq(stored[i]!, op.v)) {
                stored[i] = op.v
                version[i]!++
              }
              all[i]!.value = op.v
            } else if ('read' in op) {
              const i = op.read % total
              const node = all[i]!
              check('read', i, outcome(() => (op.mode === 0 ? node.value : op.mode === 1 ? node.peek() : untracked(() => node.value))))
            } else if ('watch' in op) {
              const i = op.watch[0]![0] % total
              // A subscriber to a node that throws: subscribe() throws and subscribes nothing.
              if (op.sub && oracle()[i] === failed) expect(() => all[i]!.subscribe(() => {})).toThrow()
              else if (op.throws && oracle()[i] === 2) expect(() => watch(op)).toThrow()
              else watch(op)
            } else if ('unwatch' in op) {
              if (watchers.length) {
                const w = watchers.splice(op.unwatch % watchers.length, 1)[0]!
                w.dead = true
                w.stop()
              }
            } else if ('bind' in op) bind(op.bind % total)
            else if ('unbind' in op) {
              if (bindings.length) bindings.splice(op.unbind % bindings.length, 1)[0]!.dispose()
            } else if ('flush' in op) doFlush()
            else batch(() => op.batch.forEach(apply))
          }

          configure({ schedule: sync ? (f) => f() : 'microtask' })
          const reported: unknown[] = []
          vi.stubGlobal('reportError', report ? (e: unknown) => reported.push(e) : undefined)
          for (const op of ops) {
            const before = watchers.map((w) => [w, w.runs] as const)
            const rendersBefore = bindings.map((b) => [b, b.renders] as const)
            const flushesBefore = flushes
            try {
              apply(op)
            } catch (e) {
              // Only what getters and effects threw (a subscriber, render or effect, without reportError).
              for (const x of flat(e)) if (x !== failed) throw x
            }
            const now = oracle()
            if (sync) {
              // Flushed at once: every binding shows the current value, rendered at most once by this step's own flush.
              for (const [b, renders] of rendersBefore)
                if (b.renders - renders > 1 + flushes - flushesBefore)
                  violations.push(`binding of ${b.i}: ${b.renders - renders} renders in one step`)
              for (const b of bindings)
                if (now[b.i] !== failed && b.el.textContent !== String(now[b.i]))
                  violations.push(`binding of ${b.i} shows ${b.el.textContent} after a step, oracle ${String(now[b.i])}`)
            }
            for (const [w, runs] of before)
              if (!w.dead && w.runs - runs > 1) violations.push(`watcher ran ${w.runs - runs} times in one step`)
            for (const w of watchers) {
              // A subscriber is not called with an error (it is reported): it keeps what it saw last.
              if (w.sub && now[w.reads[0]![0]] === failed) continue
              for (const [i, tracked, got] of w.seen)
                if (tracked && !Object.is(got, now[i]))
                  violations.push(`watcher ${JSON.stringify(w.reads)} saw ${String(got)} for ${i}, oracle ${String(now[i])}`)
            }
            expect(violations).toEqual([])
          }
          const now = oracle()
          all.forEach((node, i) => expect(outcome(() => node.value)).toBe(now[i]))
          try {
            doFlush()
          } catch (e) {
            for (const x of flat(e)) if (x !== failed) throw x
          }
          expect(violations).toEqual([])
          for (const w of watchers) w.stop()
          for (const b of bindings) b.dispose()
          for (const node of all) expect((node as unknown as { _subs?: unknown })._subs).toBeUndefined()
          configure({ schedule: 'microtask' })
          for (const x of reported.flatMap(flat)) expect(x).toBe(failed)
        },
      ),
      { numRuns: 1000 },
    )
  })
})
