// A differential property test: random programs (signals, computeds, effects, subscribers, writes, reads and
// batches) run on eddy, and what they observe is compared with another implementation. Kept from a differential
// fuzzer written during a review (about 32,000 programs, no bug found), as a regression test. Two modes, one `it`
// each:
// - against @preact/signals-core, on the behaviour the two share (README: "Coming from @preact/signals-core"), so no
//   -0, NaN or `equals`, no writes from effects, no throwing cleanups: each effect's and subscriber's log (its runs,
//   step by step, with what each read; its cleanups, self-disposal, a first run that throws), every read and peek of a
//   step, whether a step throws, and every node's value after each step must be the same;
// - against an oracle that recomputes every computed from scratch from what the signals hold, with everything in:
//   also effects that write signals (their own sources too) or dispose others, nested effects disposed by the outer
//   one's cleanup, cleanups that throw, -0 and NaN, signals with `equals`. Every read (by a step, even mid-batch, an
//   effect or a subscriber) must be the oracle's, and so must every node after each step; after each step every
//   signal must hold what the program's writes left in it by eddy's write rule (its `equals(previous, next)`, else
//   Object.is: an equal write keeps the value held), modelled apart from eddy at every write (by a step, in a batch,
//   by an effect), and every live effect and subscriber must have seen the current values (none missed a run); only
//   what the program throws is thrown.
// In both, nothing disposed runs again, and nothing is left subscribed once every effect is disposed.
// Computeds that read a node untracked (peek or untracked()), and those above them, may lag the oracle: their values
// are compared with Preact only.
//
// FUZZ_RUNS=20000 runs that many programs per mode instead of 300 (a long local run, about 15 s per mode; the default
// keeps this file to about a second). On a failure, fast-check prints the shrunk program (its steps in order) and the
// seed.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import * as preact from '@preact/signals-core'
import { Signal, batch, computed, effect, untracked } from '@eddy/signal'

const numRuns = Number(process.env.FUZZ_RUNS) || 300
// The unit project's 30 s would cut a long run short (a program takes under a millisecond).
const timeout = Math.max(30_000, numRuns * 5)

type Mode = 'preact' | 'oracle'

// Values: named objects, so that identity counts (O1 written over O1 is no change) and logs stay readable.
const O1 = { name: 'O1' }
const O2 = { name: 'O2' }
const A1 = ['A1']
const names = new Map<unknown, string>([
  [O1, 'O1'],
  [O2, 'O2'],
  [A1, 'A1'],
])
const shared: unknown[] = [0, 1, 2, 'a', 'b', '', null, undefined, true, false, O1, O2, A1]
// Not against Preact: it compares with `!==`, eddy with Object.is (NaN over NaN is no change, -0 over 0 is one).
const all: unknown[] = [...shared, Number.NaN, -0]

/** A value as the logs show it: -0 apart from 0, strings quoted, the named objects by name, arrays ('arr') inline. */
function show(v: unknown): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v)
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'object' && v !== null) return names.get(v) ?? `[${(v as unknown[]).map(show).join(',')}]`
  return String(v)
}

/** A stable hash of a string: decides, from what a run read, whether it throws, disposes itself, and what it writes. */
function hash(s: string): number {
  let h = 7
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0
  return Math.abs(h)
}

/** The messages of an error, an AggregateError's (eddy's several errors of one flush) one by one. */
function messages(e: unknown): string[] {
  if (e instanceof AggregateError) return e.errors.flatMap(messages)
  return [e instanceof Error ? e.message : String(e)]
}

/** Signal `equals` options (mode oracle), by index: none; same shown value; never equal; same type; loose equality. */
const equalities: (((a: unknown, b: unknown) => boolean) | undefined)[] = [
  undefined,
  (a, b) => show(a) === show(b),
  () => false,
  (a, b) => typeof a === typeof b,
  (a, b) => a == b,
]
/** The `equalities`, as violations name them. */
const equalityNames = ['none (Object.is)', 'same shown value', '() => false', 'same typeof', '==']

const kinds = ['pass', 'cond', 'combine', 'throw', 'catch', 'arr', 'typeof', 'untracked', 'peek'] as const

/** A computed over earlier nodes `a`, `b`, `c` (signals first, then the computeds before it); see `evaluate`. */
interface ComputedSpec {
  kind: (typeof kinds)[number]
  a: number
  b: number
  c: number
}

/**
 * A computed's function. `read` reads a node tracked; `aside` reads `b` untracked (by `peek()` or `untracked()`, as
 * the kind says). A throwing read throws out of it, except in 'catch'.
 */
function evaluate(
  spec: ComputedSpec,
  self: number,
  read: (i: number) => unknown,
  aside: (i: number) => unknown,
): unknown {
  const { a, b, c } = spec
  switch (spec.kind) {
    case 'pass':
      return read(a)
    case 'cond':
      // Dynamic dependencies: b or c, as a says.
      return read(a) ? read(b) : read(c)
    case 'combine':
      return `${show(read(a))}|${show(read(b))}`
    case 'throw': {
      const v = read(a)
      if (hash(show(v)) % 3 === 0) throw new Error(`C${self}:${show(v)}`)
      return v
    }
    case 'catch':
      try {
        return read(a)
      } catch (e) {
        return `caught:${messages(e).join()}`
      }
    case 'arr':
      // A new array at each run: a change every time, whatever it holds.
      return [read(a), read(b)]
    case 'typeof':
      // Often the same after a change of a: its readers are cut off.
      return typeof read(a)
    case 'untracked':
    case 'peek':
      return `${show(read(a))}/${show(aside(b))}`
  }
}

/** The nodes a computed of `spec` reads tracked (see `evaluate`): `b` of 'untracked' and 'peek' is read aside. */
function trackedSources(spec: ComputedSpec): number[] {
  switch (spec.kind) {
    case 'cond':
      return [spec.a, spec.b, spec.c]
    case 'combine':
    case 'arr':
      return [spec.a, spec.b]
    default:
      return [spec.a]
  }
}

interface EffectSpec {
  /** Nodes it reads, tracked, in order. */
  reads: number[]
  /** Dynamic dependencies: when what it read first hashes even, it reads only one other node. */
  cond?: boolean
  /** Returns a cleanup, logged. */
  cleanup?: boolean
  /** Creates an effect reading this node at each run (not disposed when this one runs again, as in Preact). */
  nested?: number
  /** Disposes that nested effect in its cleanup (mode oracle). */
  nestedDispose?: boolean
  /** Disposes itself from some of its runs (those after `effect()` has returned). */
  selfDispose?: boolean
  /** Throws (after its reads) from some of its runs, from its second one on unless `throwsFirst`. */
  throws?: boolean
  throwsFirst?: boolean
  /** Its cleanup throws, sometimes (mode oracle). */
  cleanupThrows?: boolean
  /** Writes this derived signal a value picked by what it read (mode oracle), in a batch of its own if `batchWrite`. */
  write?: number
  batchWrite?: boolean
  /** Disposes another live effect or subscriber, by its rank among them (mode oracle). */
  disposeOther?: number
  /** Reads this input signal, writes 1 to it if it holds no number: an effect writing its own source (mode oracle). */
  clamp?: number
}

type Op =
  | { t: 'write' | 'untrackedWrite'; s: number; v: unknown }
  | { t: 'read' | 'peek'; i: number }
  | { t: 'batch'; ops: Op[]; throws: boolean }

type Step = Op | { t: 'effect'; spec: EffectSpec } | { t: 'subscribe'; s: number } | { t: 'dispose'; k: number }

interface Program {
  /** Initial values: the input signals (which steps write), then the derived ones (mode oracle: effects write them). */
  signals: unknown[]
  inputs: number
  /** Each signal's `equals`, an index into `equalities` (all 0 against Preact). */
  equals: number[]
  computeds: ComputedSpec[]
  /** What effects write to derived signals. */
  writeValues: unknown[]
  steps: Step[]
}

/** The raw program: indices are any naturals, fitted by `normalize` (a map shrinks better than an `fc.chain`). */
function rawArb(mode: Mode) {
  const oracle = mode === 'oracle'
  // Against the oracle, 0, -0 and NaN more often: a write of one over another is where Object.is is not `===`.
  const value = oracle
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...all) }, fc.constantFrom(0, -0, Number.NaN))
    : fc.constantFrom(...shared)
  // Effect options only the oracle mode uses (see normalize): constant against Preact.
  const flag = oracle ? fc.boolean() : fc.constant(false)
  const option = (freq: number) => (oracle ? fc.option(fc.nat(), { freq }) : fc.constant<number | null>(null))
  const write = fc.record({ t: fc.constant('write' as const), s: fc.nat(), v: value })
  const read = fc.record({ t: fc.constant('read' as const), i: fc.nat() })
  const batched = fc.record({
    t: fc.constant('batch' as const),
    ops: fc.array(
      fc.oneof(
        write,
        read,
        fc.record({ t: fc.constant('batch' as const), ops: fc.array(write, { maxLength: 3 }), throws: fc.boolean() }),
      ),
      { maxLength: 5 },
    ),
    throws: fc.boolean(),
  })
  return fc.record({
    signals: fc.array(fc.record({ value, equals: oracle ? fc.nat(equalities.length - 1) : fc.constant(0) }), {
      minLength: 1,
      maxLength: 5,
    }),
    // The derived signals' `equals` (they start at 0).
    derived: fc.array(fc.nat(equalities.length - 1), { maxLength: oracle ? 3 : 0 }),
    computeds: fc.array(fc.record({ kind: fc.constantFrom(...kinds), a: fc.nat(), b: fc.nat(), c: fc.nat() }), {
      maxLength: 12,
    }),
    effects: fc.array(
      fc.record({
        reads: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        cond: fc.boolean(),
        cleanup: fc.boolean(),
        nested: fc.option(fc.nat(), { freq: 3 }),
        nestedDispose: flag,
        selfDispose: fc.boolean(),
        throws: fc.boolean(),
        throwsFirst: fc.boolean(),
        cleanupThrows: flag,
        write: option(2),
        batchWrite: flag,
        disposeOther: option(4),
        clamp: option(3),
      }),
      { maxLength: 5 },
    ),
    writeValues: fc.array(value, { minLength: 1, maxLength: 4 }),
    steps: fc.array(
      fc.oneof(
        { weight: 5, arbitrary: write },
        { weight: 3, arbitrary: batched },
        { weight: 2, arbitrary: read },
        { weight: 1, arbitrary: fc.record({ t: fc.constant('peek' as const), i: fc.nat() }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant('untrackedWrite' as const), s: fc.nat(), v: value }) },
        // An effect made from the program's effect specs (several steps may make the same one again).
        { weight: 2, arbitrary: fc.record({ t: fc.constant('effect' as const), e: fc.nat() }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant('dispose' as const), k: fc.nat() }) },
        { weight: 1, arbitrary: fc.record({ t: fc.constant('subscribe' as const), s: fc.nat() }) },
      ),
      { minLength: 1, maxLength: 30 },
    ),
  })
}

type Raw = ReturnType<typeof rawArb> extends fc.Arbitrary<infer T> ? T : never

function normalize(raw: Raw, mode: Mode): Program {
  const oracle = mode === 'oracle'
  const inputs = raw.signals.length
  const signals = [...raw.signals.map((s) => s.value), ...raw.derived.map(() => 0)]
  const equals = [...raw.signals.map((s) => s.equals), ...raw.derived]
  // Effects' writes must not loop: a node's level is 0 for an input signal, k + 1 for derived signal k, and the
  // highest of its sources' for a computed; an effect writes only a derived signal above every node it reads.
  const level = signals.map((_, i) => (i < inputs ? 0 : i - inputs + 1))
  const computeds = raw.computeds.map((c, k): ComputedSpec => {
    const n = signals.length + k
    const spec = { kind: c.kind, a: c.a % n, b: c.b % n, c: c.c % n }
    level.push(Math.max(level[spec.a]!, level[spec.b]!, level[spec.c]!))
    return spec
  })
  const total = level.length
  const effects = raw.effects.map((e): EffectSpec => {
    const reads = e.reads.map((i) => i % total)
    const nested = e.nested === null ? undefined : e.nested % total
    const { cond, cleanup, selfDispose, throws, throwsFirst } = e
    const spec: EffectSpec = { reads, cond, cleanup, selfDispose, throws, throwsFirst }
    if (nested !== undefined) spec.nested = nested
    // The rest only against the oracle: Preact disposes an effect whose cleanup throws, and runs a batch's effects in
    // another order, so effects that write, or dispose others (a nested one from a cleanup too), would legitimately
    // run on other values, or not at all.
    if (!oracle) return spec
    if (nested !== undefined) spec.nestedDispose = e.nestedDispose
    spec.cleanupThrows = e.cleanupThrows
    const top = Math.max(...reads.map((i) => level[i]!), nested === undefined ? 0 : level[nested]!)
    const derived = raw.derived.length
    if (e.write !== null && top < derived) {
      // A derived signal k with k + 1 > top.
      spec.write = inputs + top + (e.write % (derived - top))
      spec.batchWrite = e.batchWrite
    }
    if (e.disposeOther !== null) spec.disposeOther = e.disposeOther
    if (e.clamp !== null) spec.clamp = e.clamp % inputs
    return spec
  })
  const fit = (op: Op): Op => {
    if (op.t === 'batch') return { ...op, ops: op.ops.map(fit) }
    if ('i' in op) return { ...op, i: op.i % total }
    return { ...op, s: op.s % inputs }
  }
  const steps: Step[] = []
  for (const [n, step] of raw.steps.entries()) {
    if (step.t === 'effect') {
      // Offset by the step's rank, so that a shrunk program (every `e` 0) still makes different effects.
      if (effects.length) steps.push({ t: 'effect', spec: effects[(step.e + n) % effects.length]! })
    } else if (step.t === 'subscribe') steps.push({ t: 'subscribe', s: step.s % inputs })
    else if (step.t === 'dispose') steps.push(step)
    else steps.push(fit(step))
  }
  return { signals, inputs, equals, computeds, writeValues: raw.writeValues, steps }
}

const programArb = (mode: Mode): fc.Arbitrary<Program> => rawArb(mode).map((raw) => normalize(raw, mode))

/** What a program needs of a library. */
interface Readable {
  readonly value: unknown
  peek(): unknown
}
interface Writable extends Readable {
  value: unknown
  subscribe(fn: (value: unknown) => void): () => void
}
interface Lib {
  signal(value: unknown, equals: ((a: unknown, b: unknown) => boolean) | undefined): Writable
  computed(fn: () => unknown): Readable
  effect(fn: () => (() => void) | undefined): () => void
  batch(fn: () => void): void
  untracked<T>(fn: () => T): T
}

const eddyLib: Lib = { signal: (value, equals) => new Signal(value, { equals }), computed, effect, batch, untracked }
// No `equals` in Preact: programs against it have none.
const preactLib: Lib = {
  signal: (value) => preact.signal(value),
  computed: preact.computed,
  effect: preact.effect,
  batch: preact.batch,
  untracked: preact.untracked,
}

/** An effect or subscriber. Ids: E<n> for effects, S<n> for subscribers, E<n>.<run> for one nested in E<n>'s run. */
interface Watcher {
  id: string
  /** What it did, each entry after the step it did it in: its runs with what each read, cleanups, disposals. */
  log: string[]
  /** What its last run read, tracked: [node, value shown]. */
  seen: [number, string][]
  /** Set once it is created (not during its first run). */
  stop?: () => void
  dead: boolean
}

interface StepResult {
  /** What its reads and peeks gave, and what it disposed. */
  out: string[]
  errors: string[]
  /** Every node's value (peeked) after it. */
  nodes: string[]
}

interface Trace {
  watchers: Map<string, Watcher>
  steps: StepResult[]
  violations: string[]
  nodes: Readable[]
}

/**
 * Runs `prog` on `lib`. `freshErrors`: a computed rethrows what it reads as a new Error (same message), so that each
 * of its throwing runs is a change, as it is in Preact (eddy compares errors with Object.is: the same error object
 * passed on again is no change). `checked`: each read is checked against the oracle, on the spot.
 */
function runProgram(lib: Lib, prog: Program, options: { freshErrors: boolean; checked: boolean }): Trace {
  const { freshErrors, checked } = options
  const violations: string[] = []
  const signals = prog.signals.map((v, i) => lib.signal(v, equalities[prog.equals[i]!]))
  const nodes: Readable[] = [...signals]
  const fresh = <T>(get: () => T): T => {
    if (!freshErrors) return get()
    try {
      return get()
    } catch (e) {
      throw new Error(messages(e).join())
    }
  }
  prog.computeds.forEach((spec, k) => {
    const aside = (i: number) => (spec.kind === 'untracked' ? lib.untracked(() => nodes[i]!.value) : nodes[i]!.peek())
    nodes.push(
      lib.computed(() =>
        evaluate(
          spec,
          prog.signals.length + k,
          (i) => fresh(() => nodes[i]!.value),
          (i) => fresh(() => aside(i)),
        ),
      ),
    )
  })
  // Nodes that may lag the oracle: computeds that read something untracked, and those that read them (tracked).
  const lagging = new Set<number>()
  prog.computeds.forEach((spec, k) => {
    if (spec.kind === 'untracked' || spec.kind === 'peek' || trackedSources(spec).some((i) => lagging.has(i)))
      lagging.add(prog.signals.length + k)
  })
  // What each signal must hold (checked after each step), modelled apart from eddy: a write of a value its `equals`
  // (else Object.is) finds equal to the one held keeps that one, any other replaces it. Nothing else moves a value:
  // a batch that ends on the value it began with runs none of its readers, but holds what its last write left. Updated
  // before the library's write: a write outside a batch runs effects at once, and what they write comes after it.
  const shadow = [...prog.signals]
  const assign = (s: number, v: unknown): void => {
    const equals = equalities[prog.equals[s]!]
    const held = shadow[s]
    if (!(equals ? equals(held, v) : Object.is(held, v))) shadow[s] = v
    signals[s]!.value = v
  }

  const shown = (get: () => unknown): string => {
    try {
      return show(get())
    } catch (e) {
      return `err:${messages(e).join()}`
    }
  }
  /** Every node, recomputed from scratch from what the signals hold now, shown. */
  const oracle = (): string[] => {
    const results: ({ value: unknown } | { error: unknown })[] = signals.map((s) => ({ value: s.peek() }))
    const read = (i: number): unknown => {
      const r = results[i]!
      if ('error' in r) throw r.error
      return r.value
    }
    prog.computeds.forEach((spec, k) => {
      try {
        results.push({ value: evaluate(spec, prog.signals.length + k, read, read) })
      } catch (error) {
        results.push({ error })
      }
    })
    return results.map((r) => ('error' in r ? `err:${messages(r.error).join()}` : show(r.value)))
  }
  let step = 0
  const check = (where: string, i: number, got: string) => {
    if (!checked || lagging.has(i)) return
    const want = oracle()[i]
    if (got !== want) violations.push(`step ${step}, ${where}: node ${i} read ${got}, oracle ${want}`)
  }

  const watchers = new Map<string, Watcher>()
  let made = 0
  const note = (w: Watcher, what: string) => w.log.push(`@${step} ${what}`)
  const kill = (w: Watcher) => {
    // Marked first: a cleanup that throws still leaves it disposed.
    w.dead = true
    w.stop!()
  }
  // By id, so that a rank picks the same one in both libraries.
  const live = () => [...watchers.values()].filter((w) => w.stop && !w.dead).sort((x, y) => (x.id < y.id ? -1 : 1))

  const watch = (spec: EffectSpec, id: string): void => {
    const w: Watcher = { id, log: [], seen: [], dead: false }
    watchers.set(id, w)
    let runs = 0
    const body = () => {
      const run = runs++
      if (w.dead) violations.push(`step ${step}: ${id} ran after it was disposed`)
      const [first, ...others] = spec.reads
      const seen: [number, string][] = [[first!, shown(() => nodes[first!]!.value)]]
      for (const i of spec.cond && hash(seen[0]![1]) % 2 === 0 ? others.slice(0, 1) : others)
        seen.push([i, shown(() => nodes[i]!.value)])
      for (const [i, got] of seen) check(`${id}'s run`, i, got)
      w.seen = seen
      const values = seen.map(([, v]) => v).join()
      note(w, `run${run} [${values}]`)
      const digest = hash(values)
      if (spec.clamp !== undefined) {
        const v = signals[spec.clamp]!.value
        if (typeof v !== 'number' || Number.isNaN(v)) assign(spec.clamp, 1)
      }
      if (spec.write !== undefined) {
        const target = spec.write
        const v = prog.writeValues[digest % prog.writeValues.length]
        if (spec.batchWrite) lib.batch(() => assign(target, v))
        else assign(target, v)
      }
      let inner: Watcher | undefined
      if (spec.nested !== undefined) {
        const innerId = `${id}.${run}`
        watch({ reads: [spec.nested], cleanup: true }, innerId)
        if (spec.nestedDispose) inner = watchers.get(innerId)
      }
      if (spec.disposeOther !== undefined) {
        const others = live()
        const other = others[spec.disposeOther % Math.max(1, others.length)]
        if (other && other !== w) {
          note(w, `disposed ${other.id}`)
          kill(other)
        }
      }
      // `w.stop` is set once `effect()` has returned (not in a run before that: the first, or one it triggered).
      if (spec.selfDispose && w.stop && digest % 3 === 0) {
        note(w, 'self-dispose')
        kill(w)
      }
      if (spec.throws && digest % 4 === 1 && (run > 0 || spec.throwsFirst)) throw new Error(`${id} threw`)
      if (!spec.cleanup && !inner) return undefined
      return () => {
        note(w, `cleanup${run}`)
        if (inner && !inner.dead) kill(inner)
        if (spec.cleanupThrows && digest % 2 === 0) throw new Error(`${id} cleanup threw`)
      }
    }
    try {
      w.stop = lib.effect(body)
    } catch (e) {
      // Both libraries dispose an effect whose first run throws, and throw its error.
      w.dead = true
      note(w, `threw at creation: ${messages(e).join('; ')}`)
    }
  }

  const subscribe = (s: number, id: string): void => {
    const w: Watcher = { id, log: [], seen: [], dead: false }
    watchers.set(id, w)
    let calls = 0
    w.stop = signals[s]!.subscribe((v) => {
      if (w.dead) violations.push(`step ${step}: ${id} was called after it was disposed`)
      const got = show(v)
      check(`${id}'s call`, s, got)
      w.seen = [[s, got]]
      note(w, `call${calls++} ${got}`)
    })
  }

  const apply = (op: Op, out: string[]): void => {
    switch (op.t) {
      case 'write':
        assign(op.s, op.v)
        break
      case 'untrackedWrite':
        lib.untracked(() => assign(op.s, op.v))
        break
      case 'read':
      case 'peek': {
        const node = nodes[op.i]!
        const got = shown(() => (op.t === 'read' ? node.value : node.peek()))
        check(op.t, op.i, got)
        out.push(`${op.t} ${op.i}=${got}`)
        break
      }
      case 'batch':
        lib.batch(() => {
          for (const o of op.ops) apply(o, out)
          if (op.throws) throw new Error('batch threw')
        })
    }
  }

  const steps: StepResult[] = []
  for (const s of prog.steps) {
    step++
    const out: string[] = []
    let errors: string[] = []
    try {
      if (s.t === 'effect') watch(s.spec, `E${made++}`)
      else if (s.t === 'subscribe') subscribe(s.s, `S${made++}`)
      else if (s.t === 'dispose') {
        const ws = live()
        const w = ws[s.k % Math.max(1, ws.length)]
        if (w) {
          out.push(`disposed ${w.id}`)
          kill(w)
        }
      } else apply(s, out)
    } catch (e) {
      errors = messages(e)
    }
    const values = nodes.map((node) => shown(() => node.peek()))
    steps.push({ out, errors, nodes: values })
    if (!checked) continue
    // Every signal holds what its writes left in it (compared by Object.is: -0 is not 0, NaN is NaN).
    signals.forEach((s, i) => {
      const held = s.peek()
      if (!Object.is(held, shadow[i]))
        violations.push(
          `after step ${step}: signal ${i} (equals: ${equalityNames[prog.equals[i]!]}) holds ${show(held)}, ` +
            `its writes leave ${show(shadow[i])}`,
        )
    })
    const want = oracle()
    values.forEach((v, i) => {
      if (!lagging.has(i) && v !== want[i]) violations.push(`after step ${step}: node ${i} is ${v}, oracle ${want[i]}`)
    })
    // Every live watcher has run since its sources last changed: what it read last is what they hold now.
    for (const w of watchers.values()) {
      if (w.dead) continue
      for (const [i, v] of w.seen)
        if (!lagging.has(i) && v !== want[i])
          violations.push(`after step ${step}: ${w.id} last read node ${i} as ${v}, oracle ${want[i]}`)
    }
    // Only what the program throws is thrown (no "Cycle detected": its effects' writes cannot loop).
    for (const m of errors)
      if (!/^(E[\d.]+ (cleanup )?threw|batch threw)$/.test(m)) violations.push(`step ${step} threw ${m}`)
  }
  for (const w of live())
    try {
      kill(w)
    } catch {
      // A cleanup that throws (mode oracle): the effect is disposed all the same.
    }
  return { watchers, steps, violations, nodes }
}

/** Once every effect and subscriber is disposed, no eddy node holds a subscriber. */
function expectNothingSubscribed(nodes: Readable[]) {
  for (const node of nodes) expect((node as unknown as { _subs?: unknown })._subs).toBeUndefined()
}

/** Where eddy and Preact differ on `prog`. */
function differences(e: Trace, p: Trace): string[] {
  const found: string[] = []
  for (const id of new Set([...e.watchers.keys(), ...p.watchers.keys()])) {
    const a = JSON.stringify(e.watchers.get(id)?.log ?? [])
    const b = JSON.stringify(p.watchers.get(id)?.log ?? [])
    if (a !== b) found.push(`${id}: eddy ${a}, preact ${b}`)
  }
  e.steps.forEach((se, k) => {
    const sp = p.steps[k]!
    const at = `step ${k + 1}`
    if (se.out.join() !== sp.out.join()) found.push(`${at}: eddy [${se.out}], preact [${sp.out}]`)
    // Eddy throws every error of a flush (an AggregateError), Preact its first one only.
    if (se.errors.length > 0 !== sp.errors.length > 0 || (sp.errors.length && !se.errors.includes(sp.errors[0]!)))
      found.push(`${at} threw: eddy ${JSON.stringify(se.errors)}, preact ${JSON.stringify(sp.errors)}`)
    se.nodes.forEach((v, i) => {
      if (v !== sp.nodes[i]) found.push(`after ${at}: node ${i} is ${v} in eddy, ${sp.nodes[i]} in preact`)
    })
  })
  return found
}

describe('the graph (property, differential: against @preact/signals-core and an oracle)', () => {
  it('should observe what @preact/signals-core observes, on what the two share', () => {
    fc.assert(
      fc.property(programArb('preact'), (prog) => {
        const e = runProgram(eddyLib, prog, { freshErrors: true, checked: false })
        const p = runProgram(preactLib, prog, { freshErrors: true, checked: false })
        expect([...e.violations, ...differences(e, p)]).toEqual([])
        expectNothingSubscribed(e.nodes)
      }),
      { numRuns },
    )
  }, timeout)

  it('should match the oracle and leave no effect stale, with effects writing, NaN, -0 and equals', () => {
    fc.assert(
      fc.property(programArb('oracle'), (prog) => {
        const e = runProgram(eddyLib, prog, { freshErrors: false, checked: true })
        expect(e.violations).toEqual([])
        expectNothingSubscribed(e.nodes)
      }),
      { numRuns },
    )
  }, timeout)
})
