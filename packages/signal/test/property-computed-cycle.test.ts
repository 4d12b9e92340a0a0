// A model-based property test of cycles among computeds that writes open and close (README: "Errors and cycles"):
// random graphs of computeds over a few signals, each computed reading, in order, a few nodes chosen per run by
// the values of "switch" signals (any node, itself included: cycles come and go with the writes). Some computeds
// throw an error of their own (an Error, or a RangeError, retried: see `computed`) when a signal holds a given
// value. After each step every computed is read in a random order, with effects watching random computeds or not,
// and compared with a reference evaluator: a plain recursive evaluation with an in-progress set, where reaching a
// node in progress is a cycle error and any error propagates to every node whose evaluation reaches it. Each effect
// must have seen the final outcome of what it watches.
//
// Run twice: with plain reads only, and with more of what getters do (a second review's extension): each read may
// be plain, caught (a non-cycle error gives a fallback of 50; "Cycle detected" is rethrown), or preceded by a
// discarded side read through peek() or untracked(); getters may write their result to a sink signal, which an
// effect watches; reads happen inside batches too, and effects are disposed inside batches.
//
// Left out by default: getters that create an effect reading another node (FC_INNER=1 puts them in). Such an effect
// reading its creator's reader while the creator runs sees a cycle, and where it watches it keeps seeing one
// (README: "Errors and cycles"), which this model does not describe.
//
// Reproduce a failure: FC_SEED=<seed> FC_PATH=<path> (as printed by fast-check); FC_RUNS sets the number of runs (the
// programs in `regressions`, which failed once, are the first of them); FC_NO_RUNS skips the check of effect runs per
// write; FC_NO_RANGE, FC_NO_PEEK, FC_NO_SINK and FC_NO_CATCH leave those out.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Signal, batch, computed, effect, untracked, type Dispose } from '@eddy/signal'

/** One read of a computed: the switch signal `sw` (read, tracked) picks which of `opts` is read next. */
interface Read {
  sw: number
  opts: number[]
  /** track: a plain read; catch: a read whose non-cycle error gives 50; peek/untracked: a discarded side read first. */
  mode: 'track' | 'catch' | 'peek' | 'untracked'
}

interface Spec {
  reads: Read[]
  /** Throws when signal `sig` holds `val`, checked (reading `sig`) before read number `at` (or after all of them). */
  throws: { sig: number; val: number; at: number; kind: 'boom' | 'range' } | null
  /** Writes its result to its own sink signal (read by effects only). */
  sink: boolean
  /** Creates an effect reading node `j` at the end of each run (disposing the last one first). */
  inner: number | null
}

/** What a node gives: its value, or the kind of error it threw. */
type Outcome = number | 'cycle' | 'boom' | 'range' | `other: ${string}`

/** The getter, over a reader (the same code runs in the computeds and in the model). */
function run(k: number, spec: Spec, read: (i: number) => number, side: (i: number, mode: 'peek' | 'untracked') => void = () => {}): number {
  let acc = k + 1
  const t = spec.throws
  spec.reads.forEach((r, j) => {
    if (t && t.at === j && read(t.sig) === t.val) throw t.kind === 'range' ? new RangeError('range') : new Error('boom')
    const target = r.opts[read(r.sw) % r.opts.length]!
    let v: number
    if (r.mode == 'catch')
      try {
        v = read(target)
      } catch (e) {
        if (classify(e) == 'cycle') throw e
        v = 50
      }
    else {
      if (r.mode != 'track') side(target, r.mode)
      v = read(target)
    }
    acc = (acc * 7 + v) % 101
  })
  if (t && t.at >= spec.reads.length && read(t.sig) === t.val)
    throw t.kind === 'range' ? new RangeError('range') : new Error('boom')
  return acc
}

const CYCLE = { cycle: true }

function classify(e: unknown): Outcome {
  if (e === CYCLE || (e instanceof Error && e.message === 'Cycle detected')) return 'cycle'
  if (e instanceof RangeError && e.message === 'range') return 'range'
  if (e instanceof Error && e.message === 'boom') return 'boom'
  return `other: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`
}

/** The model: each computed evaluated from scratch, recursively, with the nodes in progress in `path`. */
function model(values: number[], specs: Spec[], running?: number): Outcome[] {
  const S = values.length
  const evaluate = (i: number, path: Set<number>): number => {
    if (i < S) return values[i]!
    if (path.has(i)) throw CYCLE
    path.add(i)
    try {
      return run(i - S, specs[i - S]!, (j) => evaluate(j, path))
    } finally {
      path.delete(i)
    }
  }
  return specs.map((_, k) => {
    try {
      return evaluate(S + k, new Set(running === undefined ? [] : [S + running]))
    } catch (e) {
      return classify(e)
    }
  })
}

const env = (name: string): string | undefined => (typeof process == 'object' ? process.env[name] : undefined)

type Step =
  | { write: [number, number][]; batched: boolean; readsIn: number[]; disposeIn: number | null }
  | { watch: number }
  | { unwatch: number }

/** Programs with plain reads only, or (`more`) with the extension's read modes, sinks, and reads in batches. */
const programArb = (more: boolean) => fc
  .record({
    signals: fc.integer({ min: 1, max: 4 }),
    computeds: fc.integer({ min: 1, max: 6 }),
  })
  .chain(({ signals, computeds }) => {
    const total = signals + computeds
    const readArb = fc.record({
      sw: fc.nat(signals - 1),
      // Mostly computeds, so that cycles are common.
      opts: fc.array(fc.oneof({ weight: 3, arbitrary: fc.integer({ min: signals, max: total - 1 }) }, { weight: 1, arbitrary: fc.nat(total - 1) }), {
        minLength: 1,
        maxLength: 3,
      }),
      mode: fc.constantFrom(
        ...(more ? (['track', 'track', 'catch', 'peek', 'untracked'] as const) : (['track'] as const)).filter(
          (m) => !(env('FC_NO_CATCH') && m == 'catch') && !(env('FC_NO_PEEK') && (m == 'peek' || m == 'untracked')),
        ),
      ),
    })
    const specArb: fc.Arbitrary<Spec> = fc.record({
      reads: fc.array(readArb, { minLength: 1, maxLength: 3 }),
      throws: fc.option(
        fc.record({
          sig: fc.nat(signals - 1),
          val: fc.nat(3),
          at: fc.nat(3),
          // FC_NO_RANGE: no RangeError of a getter's own (the errors that are retried).
          kind: env('FC_NO_RANGE') ? fc.constant('boom' as const) : fc.constantFrom('boom' as const, 'range' as const),
        }),
        { freq: 3 },
      ),
      sink: !more || env('FC_NO_SINK') ? fc.constant(false) : fc.boolean(),
      inner: !more || !env('FC_INNER') ? fc.constant(null) : fc.option(fc.integer({ min: signals, max: total - 1 }), { freq: 4 }),
    })
    const stepArb: fc.Arbitrary<Step> = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          write: fc.array(fc.tuple(fc.nat(signals - 1), fc.nat(3)), { minLength: 1, maxLength: 3 }),
          batched: fc.boolean(),
          /** In a batch: computeds read after each write (checked against the model then). */
          readsIn: fc.array(fc.nat(computeds - 1), { maxLength: more ? 2 : 0 }),
          /** In a batch: an effect disposed after the first write. */
          disposeIn: more ? fc.option(fc.nat()) : fc.constant(null),
        }),
      },
      { weight: 2, arbitrary: fc.record({ watch: fc.nat(computeds - 1) }) },
      { weight: 1, arbitrary: fc.record({ unwatch: fc.nat() }) },
    )
    return fc.record({
      signals: fc.constant(signals),
      initial: fc.array(fc.nat(3), { minLength: signals, maxLength: signals }),
      specs: fc.array(specArb, { minLength: computeds, maxLength: computeds }),
      /** Effects created before the first read (each on a computed). */
      watched: fc.array(fc.nat(computeds - 1), { maxLength: 3 }),
      steps: fc.array(fc.tuple(stepArb, fc.array(fc.nat(), { minLength: computeds, maxLength: computeds }), fc.boolean()), {
        minLength: 1,
        maxLength: 12,
      }),
      /** A first read of every computed, in this order, before any step (else the first step's read is the first). */
      firstOrder: fc.option(fc.array(fc.nat(), { minLength: computeds, maxLength: computeds })),
    })
  })

type Program = ReturnType<typeof programArb> extends fc.Arbitrary<infer P> ? P : never

// Programs that failed once, run before the random ones (fast-check's `examples`). Built with these helpers: a
// tracked read, a computed of such reads, a step that writes (`[signal, value]` pairs), and a step's read keys.
const read = (sw: number, ...opts: number[]): Read => ({ sw, opts, mode: 'track' })
const reads = (...list: Read[]): Spec => ({ reads: list, throws: null, sink: false, inner: null })
const write = (pairs: [number, number][], batched = false, disposeIn: number | null = null): Step => ({ write: pairs, batched, readsIn: [], disposeIn })
const keys = (n: number, key = 0): number[] => Array<number>(n).fill(key)
const regressions: Program[] = [
  // Seed 1826263484 (a CI run): with no write in step 3, effect 1 ran again when the effect on computed 0 was
  // created. The read of computed 0 in step 2 had checked the cycle again and queued it, and nothing ran the queue.
  {
    signals: 4,
    initial: [0, 0, 0, 2],
    specs: [reads(read(0, 8), read(0, 4)), reads(read(3, 5, 8), read(0, 4)), reads(read(0, 4)), reads(read(1, 7, 6), read(0, 4)), reads(read(0, 0), read(3, 7, 4, 4))],
    watched: [0],
    steps: [
      [write([[0, 0]], true, 0), keys(5), false],
      [{ watch: 1 }, keys(5), false],
      [write([[3, 3], [0, 1], [1, 1]]), keys(5, 926311), false],
      [{ watch: 0 }, keys(5), false],
      [write([[0, 0]]), keys(5), false],
    ],
    firstOrder: null,
  },
  // Found with a first fix (a cycle error after another kept, no change) and nothing else: a member that read a new
  // member inside its run was left flagged, its effect not, and the next write stopped at it (effect 4 kept "cycle";
  // effect 0 in the next one kept "cycle" where the value was 57).
  {
    signals: 2,
    initial: [0, 0],
    specs: [
      reads(read(0, 2)),
      reads(read(0, 7, 0, 2), read(0, 0)),
      reads(read(0, 2)),
      reads(read(0, 5)),
      reads(read(0, 3), read(0, 5), read(0, 0)),
      { ...reads(read(0, 2)), throws: { sig: 0, val: 0, at: 0, kind: 'boom' } },
    ],
    watched: [4],
    steps: [
      [write([[0, 2]]), keys(6), false],
      [write([[0, 1], [0, 0]]), keys(6), false],
      [{ watch: 0 }, keys(6), false],
    ],
    firstOrder: null,
  },
  {
    signals: 3,
    initial: [0, 0, 0],
    specs: [reads(read(0, 6, 3), read(0, 4)), reads(read(0, 0)), reads(read(0, 0)), reads(read(1, 0, 3))],
    watched: [0],
    steps: [
      [write([[0, 3], [1, 1]]), keys(4), false],
      [{ watch: 0 }, keys(4), false],
      [write([[0, 0]], true, 0), keys(4), false],
      [write([[1, 0], [0, 0]]), keys(4), false],
      [write([[0, 0]]), keys(4), false],
    ],
    firstOrder: null,
  },
  // FC_RUNS=10000 FC_SEED=88: a read inside a batch closed the cycle 3 -> 0 -> 4 -> 1 -> 3, and computed 1 ran again
  // inside computed 3's run, which was flagged then: computed 3 stayed flagged and 1 did not, the write that broke the
  // cycle stopped at 3, and computed 0 (and its effect) kept "cycle" where a value was due.
  {
    signals: 4,
    initial: [2, 0, 0, 0],
    specs: [
      reads(read(0, 8)),
      reads(read(0, 7), read(0, 0)),
      reads(read(0, 0)),
      reads(read(1, 0, 4)),
      { ...reads(read(0, 5)), throws: { sig: 1, val: 1, at: 0, kind: 'boom' } },
      reads(read(0, 4)),
    ],
    watched: [0],
    steps: [
      [write([[1, 1]]), keys(6), false],
      [{ write: [[1, 3]], batched: true, readsIn: [3], disposeIn: null }, keys(6), false],
      [write([[1, 0]]), keys(6), false],
      [write([[0, 0]]), keys(6), false],
    ],
    firstOrder: null,
  },
  // Found at 10,000 runs (seed 1018) with the code of a026b97 less the write that a watched reader's cycle read counts
  // as (see cyclic): computed 0 -> 1 -> 2 -> 0 is a cycle, and its effect shows "cycle". Writing s3 = 1 moves the
  // cycle to 1 -> 2 -> 1, then s2 = 2 makes computed 2 throw "boom" before it reads anything, which breaks it. Without
  // that write the effect kept "cycle" where "boom" was due. It passes whenever the bump is there.
  {
    signals: 4,
    initial: [1, 0, 0, 0],
    specs: [reads(read(1, 5, 4)), reads(read(0, 6)), { ...reads(read(3, 4, 5)), throws: { sig: 2, val: 2, at: 0, kind: 'boom' } }],
    watched: [],
    steps: [
      [{ watch: 0 }, keys(3), false],
      [write([[3, 1], [2, 2]]), keys(3), false],
    ],
    firstOrder: null,
  },
]

/** A permutation of 0..n-1 from random keys. */
const order = (keys: number[]): number[] => keys.map((k, i) => [k, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, i]) => i)

describe('cycles among computeds opened and closed by writes (property)', () => {
  it.each([
    ['with plain reads', false],
    ['with caught reads, side reads, sinks and reads in batches', true],
  ])('should give every computed, and every effect, what a recursive evaluation from scratch gives (%s)', (_, more) => {
    fc.assert(
      fc.property(programArb(more), ({ signals, initial, specs, watched, steps, firstOrder }) => {
        const inputs = initial.map((v) => new Signal(v))
        const nodes: { value: number }[] = [...inputs]
        const sinks = specs.map(() => new Signal(-1))
        const inner: ({ j: number; seen: Outcome | undefined; dispose: Dispose } | undefined)[] = specs.map(() => undefined)
        const side = (i: number, mode: 'peek' | 'untracked') => {
          try {
            if (mode == 'peek') (nodes[i] as any).peek()
            else untracked(() => nodes[i]!.value)
          } catch {}
        }
        specs.forEach((spec, k) =>
          nodes.push(
            computed(() => {
              const was = inner[k]
              if (was) {
                inner[k] = undefined
                was.dispose()
              }
              const v = run(k, spec, (i) => nodes[i]!.value, side)
              if (spec.sink) sinks[k]!.value = v
              if (spec.inner !== null) {
                const e = { j: spec.inner - signals, seen: undefined as Outcome | undefined, dispose: undefined! as Dispose }
                e.dispose = effect(() => {
                  e.seen = outcome(e.j)
                })
                inner[k] = e
              }
              return v
            }),
          ),
        )
        // Effects on the sinks: each must have seen its sink's last value.
        const sinkSeen = specs.map(() => -2)
        const sinkStops = specs.map((spec, k) => (spec.sink ? effect(() => void (sinkSeen[k] = sinks[k]!.value)) : () => {}))
        const outcome = (k: number): Outcome => {
          try {
            return nodes[signals + k]!.value
          } catch (e) {
            return classify(e)
          }
        }
        const expected = () => model(inputs.map((s) => s.peek()), specs)
        // Effects: the computed each one watches, and what it saw last.
        const effects: { k: number; seen: Outcome | undefined; runs: number; dispose: Dispose }[] = []
        const watch = (k: number) => {
          const e = { k, seen: undefined as Outcome | undefined, runs: 0, dispose: undefined! as Dispose }
          e.dispose = effect(() => {
            e.runs++
            e.seen = outcome(k)
          })
          effects.push(e)
        }
        const checkEffects = (want: Outcome[], when: string) => {
          for (const e of effects) expect({ when, effect: e.k, seen: e.seen }).toEqual({ when, effect: e.k, seen: want[e.k] })
        }
        // After every computed was read: sinks hold the numeric outcomes, their effects saw them, inner effects saw
        // what they read.
        const checkAfterReads = (want: Outcome[], when: string) => {
          specs.forEach((spec, k) => {
            if (spec.sink && typeof want[k] == 'number')
              expect({ when, sink: k, value: sinks[k]!.peek(), seen: sinkSeen[k] }).toEqual({ when, sink: k, value: want[k], seen: want[k] })
            const e = inner[k]
            // Its first run read `j` while `k` ran: what `j` gives with `k` in progress is fine too (README: vague).
            const during = e && model(inputs.map((s) => s.peek()), specs, k)[e.j]
            if (e && typeof want[k] == 'number' && e.seen !== during)
              expect({ when, inner: k, reads: e.j, seen: e.seen }).toEqual({ when, inner: k, reads: e.j, seen: want[e.j] })
          })
        }
        for (const k of watched) watch(k)
        const want0 = expected()
        checkEffects(want0, 'setup')
        if (firstOrder)
          for (const k of order(firstOrder)) expect({ when: 'first read', k, got: outcome(k) }).toEqual({ when: 'first read', k, got: want0[k] })
        steps.forEach(([step, keys, readAll], n) => {
          const before = new Map(effects.map((e) => [e, e.runs]))
          if ('write' in step) {
            const apply = () => {
              step.write.forEach(([i, v], w) => {
                inputs[i]!.value = v
                if (!step.batched) return
                if (w == 0 && step.disposeIn !== null && effects.length) effects.splice(step.disposeIn % effects.length, 1)[0]!.dispose()
                const want = expected()
                for (const k of step.readsIn) expect({ when: `step ${n}, in the batch after write ${w}`, k, got: outcome(k) }).toEqual({ when: `step ${n}, in the batch after write ${w}`, k, got: want[k] })
              })
            }
            if (step.batched) batch(apply)
            else apply()
          } else if ('watch' in step) watch(step.watch)
          else if (effects.length) effects.splice(step.unwatch % effects.length, 1)[0]!.dispose()
          const want = expected()
          const when = `step ${n}`
          checkEffects(want, when)
          // At most once per write (or batch) for an effect that existed before the step.
          const writes = 'write' in step ? (step.batched ? 1 : step.write.length) : 0
          for (const e of effects) {
            const was = before.get(e)
            if (env('FC_NO_RUNS') === undefined && was !== undefined && e.runs - was > writes)
              expect({ when, effect: e.k, runs: e.runs - was }).toEqual({ when, effect: e.k, runs: `<= ${writes}` })
          }
          if (readAll || n == steps.length - 1) {
            for (const k of order(keys)) expect({ when, k, got: outcome(k) }).toEqual({ when, k, got: want[k] })
            checkEffects(want, `${when}, after the reads`)
            checkAfterReads(want, `${when}, after the reads`)
          } else {
            // Only some of them: the rest stay stale for the next step.
            const some = order(keys).slice(0, keys[0]! % (specs.length + 1))
            for (const k of some) expect({ when, k, got: outcome(k) }).toEqual({ when, k, got: want[k] })
          }
        })
        for (const e of effects) e.dispose()
        for (const stop of sinkStops) stop()
        // Unwatched now: every computed still reads right.
        const want = expected()
        for (let k = 0; k < specs.length; k++) expect({ when: 'end', k, got: outcome(k) }).toEqual({ when: 'end', k, got: want[k] })
        for (const e of inner) e?.dispose()
      }),
      {
        numRuns: Number(env('FC_RUNS') ?? 1000),
        examples: regressions.map((program) => [program]),
        ...(env('FC_SEED') ? { seed: Number(env('FC_SEED')) } : {}),
        ...(env('FC_PATH') ? { path: env('FC_PATH') } : {}),
      },
    )
  })
})
