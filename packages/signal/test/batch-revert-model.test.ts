// The batch revert (bcbbb0d), from a review: a model test. Random signals, computeds (some dynamic), effects, random
// batches of writes with
// reverts, nested batches, mid-batch reads, and effects that run batches of their own in the drain.
// The model: after every top-level operation every live effect's last run read values that are still current
// (else eddy skipped a needed run). A run is "needless" when every value the effect read in its previous run is
// still current: counted by the kind of operation, to characterize.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Signal, batch, computed, effect } from '@eddy/signal'

const NS = 4
const NC = 4
const NE = 4
const SNAP = 1 << 13

type CSpec = { kind: 'sum' | 'max' | 'dyn' | 'parity'; deps: number[] } // deps: node ids (< NS signals, else computeds)
type ESpec = { deps: number[]; writer?: { when: number; target: number; vals: number[] } }
type Op =
  | { t: 'w'; i: number; v: number }
  | { t: 'r'; c: number }
  | { t: 'b'; ops: Op[] }
  | { t: 'e'; deps: number[] }
  | { t: 'd'; e: number }
  | { t: 'u'; c: number }

const opArb: fc.Memo<Op> = fc.memo((n) =>
  n <= 1
    ? fc.oneof(
        fc.record({ t: fc.constant('w' as const), i: fc.nat(NS - 1), v: fc.nat(2) }),
        fc.record({ t: fc.constant('r' as const), c: fc.nat(NC - 1) }),
      )
    : fc.oneof(
        { weight: 3, arbitrary: fc.record({ t: fc.constant('w' as const), i: fc.nat(NS - 1), v: fc.nat(2) }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant('r' as const), c: fc.nat(NC - 1) }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant('e' as const), deps: fc.array(fc.nat(NS + NC - 1), { minLength: 1, maxLength: 3 }) }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant('d' as const), e: fc.nat(20) }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant('u' as const), c: fc.nat(NC - 1) }) },
        { weight: 2, arbitrary: fc.record({ t: fc.constant('b' as const), ops: fc.array(opArb(n - 1), { maxLength: 6 }) }) },
      ),
)

const cspecArb = (k: number): fc.Arbitrary<CSpec> =>
  fc.record({
    kind: fc.constantFrom('sum', 'max', 'dyn', 'parity'),
    deps: fc.array(fc.nat(NS + k - 1), { minLength: 1, maxLength: 3 }),
  })

const especArb: fc.Arbitrary<ESpec> = fc.record(
  {
    deps: fc.array(fc.nat(NS + NC - 1), { minLength: 1, maxLength: 3 }),
    writer: fc.record({ when: fc.nat(NS - 1), target: fc.nat(NS - 1), vals: fc.array(fc.nat(2), { minLength: 1, maxLength: 3 }) }),
  },
  { requiredKeys: ['deps'] },
)

function evalSpec(spec: CSpec, get: (id: number) => number): number {
  const d = spec.deps
  switch (spec.kind) {
    case 'sum':
      return d.reduce((a, id) => a + get(id), 0) % 3
    case 'max':
      return d.reduce((a, id) => Math.max(a, get(id)), 0)
    case 'parity':
      return d.reduce((a, id) => a + get(id), 0) % 2
    case 'dyn': {
      // dynamic: reads the first, then one of the rest depending on it
      const first = get(d[0])
      if (d.length == 1) return first
      return get(d[1 + (first % (d.length - 1))])
    }
  }
}

const stats: Record<string, { runs: number; needless: number }> = {}
const count = (k: string, needless: boolean) => {
  const s = (stats[k] ??= { runs: 0, needless: 0 })
  s.runs++
  if (needless) s.needless++
}

function scenario(cspecs: CSpec[], especs: ESpec[], ops: Op[], withWriters: boolean): void {
  const sigs = Array.from({ length: NS }, () => new Signal(0))
  const comps: { value: number }[] = []
  const modelVal = (id: number): number => (id < NS ? sigs[id].peek() : evalSpec(cspecs[id - NS], modelVal))
  for (let k = 0; k < NC; k++) {
    const spec = cspecs[k]
    comps.push(computed(() => evalSpec(spec, (id) => (id < NS ? sigs[id].value : comps[id - NS].value))))
  }
  const node = (id: number): { value: number } => (id < NS ? sigs[id] : comps[id - NS])
  type Rec = { reads: [number, number][]; runs: number }
  const recs: Rec[] = []
  let kind = 'create'
  const stops: (() => void)[] = []
  const live: boolean[] = []
  const make = (spec: ESpec): void => {
    const rec: Rec = { reads: [], runs: 0 }
    recs.push(rec)
    const w = withWriters ? spec.writer : undefined
    stops.push(
      effect(() => {
        const prev = rec.reads
        const needless = rec.runs > 0 && prev.every(([id, v]) => Object.is(modelVal(id), v))
        if (rec.runs > 0) count(kind, needless)
        rec.runs++
        const reads: [number, number][] = []
        for (const id of spec.deps) {
          // Effect writers must not read their own target (that would be a self-loop).
          if (w && id === w.target) continue
          reads.push([id, node(id).value])
        }
        if (w) {
          const when = sigs[w.when].value
          reads.push([w.when, when])
          if (w.when !== w.target && when % 2) {
            // a batch in the effect's run: writes vals, then puts the target back
            const t = sigs[w.target]
            batch(() => {
              const orig = t.peek()
              for (const v of w.vals) t.value = v
              t.value = orig
            })
          }
        }
        rec.reads = reads
      }),
    )
    live.push(true)
  }
  for (let e = 0; e < NE; e++) make(especs[e])
  // 'u': a watched-then-unwatched computed: an effect on it made and disposed at once
  const unwatch = (c: number) => effect(() => void comps[c].value)()
  const check = (where: string) => {
    for (let e = 0; e < recs.length; e++)
      if (live[e]) for (const [id, v] of recs[e].reads)
        if (!Object.is(modelVal(id), v))
          throw new Error(`${where}: effect ${e} read node ${id} = ${v}, now ${modelVal(id)} (skipped a needed run)`)
    for (let k = 0; k < NC; k++) expect(comps[k].value).toBe(modelVal(NS + k))
    if (!withWriters) for (const s of sigs) expect((s as any)._flags & SNAP).toBe(0)
  }
  const hasRead = (ops: Op[]): boolean => ops.some((o) => o.t == 'r' || o.t == 'e' || o.t == 'u' || (o.t == 'b' && hasRead(o.ops)))
  const run = (op: Op): void => {
    if (op.t == 'w') sigs[op.i].value = op.v
    else if (op.t == 'r') comps[op.c].value
    else if (op.t == 'e') make({ deps: op.deps })
    else if (op.t == 'd') {
      if (op.e < stops.length && live[op.e]) (stops[op.e](), (live[op.e] = false))
    } else if (op.t == 'u') unwatch(op.c)
    else batch(() => op.ops.forEach(run))
  }
  try {
    check('after creation')
    for (const op of ops) {
      kind = op.t == 'b' ? (hasRead(op.ops) ? 'batch+midread' : 'batch') : op.t
      // A "Cycle detected" here is a bug too (thrown through, so fast-check shrinks it): no writer reads what it
      // writes, and each puts its value back. It was counted and only logged, which let a false cycle pass.
      run(op)
      check(JSON.stringify(op))
    }
  } finally {
    stops.forEach((s) => s())
  }
}

describe('batch revert, model', () => {
  it('never skips a needed run (effects without writers)', () => {
    fc.assert(
      fc.property(
        fc.tuple(...Array.from({ length: NC }, (_, k) => cspecArb(k))),
        fc.array(especArb, { minLength: NE, maxLength: NE }),
        fc.array(opArb(3), { minLength: 1, maxLength: 15 }),
        (cspecs, especs, ops) => scenario(cspecs, especs, ops, false),
      ),
      { numRuns: Number(process.env.RUNS ?? 1500) },
    )
    console.log('no writers', JSON.stringify(stats))
    for (const k in stats) delete stats[k]
  })

  it('never skips a needed run (effects that run batches that put a signal back)', () => {
    fc.assert(
      fc.property(
        fc.tuple(...Array.from({ length: NC }, (_, k) => cspecArb(k))),
        fc.array(especArb, { minLength: NE, maxLength: NE }),
        fc.array(opArb(3), { minLength: 1, maxLength: 15 }),
        (cspecs, especs, ops) => scenario(cspecs, especs, ops, true),
      ),
      { numRuns: Number(process.env.RUNS ?? 1500) },
    )
    console.log('writers', JSON.stringify(stats))
    for (const k in stats) delete stats[k]
  })
})
