// A property test of the drain's cycle rule (see drain in src/errors.ts): finite programs of effects that write
// signals (random DAGs: each effect reads earlier signals and writes a later one) must never be cut off with
// "Cycle detected", however many rounds they take, and must end where a plain topological evaluation ends; real
// loops (rings of effects) must be cut off, within a bound on their turns that follows from the rule.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Signal, effect, untracked, type Dispose } from '@eddy/signal'

// LIMITS. The rule is a count, not a record of which run caused which, and these finite shapes are still cut
// off once they are ~200-300 effects long (README: the "Cycle detected" bullet); the generator below leaves them
// out, and the program builder keeps them, for a rule that will handle them:
// - a reader of a chain that writes a total read by further effects (the total's readers run one round late);
// - a chain whose links each create the next one;
// - a ladder (link i also reads link i - skip), whose links run once per path length.
// A rule that also passed these (+81 B) let a loop watched by 3,000 writing readers run 5.75 s before its cut.

// ---------------------------------------------------------------------------------------------------------------
// Finite programs

/** An effect of a finite program: reads `reads`, writes max(reads) + add to `write` (-1: writes nothing). */
interface Eff {
  reads: number[]
  write: number
  add: number
  /** Created during the drain, by the effect whose `spawns` lists it (not at setup). */
  lazy: boolean
  /**
   * Effects it creates (before it writes) on its first run after setup that sees a changed input; with `late`, not
   * on its first run (a link created inline then runs again, queued, one round later).
   */
  spawns: number[]
  late: boolean
  /**
   * At each run after setup: 1, 2 create and dispose a throwaway effect (or subscription); 3 creates an effect that
   * stays, never to run again.
   */
  kids: Kids
}

type Kids = 0 | 1 | 2 | 3
const kidsArb = fc.integer({ min: 0, max: 3 }) as fc.Arbitrary<Kids>

interface Program {
  signals: number
  effs: Eff[]
  /** Setup order of the effects that are not lazy. */
  order: number[]
}

/** Big enough that every descendant of the source changes (other values stay below 10,000). */
const V = 1_000_000

type Block =
  // lazy: 0, links made at setup; 1, each link creates the next one when it runs queued (one a round); 2, each
  // link creates the next one when it sees a new value, also in its first run (nested, then updated in waves).
  // skip > 1: a ladder, link i also reads link i - skip (it runs once per distinct path length from the source).
  | { kind: 'chain'; len: number; lazy: 0 | 1 | 2; skip: number; from: number; readers: Reader[]; kids: Kids }
  | { kind: 'fan'; width: number; from: number; second: boolean }
  | { kind: 'dag'; nodes: { reads: number[]; writes: boolean; add: number }[] }

interface Reader {
  before: boolean
  stride: number
  offset: number
  /** The reader writes a total, read by a tail of this many effects, each reading the previous one. */
  tail: number
  kids: Kids
}

const readerArb: fc.Arbitrary<Reader> = fc.record({
  before: fc.boolean(),
  stride: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 4 })),
  offset: fc.nat(3),
  // Not generated (see LIMITS): tails after a total.
  tail: fc.constant(0),
  kids: kidsArb,
})

const blockArb = (big: boolean): fc.Arbitrary<Block> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('chain' as const),
        len: big ? fc.integer({ min: 150, max: 2500 }) : fc.integer({ min: 100, max: 450 }),
        // Not generated (see LIMITS): links that create the next link, and ladders.
        lazy: fc.constant(0) as fc.Arbitrary<0 | 1 | 2>,
        skip: fc.constant(1),
        from: fc.nat(),
        readers: fc.array(readerArb, { maxLength: big ? 2 : 3 }),
        // Links that create effects as they run (a list rendered by a link, say).
        kids: fc.oneof(fc.constant(0 as Kids), kidsArb),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('fan' as const),
        width: fc.integer({ min: 1, max: big ? 1500 : 300 }),
        from: fc.nat(),
        second: fc.boolean(),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('dag' as const),
        nodes: fc.array(
          fc.record({
            reads: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
            writes: fc.boolean(),
            add: fc.nat(1),
          }),
          { minLength: 1, maxLength: big ? 400 : 150 },
        ),
      }),
    },
  )

/** Lays the blocks out as one program: signal 0 is the source; every write goes to a new, later signal. */
function build(blocks: Block[]): Program {
  const effs: Eff[] = []
  const order: number[] = []
  let signals = 1
  // Signals that descend from the source (a chain or a fan hangs from one of them, so that it runs).
  const hot = [0]
  const all = [0]
  // `setup`: appended to the setup order now (chains order their effects themselves).
  const add = (e: Partial<Eff> & { reads: number[] }, setup = true): number => {
    effs.push({ write: -1, add: 1, lazy: false, spawns: [], late: false, kids: 0, ...e })
    if (setup) order.push(effs.length - 1)
    return effs.length - 1
  }
  const fresh = (): number => signals++
  for (const b of blocks) {
    if (b.kind == 'chain') {
      const c = [hot[b.from % hot.length]!]
      for (let i = 0; i < b.len; i++) c.push(fresh())
      const links: number[] = []
      const before: number[] = []
      const after: number[] = []
      for (const r of b.readers) {
        const reads = c.filter((_, i) => i % r.stride == r.offset % r.stride)
        if (!reads.length) reads.push(c[0]!)
        const t = r.tail ? fresh() : -1
        const group = r.before ? before : after
        group.push(add({ reads, write: t, kids: r.kids }, false))
        for (let j = 0, prev = t; j < r.tail; j++) {
          const next = j + 1 < r.tail ? fresh() : -1
          group.push(add({ reads: [prev], write: next }, false))
          prev = next
        }
        if (t >= 0) hot.push(t)
      }
      for (let i = 0; i < b.len; i++) {
        const reads = b.skip > 1 && i + 1 >= b.skip ? [c[i]!, c[i + 1 - b.skip]!] : [c[i]!]
        links.push(add({ reads, write: c[i + 1]!, add: 1 + (i % 2), kids: b.kids }, false))
      }
      // A lazy chain: each link creates the next one, before it writes. Nested creation recurses: kept short.
      const lazy = b.lazy == 2 ? Math.min(b.len, 400) : b.lazy ? b.len : 0
      for (let i = 1; i < lazy; i++) {
        effs[links[i - 1]!]!.spawns.push(links[i]!)
        effs[links[i]!]!.lazy = true
        effs[links[i]!]!.late = b.lazy == 1
      }
      for (const e of [...before, ...links.filter((l) => !effs[l]!.lazy), ...after]) order.push(e)
      hot.push(...c.slice(1))
      all.push(...c.slice(1))
    } else if (b.kind == 'fan') {
      const from = hot[b.from % hot.length]!
      const outs: number[] = []
      for (let i = 0; i < b.width; i++) {
        const w = fresh()
        add({ reads: [from], write: w, add: 1 + (i % 2) })
        outs.push(w)
      }
      if (b.second) for (let i = 0; i + 1 < outs.length; i += 2) add({ reads: [outs[i]!, outs[i + 1]!, from], write: -1 })
      hot.push(...outs)
      all.push(...outs)
    } else {
      for (const n of b.nodes) {
        const reads = [...new Set(n.reads.map((r) => all[r % all.length]!))]
        const w = n.writes ? fresh() : -1
        add({ reads, write: w, add: 1 + n.add })
        if (w >= 0) {
          all.push(w)
          if (reads.some((r) => hot.includes(r))) hot.push(w)
        }
      }
    }
  }
  return { signals, effs, order }
}

/** Every signal's value once the source is `v`, evaluated in index order (each write goes to a later signal). */
function oracle(p: Program, v: number): number[] {
  const writer = new Map<number, Eff>()
  for (const e of p.effs) if (e.write >= 0) writer.set(e.write, e)
  const val = new Array<number>(p.signals).fill(0)
  val[0] = v
  for (let s = 1; s < p.signals; s++) {
    const e = writer.get(s)
    if (e) val[s] = Math.max(...e.reads.map((r) => val[r]!)) + e.add
  }
  return val
}

interface Outcome {
  error?: unknown
  values: number[]
  created: number
}

function runProgram(p: Program): Outcome {
  const sig = Array.from({ length: p.signals }, () => new Signal(0))
  const stops: Dispose[] = []
  const made = new Array<boolean>(p.effs.length).fill(false)
  const ran = new Array<number>(p.effs.length).fill(0)
  let phase = false
  let init: number[] = []
  const body = (i: number) => (): void => {
    const e = p.effs[i]!
    const vals = e.reads.map((r) => sig[r]!.value)
    if (phase) {
      if (e.spawns.length && ++ran[i]! > (e.late ? 1 : 0) && vals.some((v, k) => v !== init[e.reads[k]!]))
        for (const j of e.spawns)
          if (!made[j]) {
            made[j] = true
            stops.push(effect(body(j)))
          }
      if (e.kids == 1) effect(() => {})()
      if (e.kids == 2) sig[e.reads[0]!]!.subscribe(() => {})()
      if (e.kids == 3) stops.push(effect(() => {}))
    }
    if (e.write >= 0) sig[e.write]!.value = Math.max(...vals) + e.add
  }
  for (const i of p.order) {
    made[i] = true
    stops.push(effect(body(i)))
  }
  init = untracked(() => sig.map((s) => s.value))
  phase = true
  let error: unknown
  try {
    sig[0]!.value = V
  } catch (e) {
    error = e
  }
  const values = untracked(() => sig.map((s) => s.value))
  for (const stop of stops) stop()
  return { error, values, created: made.filter(Boolean).length }
}

function checkFinite(blocks: Block[]): void {
  const p = build(blocks)
  const out = runProgram(p)
  if (out.error) throw new Error(`finite program of ${p.effs.length} effects cut: ${String(out.error)}`)
  expect(out.created).toBe(p.effs.length)
  expect(out.values).toEqual(oracle(p, V))
}

// ---------------------------------------------------------------------------------------------------------------
// Loops

interface Loop {
  /** Effects in the ring: effect j reads ring signal j and writes signal j + 1 (mod k), the value plus one. */
  k: number
  /**
   * Pre-existing effects that read ring signals; writes 1: also writes a signal that one leaf effect reads; 2: a
   * signal of its own, that a leaf of its own reads (it queues that leaf at each turn).
   */
  readers: { of: number[]; writes: 0 | 1 | 2 }[]
  /** What the ring's first effect creates at each turn. */
  create: 'none' | 'signal' | 'oneShot' | 'everyTurn' | 'twoLevel' | 'subscribe'
  /** Pre-existing effects, each reading its own signal, that the first effect writes round-robin (one per turn). */
  pool: number
  /** Each pool effect creates an effect at each of its runs, which runs once more (queued). */
  poolCreates: boolean
}

const loopArb = (big: boolean): fc.Arbitrary<Loop> =>
  fc.record({
    k: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: big ? 150 : 20 })),
    readers: fc.array(fc.record({ of: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), writes: fc.constantFrom(0, 1, 2) as fc.Arbitrary<0 | 1 | 2> }), {
      maxLength: big ? 300 : 20,
    }),
    create: fc.constantFrom('none', 'signal', 'oneShot', 'everyTurn', 'twoLevel', 'subscribe'),
    pool: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: big ? 2000 : 200 })),
    poolCreates: fc.boolean(),
  })

interface LoopOutcome {
  error?: unknown
  turns: number
  /** Effects that existed before the loop started (the rule's "items that ran at most 100 times" can be these). */
  existing: number
  /** Effects created while the loop turned. */
  created: number
}

function runLoop(l: Loop): LoopOutcome {
  const go = new Signal(0)
  const ring = Array.from({ length: l.k }, () => new Signal(0))
  const pool = Array.from({ length: l.pool }, () => new Signal(0))
  const stops: Dispose[] = []
  let turns = 0
  let created = 0
  const make = (fn: () => void): void => void (created++, stops.push(effect(fn)))
  for (let j = 0; j < l.k; j++)
    stops.push(
      effect(() => {
        const v = ring[j]!.value
        if (!go.value) return
        if (j == 0) {
          turns++
          if (l.create == 'signal') new Signal(v).value = v + 1
          else if (l.create == 'oneShot') {
            const t = new Signal(0)
            make(() => void t.value)
            t.value = 1
          } else if (l.create == 'everyTurn') make(() => void ring[0]!.value)
          else if (l.create == 'twoLevel') {
            // The effect it creates creates, on its next run, one more that runs once: a chain's links make the
            // next link, so these must not pass for one.
            const f = new Signal(0)
            const g = new Signal(0)
            let done = false
            make(() => {
              if (f.value && !done) {
                done = true
                make(() => void g.value)
                g.value = 1
              }
            })
            f.value = 1
          } else if (l.create == 'subscribe') stops.push(ring[0]!.subscribe(() => {}))
          if (l.pool) pool[turns % l.pool]!.value = turns
        }
        ring[(j + 1) % l.k]!.value = v + 1
      }),
    )
  const leaves = new Signal(0)
  for (const r of l.readers) {
    const out = r.writes == 2 ? new Signal(0) : leaves
    stops.push(
      effect(() => {
        let sum = 0
        for (const i of r.of) sum += ring[i % l.k]!.value
        if (r.writes) out.value = sum
      }),
    )
    if (r.writes == 2) stops.push(effect(() => void out.value))
  }
  stops.push(effect(() => void leaves.value))
  for (const p of pool)
    stops.push(
      effect(() => {
        if (p.value && l.poolCreates) {
          const t = new Signal(0)
          make(() => void t.value)
          t.value = 1
        }
      }),
    )
  const existing = stops.length
  created = 0
  let error: unknown
  try {
    go.value = 1
  } catch (e) {
    error = e
  }
  for (const stop of stops) stop()
  return { error, turns, existing, created }
}

/**
 * The most turns the rule allows: counting begins after 100 rounds (at most 101 turns, fewer for a ring); then
 * the ring's first effect goes on past 100 counted runs only while it ran no more often than the counted items
 * that ran at most 100 times, less the effects created since counting began, plus one. Those are at most every
 * pre-existing effect and the effects created before counting began (by the ring's first effect, and by the pool
 * effects that create one, one a turn).
 */
function bound(l: Loop, o: LoopOutcome): number {
  const perTurn = l.create == 'twoLevel' ? 2 : l.create == 'none' || l.create == 'signal' ? 0 : 1
  const before = Math.ceil(101 / l.k) + 1
  const links = o.existing + (perTurn + (l.poolCreates && l.pool ? 1 : 0)) * before
  return before + Math.max(101, links + 2) + 1
}

// ---------------------------------------------------------------------------------------------------------------

describe('cycle rule (property)', () => {
  it('never cuts off a finite program of effects, and ends it where a topological evaluation does', () => {
    fc.assert(
      fc.property(fc.array(blockArb(false), { minLength: 1, maxLength: 4 }), checkFinite),
      { numRuns: 60 },
    )
    fc.assert(
      fc.property(fc.array(blockArb(true), { minLength: 1, maxLength: 3 }), checkFinite),
      { numRuns: 12 },
    )
  })

  it('cuts off every loop, within the bound of the rule', () => {
    const check = (l: Loop): void => {
      const o = runLoop(l)
      expect(String(o.error)).toMatch(/Cycle detected/)
      // A ring of k effects takes k rounds a turn: with a pool of P (P + 103 turns) it may reach the 100,000-round
      // stop first, which only cuts it sooner. Measured: the closest a loop came was 2 turns under its bound.
      expect(o.turns).toBeLessThanOrEqual(bound(l, o))
    }
    fc.assert(fc.property(loopArb(false), check), { numRuns: 150 })
    fc.assert(fc.property(loopArb(true), check), { numRuns: 30 })
  })
})
