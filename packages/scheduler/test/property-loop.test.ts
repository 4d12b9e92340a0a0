// A model-based property test of `loop()` with async and mixed steps, and of `yieldToMain()` / `microtask()`, on the
// fake host (README: "loop", "yieldToMain", "microtask"). property-queue.test.ts covers loop() with sync steps only.
//
// loop(): one to three loops share the host, each with its own budget and a random list of steps. A step takes fake
// time, may call stop(), and then returns a plain value or false, throws, or returns: a native promise (resolved,
// rejected, after some microtasks, after a fake-time delay, after a yieldToMain() wake-up), or a thenable (that calls
// back synchronously, in a microtask, twice, once and then rejects or throws, rejects, throws, after a delay), an
// object whose `then` is not a function, or one whose `then` getter throws. The driver wakes the host, fires the
// test's own timers (the delays) and calls stop() from outside, one command per task, with every microtask run in
// between. Everything that happens is logged in order (steps' start and end, a step's own microtask, the moment its
// promise or thenable settles, the host's posts and wake-ups, done's settlement) and replayed against a model:
// - steps run one at a time, in order, each after the previous one settled (and after the microtasks it queued);
//   `iterations` is the number started, inside a step and at the end of every task;
// - a loop starts in a microtask; a step returning a plain value is followed at once by the next step or a yield;
//   an awaited one within the microtasks of the task that settles it;
// - a yield is one post, made only once the slice's budget is spent (measured at that moment), then a hop that posts
//   once and runs nothing, then a task that runs that loop's slice and no one else's (or ends a stopped loop);
//   a slice does not go on after a first step that spent the budget, and overruns it by at most the README's bound;
// - false, stop() (from the step, from another loop's step, from outside, while a step's promise is pending or a
//   yield in flight) or an error
//   ends the loop: no step after it, no post; done settles once, in the same task, with the count or the very error
//   (an ignored second callback or a throw after resolving never shows);
// - several loops interleave by task: a loop's yield and slice are tasks of its own (a post is traced to its loop
//   through an AsyncLocalStorage that each step enters);
// - at the end nothing is left posted and no rejection went unhandled.
// yieldToMain() / microtask(): random nested calls (a microtask that yields, a yield's continuation that queues
// microtasks, ...) are checked against an exact model of the microtask queue and the host's FIFO.
import { AsyncLocalStorage } from 'node:async_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Strategy } from '@eddy/scheduler'
import { load } from './fake-host.ts'

const strategies: Strategy[] = ['postTask', 'setImmediate', 'messageChannel', 'postMessage', 'setTimeout']

/** Lets every queued microtask (and promise reaction) run: the real setImmediate, which the fake host leaves alone. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

// One fake host per strategy, shared by the runs that pass (each leaves it empty): loading the package is most of a
// run's time. A run that fails drops its host, so that the runs shrinking it start clean.
const hosts = new Map<Strategy, ReturnType<typeof load>>()
const withHost = async <T>(kind: Strategy, run: (loaded: Awaited<ReturnType<typeof load>>) => Promise<T>): Promise<T> => {
  if (!hosts.has(kind) || (await hosts.get(kind)!).host.pending()) hosts.set(kind, load(kind))
  try {
    return await run(await hosts.get(kind)!)
  } catch (e) {
    hosts.delete(kind)
    throw e
  }
}

/** true with probability `p` (in hundredths). */
const chance = (p: number) => fc.oneof({ arbitrary: fc.constant(true), weight: p }, { arbitrary: fc.constant(false), weight: 100 - p })

// Unhandled rejections anywhere in a run (vitest reports them too, but after the run, not against its input).
const unhandled: unknown[] = []
const onUnhandled = (e: unknown) => { unhandled.push(e) }
beforeAll(() => { process.on('unhandledRejection', onUnhandled) })
afterAll(() => { process.off('unhandledRejection', onUnhandled) })

/** What a step returns. Sync: a value, a throw, an object whose `then` getter throws. The others settle later. */
type Kind =
  | 'sync' | 'throw' | 'getterThrows'
  | 'notFn' | 'resolved' | 'rejected' | 'async' | 'delay' | 'yield'
  | 'thenSync' | 'thenMicro' | 'thenTwice' | 'thenOkReject' | 'thenReject' | 'thenThrow' | 'thenOkThrow' | 'thenDelay'

/** Settled by the step itself (no microtask between it and the next step), or awaited. */
const syncKinds = new Set<Kind>(['sync', 'throw', 'getterThrows'])
/** Always end the loop with the step's error. */
const errKinds = new Set<Kind>(['throw', 'getterThrows', 'rejected', 'thenReject', 'thenThrow'])
/** End it with the step's error if `fail`. */
const failKinds = new Set<Kind>(['async', 'delay', 'yield', 'thenDelay'])

interface StepBeh {
  kind: Kind
  /** Fake time the step takes before it returns. */
  ms: number
  /** Calls its loop's stop() first. */
  stop: boolean
  /** Then calls the next loop's stop() (its own if it is alone). */
  stopOther: boolean
  /** Resolves to (or returns) false, instead of a value that goes on. */
  last: boolean
  fail: boolean
  /** The fake-time delay of 'delay' and 'thenDelay'. */
  delay: number
}

/** Values that go on: anything but false, falsy ones included. */
const goValues: unknown[] = [undefined, true, 0, null, '', 'x', {}, NaN]

const kind: fc.Arbitrary<Kind> = fc.oneof(
  ...([
    ['sync', 60], ['throw', 1], ['getterThrows', 1],
    ['notFn', 3], ['resolved', 12], ['rejected', 1], ['async', 10], ['delay', 6], ['yield', 6],
    ['thenSync', 4], ['thenMicro', 4], ['thenTwice', 4], ['thenOkReject', 3], ['thenReject', 1], ['thenThrow', 1],
    ['thenOkThrow', 3], ['thenDelay', 4],
  ] as const).map(([k, weight]) => ({ arbitrary: fc.constant(k as Kind), weight })),
)
const allKinds = fc.constantFrom<Kind>(
  'sync', 'throw', 'getterThrows', 'notFn', 'resolved', 'rejected', 'async', 'delay', 'yield',
  'thenSync', 'thenMicro', 'thenTwice', 'thenOkReject', 'thenReject', 'thenThrow', 'thenOkThrow', 'thenDelay',
)
const ms = fc.constantFrom(0, 0, 0, 0.001, 0.25, 0.5, 1, 2, 3, 7)
const delay = fc.constantFrom(0, 0.5, 1, 4, 10)
const stepBeh: fc.Arbitrary<StepBeh> = fc.oneof(
  { arbitrary: fc.record({ kind, ms, stop: chance(1), stopOther: chance(1), last: chance(2), fail: chance(2), delay }), weight: 96 },
  // A step that calls stop() and then ends in any way: its error, if any, still rejects done.
  { arbitrary: fc.record({ kind: allKinds, ms, stop: fc.constant(true), stopOther: chance(1), last: fc.boolean(), fail: fc.boolean(), delay }), weight: 4 },
)
/** What every step past the generated ones does: it ends the loop. */
const LAST: StepBeh = { kind: 'sync', ms: 0, stop: false, stopOther: false, last: true, fail: false, delay: 0 }

type Cmd = { wake: true } | { fire: true } | { stop: number }
const loopProgram = fc.record({
  kind: fc.constantFrom(...strategies),
  loops: fc.array(
    fc.record({
      budget: fc.constantFrom(undefined, 0, 0.3, 1, 2.5, 5, 12),
      steps: fc.array(stepBeh, { maxLength: 40, size: 'medium' }),
      stopEarly: chance(5),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  /** Creates the loops in one task (their first slices share a microtask checkpoint), or each in a task of its own. */
  together: fc.boolean(),
  cmds: fc.array(
    fc.oneof(
      { arbitrary: fc.constant<Cmd>({ wake: true }), weight: 8 },
      { arbitrary: fc.constant<Cmd>({ fire: true }), weight: 3 },
      { arbitrary: fc.nat(2).map<Cmd>((n) => ({ stop: n })), weight: 1 },
    ),
    { maxLength: 60 },
  ),
})

type End = { ok: number } | { error: unknown }
type Ev =
  | { t: 'post'; clock: number; ctx: unknown }
  | { t: 'wake' }
  /** The driver's synchronous part of a task ended (a host task, a fired timer, the creation, a stop()). */
  | { t: 'sync-end' }
  /** The driver starts a task of its own: fires a timer, creates loops, calls stop(). */
  | { t: 'task'; what: 'fire' | 'create' | 'stop' }
  /** stop() from outside (`by` undefined) or from a step of loop `by`. */
  | { t: 'stop'; L: number; by?: number }
  | { t: 'start'; L: number; i: number; clock: number; it: number }
  | { t: 'end'; L: number; i: number }
  /** The step's promise or thenable settled (the test resolved, rejected or called back). */
  | { t: 'fin'; L: number; i: number }
  /** The microtask the step queued (with `microtask()`) ran. */
  | { t: 'mark'; L: number; i: number }
  | { t: 'ytm'; L: number; i: number }
  | { t: 'resumed'; L: number; i: number }
  | { t: 'settle'; L: number; end: End }

type HostTask = { ytm: true; L: number; i: number } | { hop: 1 | 2; L: number }

interface LoopModel {
  behs: StepBeh[]
  budget: number
  count: number
  /** stop() was called (by any code); by code other than the loop's own steps. */
  stopped: boolean
  outside: boolean
  phase: 'micro' | 'slice' | 'step' | 'await' | 'decideSync' | 'decide' | 'hop1' | 'hop2' | 'ended'
  sliceStart: number
  sliceSteps: number
  spentAt: number
  end?: End
  settled: number
  /** The current step returned (or threw), settled, its microtask ran, its yieldToMain() task ran. */
  ended: boolean
  fin: boolean
  marked: boolean
  woken: boolean
  /** Yields (one post each, and one more by the hop), and yieldToMain() calls of its steps. */
  yields: number
  ytms: number
}

const beh = (m: LoopModel, i: number) => m.behs[i] ?? LAST
/** What step `i` of a loop settles with: its error, or a value (false for `last`). */
const outcome = (b: StepBeh, err: unknown): { error: unknown } | { value: unknown } =>
  errKinds.has(b.kind) || (failKinds.has(b.kind) && b.fail) ? { error: err } : { value: b.kind === 'notFn' || !b.last ? true : false }

/** The loop whose code runs (its step enters it; its promise reactions and the code after a sync step inherit it).
 * One for the file: Node 20 visits every AsyncLocalStorage ever enabled at each promise it creates. */
const als = new AsyncLocalStorage<number>()

type LoopProgram = typeof loopProgram extends fc.Arbitrary<infer T> ? T : never

const runLoops = ({ kind, ...rest }: LoopProgram) => withHost(kind, (loaded) => runLoopsOn(loaded, rest))

async function runLoopsOn({ host, mod }: Awaited<ReturnType<typeof load>>, { loops, together, cmds }: Omit<LoopProgram, 'kind'>) {
  unhandled.length = 0
  const events: Ev[] = []
  const ev = (e: Ev) => { events.push(e) }
  // The fake host logs every post and wake-up: record them with the clock and the loop whose code made the post (the
  // step enters its loop's context; the loop's promise reactions and the code after a sync step run in it).
  host.log = { push: (s: string) => {
    if (s.startsWith('post:')) ev({ t: 'post', clock: host.clock, ctx: als.getStore() })
    else if (s.startsWith('wake:')) ev({ t: 'wake' })
    return 0
  } } as unknown as string[]
  const timers: { due: number; seq: number; fire: () => void }[] = []
  let timerSeq = 0
  const errors = loops.map((_, L) => Array.from({ length: 64 }, (_, i) => new Error(`loop ${L} step ${i}`)))
  /** Errors that must never show: a second callback, a throw after resolving. */
  const ignored = new Error('ignored')
  const models: LoopModel[] = loops.map((c) => ({
    behs: c.steps, budget: c.budget ?? 5, count: 0, stopped: false, outside: false, phase: 'micro', sliceStart: 0, sliceSteps: 0,
    spentAt: Infinity, settled: 0, ended: false, fin: false, marked: false, woken: false, yields: 0, ytms: 0,
  }))
  const handles: ReturnType<typeof mod.loop>[] = []

  const makeStep = (L: number) => {
    let n = 0
    return (): unknown => {
      const i = n++
      als.enterWith(L)
      const b = beh(models[L]!, i)
      const l = handles[L]!
      ev({ t: 'start', L, i, clock: host.clock, it: l.iterations })
      host.block(b.ms)
      if (b.stop) l.stop()
      const other = (L + 1) % loops.length
      if (b.stopOther && handles[other]) {
        ev({ t: 'stop', L: other, by: L })
        handles[other]!.stop()
      }
      const err = errors[L]![i]
      const val = b.last ? false : goValues[i % goValues.length]
      const fin = () => ev({ t: 'fin', L, i })
      const end = () => ev({ t: 'end', L, i })
      const mark = () => mod.microtask(() => ev({ t: 'mark', L, i }))
      const timer = (settle: () => void) => timers.push({ due: host.clock + b.delay, seq: timerSeq++, fire: () => { fin(); settle() } })
      let r: unknown
      switch (b.kind) {
        case 'sync': end(); return val
        case 'throw': end(); throw err
        case 'getterThrows': end(); return { get then() { throw err } }
        case 'notFn': mark(); fin(); r = { then: 1 }; break
        case 'resolved': mark(); fin(); r = Promise.resolve(val); break
        case 'rejected': mark(); fin(); r = Promise.reject(err); break
        case 'async':
          r = (async () => { mark(); await null; await null; fin(); if (b.fail) throw err; return val })()
          break
        case 'delay':
          mark()
          r = new Promise((ok, ko) => timer(() => (b.fail ? ko(err) : ok(val))))
          break
        case 'yield':
          r = (async () => {
            mark()
            ev({ t: 'ytm', L, i })
            await mod.yieldToMain()
            ev({ t: 'resumed', L, i })
            fin()
            if (b.fail) throw err
            return val
          })()
          break
        case 'thenSync': mark(); r = { then(ok: (v: unknown) => void) { fin(); ok(val) } }; break
        case 'thenMicro': mark(); r = { then(ok: (v: unknown) => void) { queueMicrotask(() => { fin(); ok(val) }) } }; break
        case 'thenTwice': mark(); r = { then(ok: (v: unknown) => void) { fin(); ok(val); ok(!val) } }; break
        case 'thenOkReject': mark(); r = { then(ok: (v: unknown) => void, ko: (e: unknown) => void) { fin(); ok(val); ko(ignored) } }; break
        case 'thenReject': mark(); r = { then(_: unknown, ko: (e: unknown) => void) { fin(); ko(err) } }; break
        case 'thenThrow': mark(); r = { then() { fin(); throw err } }; break
        case 'thenOkThrow': mark(); r = { then(ok: (v: unknown) => void) { fin(); ok(val); throw ignored } }; break
        case 'thenDelay':
          mark()
          r = { then(ok: (v: unknown) => void, ko: (e: unknown) => void) { timer(() => (b.fail ? ko(err) : ok(val))) } }
          break
      }
      end()
      return r
    }
  }

  // The model, fed the events of each task once its microtasks have run.
  let seg = 0
  let fed = 0
  const fifo: HostTask[] = []
  /** What the synchronous part of the current task is: a host task, a fired timer, the creation, a stop(). */
  let cur: { task?: HostTask; what: string } | undefined
  let inMicro = false
  let mustNext: number | undefined
  let ytmPost: { L: number; i: number } | undefined
  let hopPost: number | undefined
  const fail = (msg: string): never => { throw new Error(`${msg} (task ${seg}, event ${fed}: ${JSON.stringify(events[fed])})`) }
  const check = (ok: unknown, msg: string) => { if (!ok) fail(msg) }
  const endLoop = (m: LoopModel, end: End) => { m.end = end; m.phase = 'ended' }
  const decide = (L: number, sync: boolean) => {
    const m = models[L]!
    const i = m.count - 1
    const o = outcome(beh(m, i), errors[L]![i])
    if ('error' in o) endLoop(m, { error: o.error })
    else if (m.stopped || o.value === false) endLoop(m, { ok: m.count })
    else {
      m.phase = sync ? 'decideSync' : 'decide'
      if (sync) mustNext = L
    }
  }
  /** The loop acts after step count-1: that step's own microtask ran before (it was awaited). */
  const marked = (L: number) => {
    const m = models[L]!
    if (m.count && !syncKinds.has(beh(m, m.count - 1).kind)) check(m.marked, `loop ${L}: went on before step ${m.count - 1}'s microtask ran`)
  }
  /** The loop whose code made the event. */
  const owner = (e: Ev) => (e.t === 'post' ? e.ctx : e.t === 'stop' ? e.by : e.t !== 'settle' && 'L' in e ? e.L : undefined)
  const feed = (e: Ev) => {
    if (ytmPost && e.t !== 'post') fail('yieldToMain() posted nothing')
    if (mustNext !== undefined && owner(e) !== mustNext && e.t !== 'sync-end') {
      fail(`loop ${mustNext}: a step that returned a plain value was not followed at once by a step or a yield`)
    }
    // Within a host task's own code, only the loop whose slice it is (or nothing, for a hop or a yieldToMain()).
    if (cur && !inMicro && e.t !== 'sync-end') {
      const t = cur.task
      if (t && 'hop' in t && t.hop === 2) check(owner(e) === t.L, `a slice of loop ${t.L} ran another's code`)
      if (t && 'hop' in t && t.hop === 1) check(e.t === 'post', 'the first hop did more than post the second')
      if (t && 'ytm' in t) fail('a yieldToMain() task ran code of its own')
      if (cur.what === 'fire') check(e.t === 'fin', 'a timer callback ran loop code')
      if (cur.what === 'create' || cur.what === 'stop') check(e.t === 'stop' && e.by === undefined, `${cur.what}: ran loop code synchronously`)
    }
    switch (e.t) {
      case 'wake': {
        check(!cur, 'woke inside a task')
        const task = fifo.shift() ?? fail('woke with nothing posted')
        cur = { task, what: 'wake' }
        inMicro = false
        if ('ytm' in task) {
          const m = models[task.L]!
          check(m.phase === 'await' && m.count - 1 === task.i, `loop ${task.L}: a yieldToMain() wake-up for a step not waiting`)
          m.woken = true
        } else if (task.hop === 1) hopPost = task.L
        else {
          const m = models[task.L]!
          check(m.phase === 'hop2', `loop ${task.L}: second hop in phase ${m.phase}`)
          if (m.stopped) endLoop(m, { ok: m.count })
          else { m.phase = 'slice'; mustNext = task.L }
        }
        break
      }
      case 'task': check(!cur, 'a task inside a task'); cur = { what: e.what }; inMicro = false; break
      case 'sync-end':
        check(mustNext === undefined, `loop ${mustNext}: did not go on at once`)
        check(hopPost === undefined, 'the first hop posted nothing')
        if (cur?.what === 'create') for (const m of models) if (m.phase === 'micro' && m.stopped) endLoop(m, { ok: 0 })
        inMicro = true
        break
      case 'stop': {
        const m = models[e.L]!
        // A loop whose first slice or whose next step after an awaited one is still queued ends there.
        if ((m.phase === 'micro' && inMicro) || m.phase === 'decide') endLoop(m, { ok: m.count })
        else check(m.phase !== 'decideSync' && (m.phase !== 'step' || e.by === e.L), `loop ${e.L}: stopped by another's step in phase ${m.phase}`)
        if (m.phase !== 'ended') m.stopped = true
        if (e.by !== e.L) m.outside = true
        break
      }
      case 'post': {
        if (ytmPost) {
          fifo.push({ ytm: true, ...ytmPost })
          models[ytmPost.L]!.ytms++
          ytmPost = undefined
        } else if (hopPost !== undefined) {
          check(!inMicro, 'the second hop was posted in a microtask')
          fifo.push({ hop: 2, L: hopPost })
          models[hopPost]!.phase = 'hop2'
          hopPost = undefined
        } else {
          const L = e.ctx as number
          const m = models[L] ?? fail(`a post from no loop (${String(e.ctx)})`)
          check(m.phase === 'decideSync' || m.phase === 'decide', `loop ${L}: posted in phase ${m.phase}`)
          marked(L)
          const spent = e.clock - m.sliceStart
          check(spent >= m.budget, `loop ${L}: yielded before the budget was spent (${spent} < ${m.budget})`)
          fifo.push({ hop: 1, L })
          m.phase = 'hop1'
          m.yields++
          mustNext = undefined
        }
        break
      }
      case 'start': {
        const m = models[e.L]!
        check(m.phase === 'micro' || m.phase === 'slice' || m.phase === 'decideSync' || m.phase === 'decide', `loop ${e.L}: step ${e.i} in phase ${m.phase}`)
        check(e.i === m.count, `loop ${e.L}: step ${e.i} started after ${m.count}`)
        check(e.it === e.i + 1, `loop ${e.L}: iterations ${e.it} in step ${e.i}`)
        if (m.phase === 'micro') check(inMicro && (cur?.what === 'create'), `loop ${e.L}: first step not in the creation's microtasks`)
        if (m.phase === 'micro' || m.phase === 'slice') {
          m.sliceStart = e.clock
          m.sliceSteps = 0
          m.spentAt = Infinity
        } else {
          marked(e.L)
          const k = m.sliceSteps
          const spent = e.clock - m.sliceStart
          if (spent >= m.budget && m.spentAt === Infinity) m.spentAt = k
          check(!(k === 1 && spent >= m.budget), `loop ${e.L}: went on after a first step that spent the budget`)
          check(k + 1 <= Math.min(2 * m.spentAt + 16, m.spentAt + 64), `loop ${e.L}: overran (budget spent after ${m.spentAt} steps, step ${k + 1})`)
        }
        m.count++
        m.sliceSteps++
        if (beh(m, e.i).stop) m.stopped = true
        m.phase = 'step'
        m.ended = m.fin = m.marked = m.woken = false
        mustNext = undefined
        break
      }
      case 'end': {
        const m = models[e.L]!
        check(m.phase === 'step' && e.i === m.count - 1, `loop ${e.L}: step ${e.i} ended in phase ${m.phase}`)
        m.ended = true
        if (syncKinds.has(beh(m, e.i).kind)) decide(e.L, true)
        else if (m.fin) decide(e.L, false)
        else m.phase = 'await'
        break
      }
      case 'fin': {
        const m = models[e.L]!
        check(e.i === m.count - 1 && !m.fin, `loop ${e.L}: step ${e.i} settled twice or late`)
        m.fin = true
        if (m.phase === 'await') decide(e.L, false)
        else check(m.phase === 'step', `loop ${e.L}: step ${e.i} settled in phase ${m.phase}`)
        break
      }
      case 'mark': {
        const m = models[e.L]!
        check(e.i === m.count - 1 && m.ended, `loop ${e.L}: step ${e.i}'s microtask ran inside it or after the next step`)
        m.marked = true
        break
      }
      case 'ytm': ytmPost = { L: e.L, i: e.i }; break
      case 'resumed': {
        const m = models[e.L]!
        check(m.woken && inMicro && e.i === m.count - 1, `loop ${e.L}: step ${e.i} resumed from yieldToMain() before its task ran`)
        break
      }
      case 'settle': {
        const m = models[e.L]!
        check(inMicro, `loop ${e.L}: done settled synchronously`)
        check(m.end, `loop ${e.L}: done settled before the loop ended`)
        marked(e.L)
        m.settled++
        expect(e.end, `loop ${e.L}: done`).toEqual(m.end)
        if ('error' in e.end) expect((e.end as { error: unknown }).error).toBe((m.end as { error: unknown }).error)
        break
      }
    }
  }
  /** Runs the microtasks, replays the task's events and checks its end. */
  const endTask = async (what: string) => {
    events.push({ t: 'sync-end' })
    await flush()
    for (; fed < events.length; fed++) feed(events[fed]!)
    for (const [L, m] of models.slice(0, handles.length).entries()) {
      check(!['micro', 'slice', 'step', 'decideSync', 'decide'].includes(m.phase), `loop ${L}: still in phase ${m.phase} after ${what}`)
      check(m.settled === (m.end ? 1 : 0), `loop ${L}: done settled ${m.settled} times, ended: ${JSON.stringify(m.end)} after ${what}`)
      check(handles[L]!.iterations === m.count, `loop ${L}: iterations ${handles[L]!.iterations}, ${m.count} steps started`)
    }
    check(host.pending() === fifo.length, `${fifo.length} tasks posted, the host holds ${host.pending()}`)
    cur = undefined
    seg++
  }

  const create = (L: number) => {
    const c = loops[L]
    handles[L] = mod.loop(makeStep(L), c.budget === undefined ? {} : { budgetMs: c.budget })
    handles[L]!.done.then((ok) => ev({ t: 'settle', L, end: { ok } }), (error) => ev({ t: 'settle', L, end: { error } }))
    check(handles[L]!.iterations === 0, 'stepped inside loop()')
    if (c.stopEarly) { ev({ t: 'stop', L }); handles[L]!.stop() }
  }
  if (together) {
    ev({ t: 'task', what: 'create' })
    for (let L = 0; L < loops.length; L++) create(L)
    await endTask('creation')
  } else {
    for (let L = 0; L < loops.length; L++) {
      ev({ t: 'task', what: 'create' })
      create(L)
      await endTask(`creation of ${L}`)
    }
  }
  const fire = () => {
    let b = 0
    for (let j = 1; j < timers.length; j++) if (timers[j]!.due < timers[b]!.due || (timers[j]!.due === timers[b]!.due && timers[j]!.seq < timers[b]!.seq)) b = j
    const [t] = timers.splice(b, 1)
    host.clock = Math.max(host.clock, t!.due)
    ev({ t: 'task', what: 'fire' })
    t!.fire()
  }
  for (const c of cmds) {
    als.enterWith(-1)
    if ('wake' in c) {
      if (!host.pending()) continue
      host.wake()
      await endTask('a wake-up')
    } else if ('fire' in c) {
      if (!timers.length) continue
      fire()
      await endTask('a timer')
    } else {
      const L = c.stop % loops.length
      ev({ t: 'task', what: 'stop' })
      ev({ t: 'stop', L })
      handles[L]!.stop()
      await endTask('stop()')
    }
  }
  // Run everything out: every loop ends (the steps past the generated ones return false).
  for (let n = 0; n < 10_000 && (host.pending() || timers.length); n++) {
    als.enterWith(-1)
    if (host.pending()) host.wake()
    else fire()
    await endTask('the run-out')
  }
  await flush()
  await flush()
  expect(host.pending()).toBe(0)
  expect(timers).toHaveLength(0)
  expect(events.filter((e) => e.t === 'post')).toHaveLength(models.reduce((n, m) => n + 2 * m.yields + m.ytms, 0))
  expect(unhandled).toEqual([])
  for (const [L, m] of models.entries()) {
    expect(m.phase, `loop ${L}`).toBe('ended')
    expect(m.settled).toBe(1)
    // The count is where the steps say the loop ends; earlier only after a stop() from outside.
    let n = 0
    for (;;) {
      const b = beh(m, n++)
      const o = outcome(b, null)
      if ('error' in o || o.value === false || b.stop || (b.stopOther && loops.length === 1)) break
    }
    if (m.outside) expect(m.count, `loop ${L}: steps run`).toBeLessThanOrEqual(n)
    else expect(m.count, `loop ${L}: steps run`).toBe(n)
  }
}

describe('loop() with async and mixed steps (model-based property)', () => {
  it('should await each step, yield only when the budget is spent, interleave loops by task and settle done once', async () => {
    await fc.assert(fc.asyncProperty(loopProgram, runLoops), { numRuns: 2000 })
  })
})

/** A call to make: yieldToMain(), whose continuation makes the nested calls; or microtask(fn), whose fn makes them. */
type Op = { ytm: Op[] } | { micro: Op[] }
const { op } = fc.letrec<{ op: Op }>((tie) => ({
  op: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'op', withCrossShrink: true },
    fc.constantFrom<Op>({ ytm: [] }, { micro: [] }),
    fc.record({ ytm: fc.array(tie('op'), { maxLength: 2 }) }),
    fc.record({ micro: fc.array(tie('op'), { maxLength: 2 }) }),
  ),
}))
const yieldProgram = fc.record({
  kind: fc.constantFrom(...strategies),
  /** A task of the test's own that makes calls, or a host wake-up. */
  cmds: fc.array(
    fc.oneof({ arbitrary: fc.array(op, { minLength: 1, maxLength: 3 }).map((call) => ({ call })), weight: 1 }, { arbitrary: fc.constant({ wake: true as const }), weight: 2 }),
    { maxLength: 20 },
  ),
})

describe('yieldToMain() and microtask() (model-based property)', () => {
  it('should resume each yield after a host task of its own, FIFO, and run microtasks before any task', async () => {
    await fc.assert(
      fc.asyncProperty(yieldProgram, ({ kind, cmds }) => withHost(kind, async ({ host, mod }) => {
        unhandled.length = 0
        // What happened, and the task each event happened in.
        const log: string[] = []
        host.log = { push: (s: string) => (s.startsWith('post:') ? log.push('post') : s.startsWith('wake:') ? log.push('wake') : 0) } as unknown as string[]
        let ys = 0
        let ms = 0
        const exec = (o: Op) => {
          if ('ytm' in o) {
            const k = ys++
            log.push(`yield ${k}`)
            void mod.yieldToMain().then((v) => {
              log.push(`resume ${k}${v === undefined ? '' : ` with ${String(v)}`}`)
              o.ytm.forEach(exec)
            })
          } else {
            const k = ms++
            log.push(`queue ${k}`)
            mod.microtask(() => {
              log.push(`run ${k}`)
              o.micro.forEach(exec)
            })
          }
        }
        // The model: the host's FIFO of yields, and the microtask queue (a yield's continuation joins it when its task
        // calls resolve).
        const expected: string[] = []
        let ey = 0
        let em = 0
        const posted: { k: number; o: Op[] }[] = []
        const queue: ({ run: number; o: Op[] } | { resume: number; o: Op[] })[] = []
        const model = (o: Op) => {
          if ('ytm' in o) {
            const k = ey++
            expected.push(`yield ${k}`, 'post')
            posted.push({ k, o: o.ytm })
          } else {
            const k = em++
            expected.push(`queue ${k}`)
            queue.push({ run: k, o: o.micro })
          }
        }
        const microtasks = () => {
          for (let job; (job = queue.shift()); ) {
            expected.push('run' in job ? `run ${job.run}` : `resume ${job.resume}`)
            job.o.forEach(model)
          }
        }
        for (const c of cmds) {
          if ('call' in c) {
            c.call.forEach(exec)
            c.call.forEach(model)
          } else {
            if (!host.pending()) continue
            host.wake()
            const t = posted.shift()!
            expected.push('wake')
            queue.push({ resume: t.k, o: t.o })
          }
          log.push('task end')
          expected.push('task end')
          microtasks()
          await flush()
          expect(log).toEqual(expected)
          expect(host.pending()).toBe(posted.length)
        }
        while (host.pending()) {
          host.wake()
          const t = posted.shift()!
          expected.push('wake')
          queue.push({ resume: t.k, o: t.o })
          await flush()
          microtasks()
          expect(log).toEqual(expected)
        }
        await flush()
        expect(posted).toEqual([])
        expect(unhandled).toEqual([])
      })),
      { numRuns: 1000 },
    )
  })
})
