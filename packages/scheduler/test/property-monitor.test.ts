// A property test of monitor() on the fake host (test/fake-host.ts), on every strategy: random timelines of idle
// stretches, synchronous blocks (1-400 ms, at offsets not aligned to the 50 ms sampling period, on their own or
// inside a macrotask), long-task entries delivered at once, later or not at all (and stale ones from before
// monitor()), backlogs on the shared macrotask() queue, reads of turnsPerSecond, and stop() (between steps, just
// after a sample, or from a listener), with random maxLagMs and maxUtilization, a host that does or does not report
// long tasks, and one with or without its own event-loop utilization (a counter, a stub reading 0, one that throws,
// one that runs ahead of the clock). Math.random is seeded per case, so a counterexample replays.
// After every sample it checks the monitor against a model built from the fake host's log (when each timer was
// posted, for how long, and when it fired), i.e. against what the host did, not against monitor.ts:
// - a lag sample is how late its timer fired, or a reported long task's true length; lag.max is the worst one of
//   the last 5 s and never more than the longest block or long task of that time, p50 <= p99 <= max are
//   percentiles of them, none negative; every block (or run of blocks with no sample between) of >= 200 ms reads
//   lag.max >= 150 for the 5 s after its sample, and every reported long task its true length;
// - utilization is in [0, 1]: the README's busy share (the host's active ms, at most each span, else the spans of
//   samples > 2 ms late) over max(window, 5 s); 0 with no block in the last 5 s;
// - the decision follows the README (lag.max high above its limit until it is at or below half of it, utilization
//   until it is at or below its limit less 0.1, or half of it below 0.2; under pressure while either is high); the events
//   equal the decisions, so they alternate starting with pressure; underPressure matches the last one; listeners
//   are not held up by a macrotask() backlog;
// - the next sample is 50 ms on (20 wake-ups a second), or for a second after one > 2 ms late 4-50 ms at random;
//   samples never further apart than 50 ms plus the time blocked; nothing else wakes up while idle but event
//   deliveries; turnsPerSecond is 0 before its first probe and measured within ~50 ms of the first read;
// - every sampling timer is unref'd and a messageChannel port is not left ref'd (a Node process is never kept
//   alive); after stop() no timer, no sample, no event, no listener, no change of the fields, nothing left pending
//   (only the tail of a 1 ms turn-rate probe in flight may still run, as hostile.test.ts allows).
// RUNS=n runs n cases; STATS=1 prints how often the interesting cases came up.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import type { Strategy } from '@eddy/scheduler'
import { load, prng } from './fake-host.ts'

type Op =
  | { idle: number }
  | { block: number; inTask: boolean; entry: 'none' | 'now' | 'later' | 'both' }
  | { stale: number; duration: number }
  | { read: true }
  | { stop: true; afterSample: boolean }
  | { hold: number; gap: number }
  | { backlog: number; each: number }

interface Sample { t: number; lag: number; span: number; busy: number }

const strategies: Strategy[] = ['postTask', 'setImmediate', 'messageChannel', 'postMessage', 'setTimeout']

const idleArb = fc.oneof(
  fc.double({ min: 0, max: 80, noNaN: true }),
  fc.double({ min: 0, max: 3000, noNaN: true }),
  fc.double({ min: 4900, max: 5100, noNaN: true }),
)
// A block's length in ms, or (below 1) a share of maxLagMs (to land between half the limit and the limit).
const blockArb = fc.oneof(
  fc.double({ min: 0.3, max: 0.99, noNaN: true }),
  fc.double({ min: 1, max: 400, noNaN: true }),
  fc.double({ min: 199, max: 260, noNaN: true }),
  fc.constantFrom(200, 150, 100, 50, 2, 3),
)
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: idleArb.map((idle) => ({ idle })) },
  {
    weight: 10,
    arbitrary: fc.record({ block: blockArb, inTask: fc.boolean(), entry: fc.constantFrom('none' as const, 'now' as const, 'later' as const, 'both' as const) }),
  },
  { weight: 1, arbitrary: fc.record({ stale: fc.double({ min: 0, max: 500, noNaN: true }), duration: fc.double({ min: 50, max: 400, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.constant({ read: true as const }) },
  // A backlog on the shared macrotask() queue: `backlog` callbacks of `each` ms, drained in 5 ms slices.
  { weight: 1, arbitrary: fc.record({ backlog: fc.integer({ min: 100, max: 300 }), each: fc.double({ min: 0.5, max: 10, noNaN: true }) }) },
  // Hysteresis: a block over the limit, `gap` ms later one between half the limit and the limit, then idle until
  // the first has left the window but not the second (pressure must hold).
  { weight: 2, arbitrary: fc.record({ hold: fc.double({ min: 0.51, max: 1, noNaN: true }), gap: fc.double({ min: 60, max: 4500, noNaN: true }) }) },
  // stop() between steps, or just after a sample (which may have decided an event not yet delivered).
  { weight: 1, arbitrary: fc.record({ stop: fc.constant(true as const), afterSample: fc.boolean() }) },
)

const caseArb = fc.record({
  kind: fc.constantFrom(...strategies),
  entryTypes: fc.constantFrom<string[][]>([], ['longtask'], ['long-animation-frame', 'longtask']),
  // The host's own event-loop utilization: none, one that always reads 0 (a stub), one that throws, or a counter
  // that is active for every blocked ms and a share `frac` of the idle ones, or one that runs 1.5 times as fast
  // as the clock (clock skew: more active ms than passed).
  elu: fc.constantFrom('none' as const, 'zero' as const, 'throws' as const, 'counter' as const, 'fast' as const),
  frac: fc.double({ min: 0, max: 1, noNaN: true }),
  maxLagMs: fc.option(fc.oneof(fc.double({ min: 0, max: 400, noNaN: true }), fc.constantFrom(0, 50, 100, 150, Infinity)), { nil: undefined }),
  maxUtilization: fc.option(fc.oneof(fc.double({ min: 0, max: 1.3, noNaN: true }), fc.constantFrom(0, 0.5, 0.9, 1, 5)), { nil: undefined }),
  // A listener that calls stop() from the event with this index.
  stopAtEvent: fc.option(fc.nat(3), { nil: undefined }),
  // No options at all (the defaults), when neither limit is given.
  bare: fc.boolean(),
  // Seeds Math.random (the monitor's random sampling delays).
  seed: fc.integer(),
  ops: fc.array(opArb, { minLength: 1, maxLength: 30 }),
})

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never

const stats: Record<string, number> = {}
const count = (k: string) => { stats[k] = (stats[k] ?? 0) + 1 }

async function run(c: Case): Promise<void> {
  const fail = (msg: string): never => { throw new Error(msg) }
  vi.restoreAllMocks()
  vi.spyOn(Math, 'random').mockImplementation(prng(c.seed))
  // Every sampling timer must be unref'd: the fake's handles are wrapped (through vi.stubGlobal, which load() uses
  // to install them) to record unref() calls.
  const handles: { ms: number; unref: boolean }[] = []
  const stub = vi.stubGlobal
  vi.stubGlobal = ((name: string, value: any) => {
    if (name !== 'setTimeout') return stub.call(vi, name, value)
    return stub.call(vi, name, (fn: () => void, ms?: number) => {
      const h = value(fn, ms)
      if (ms) {
        const rec = { ms, unref: false }
        handles.push(rec)
        const unref = h.unref
        h.unref = () => { rec.unref = true; unref() }
      }
      return h
    })
  }) as typeof vi.stubGlobal
  let blocked = 0
  let clock0 = 0
  let activeCalls = 0
  const active = () => {
    activeCalls++
    if (c.elu === 'throws') throw new Error('not implemented')
    return { active: c.elu === 'zero' ? 0 : c.elu === 'fast' ? 1.5 * (host.clock - clock0) : c.frac * (host.clock - clock0 - blocked) + blocked }
  }
  let loaded
  try {
    loaded = await load(c.kind, { entryTypes: c.entryTypes, eventLoopUtilization: c.elu === 'none' ? undefined : active })
  } finally {
    vi.stubGlobal = stub
  }
  const { host, mod } = loaded
  clock0 = host.clock
  const maxLag = c.maxLagMs ?? 100
  const maxUtil = c.maxUtilization ?? 0.9
  // The model, from the host's side.
  const modelActive = (): number | undefined => {
    if (c.elu === 'none' || c.elu === 'throws') return undefined
    // A reading of no time at all (the fake reports no idle time) is taken as none: a stub's, sampled instead.
    return (c.elu === 'zero' ? 0 : c.elu === 'fast' ? 1.5 * (host.clock - clock0) : c.frac * (host.clock - clock0 - blocked) + blocked) || undefined
  }
  let samples: Sample[] = []
  let lastTick = NaN
  let lastActive: number | undefined
  let due = NaN
  let wait = NaN
  // The last sample more than 2 ms late (README: beyond timer noise, the loop was busy).
  let lastLate = NaN
  let under = false
  let lagHigh = false
  let utilHigh = false
  const decisions: string[] = []
  const events: string[] = []
  const ticks: number[] = []
  // Blocks, a stretch of them (with idle time in between) until the next sample counting as one: its blocked ms,
  // when it started and ended, and the first sample after it.
  const stretches: { start: number; end: number; len: number; seenAt?: number }[] = []
  let open: (typeof stretches)[number] | undefined
  const entries: { t: number; duration: number }[] = []
  let longTasks = 0
  let stopped = false
  let stopAt = NaN
  let frozen: unknown
  let tickPending: { t: number; lag: number; a: number | undefined } | undefined
  let wakesInOp: string[] = []
  const decisionsAt: number[] = []
  let probed = false
  let read = false
  // While the test runs a macrotask of its own (a block inside a task).
  let own = false

  const log: string[] = []
  log.push = (...items: string[]) => {
    for (const e of items) {
      if (e.startsWith('timer:')) {
        if (stopped) fail(`a timer was posted after stop(): ${e}`)
        wait = Number(e.slice(6))
        due = host.clock + wait
      } else if (e === 'wake:timer') {
        if (stopped) fail('a sampling timer fired after stop()')
        tickPending = { t: host.clock, lag: Math.max(host.clock - due, 0), a: modelActive() }
      } else if ((e.startsWith('post:') || e === 'ref') && stopped && !own && host.clock > stopAt + 1.1) {
        // Only the tail of a 1 ms turn-rate probe in flight may still post after stop().
        fail(`posted after stop(): ${e} at +${host.clock - stopAt} ms`)
      }
      if (e.startsWith('wake:')) wakesInOp.push(e)
    }
    return Array.prototype.push.apply(log, items)
  }
  host.log = log

  const snapshot = (m: any) => JSON.stringify({ lag: m.lag, utilization: m.utilization, longTasks: m.longTasks, underPressure: m.underPressure })

  const modelTick = (t: number, lag: number, a: number | undefined) => {
    const span = Number.isNaN(lastTick) ? 0 : t - lastTick
    lastTick = t
    const d = a! - lastActive!
    lastActive = a
    samples = samples.filter((s) => s.t > t - 5000)
    samples.push({ t, lag, span, busy: d >= 0 ? Math.min(d, span) : lag > 2 ? span : 0 })
  }

  const checkTick = (t: number) => {
    const lag = m.lag
    for (const v of [lag.p50, lag.p99, lag.max]) if (!(v >= 0 && v < 1e9)) fail(`lag out of range: ${JSON.stringify(lag)}`)
    if (!(lag.p50 <= lag.p99 && lag.p99 <= lag.max)) fail(`percentiles out of order: ${JSON.stringify(lag)}`)
    const u = m.utilization
    if (!(u >= 0 && u <= 1)) fail(`utilization out of [0, 1]: ${u}`)
    // Against the model.
    const lags = samples.map((s) => s.lag).sort((x, y) => x - y)
    const n = lags.length
    if (lag.max !== lags[n - 1]) fail(`lag.max ${lag.max}, the worst sample of the last 5 s is ${lags[n - 1]} (${n} samples)`)
    for (const [p, got] of [[0.5, lag.p50], [0.99, lag.p99]] as const) {
      const lo = Math.max(0, Math.min(Math.floor(p * (n - 1)), Math.ceil(p * n) - 1))
      const hi = Math.min(n - 1, Math.max(Math.ceil(p * (n - 1)), Math.ceil(p * n) - 1))
      if (!(got >= lags[lo] && got <= lags[hi])) fail(`p${p * 100} = ${got}, expected within [${lags[lo]}, ${lags[hi]}] of ${n} samples`)
    }
    let busy = 0
    let total = 0
    for (const s of samples) { busy += s.busy; total += s.span }
    const util = busy / Math.max(total, 5000)
    if (Math.abs(util - u) > 1e-9) fail(`utilization ${u}, the model reads ${util}`)
    // Against what the host did, not the model: no lag beyond a block of the last 5 s or a long task reported then.
    let bound = 0.5
    for (const s of stretches) if (s.end > t - 5100 && s.start <= t) bound = Math.max(bound, s.end - s.start + 0.5)
    for (const e of entries) if (e.t > t - 5000) bound = Math.max(bound, e.duration)
    if (lag.max > bound) fail(`lag.max ${lag.max} at ${t}, but no block or long task of the last 5 s was longer than ${bound}`)
    // Never loses a stall.
    for (const s of stretches) {
      if (s.seenAt === undefined && s.end <= t + 1e-9) s.seenAt = t
      if (s.len >= 200 && s.seenAt === t) count('200 ms stall sampled')
      if (s.len >= 200 && s.seenAt !== undefined && t - s.seenAt < 4999 && lag.max < 150)
        fail(`a ${s.len} ms block (ended ${s.end}, sampled ${s.seenAt}) reads lag.max ${lag.max} at ${t}`)
    }
    for (const e of entries)
      if (t - e.t < 4999 && lag.max < e.duration) fail(`a long task of ${e.duration} ms (at ${e.t}) reads lag.max ${lag.max} at ${t}`)
    // No late period in the last 5 s, nothing active: idle.
    if (!stretches.some((s) => s.end > t - 5100) && (c.elu === 'none' || c.elu === 'zero' || c.elu === 'throws' || (c.elu === 'counter' && c.frac === 0)) && u !== 0)
      fail(`utilization ${u} with no block in the last 5 s`)
    // The decision (README: each of lag.max and utilization is high from a sample above its limit to one at or
    // below its low mark, half the limit for lag, the limit less 0.1 for utilization; under pressure while either
    // is high).
    lagHigh = lag.max > maxLag || (lagHigh && lag.max > maxLag / 2)
    utilHigh = u > maxUtil || (utilHigh && u > Math.max(maxUtil / 2, maxUtil - 0.1))
    if (lagHigh && lag.max <= maxLag && !utilHigh) count('held by hysteresis')
    const flip = under !== (lagHigh || utilHigh)
    if (flip) {
      count(under ? 'relief' : lag.max > maxLag ? 'pressure by lag' : 'pressure by utilization')
      if (under && u > maxUtil / 2) count('relief with utilization over half its limit')
      under = !under
      decisions.push(under ? 'pressure' : 'relief')
      decisionsAt.push(t)
    }
    if (m.underPressure !== under) fail(`underPressure ${m.underPressure} after a sample with lag.max ${lag.max}, utilization ${u} (limits ${maxLag}, ${maxUtil})`)
    // Sampling rate: never closer than 4 ms; 50 ms apart once a second passed since the last block (20 a second);
    // never further apart than 50 ms plus the time blocked in between.
    const prev = ticks.at(-1)
    if (prev !== undefined) {
      if (t - prev < 4 - 1e-6) fail(`samples ${t - prev} ms apart`)
      const lastEnd = Math.max(0, ...stretches.filter((s) => s.end <= prev + 1e-9).map((s) => s.end))
      const between = stretches.some((s) => s.end > prev && s.start < t)
      if (!between && prev >= lastEnd + 1010) count('idle gap checked')
      if (!between && prev >= lastEnd + 1010 && t - prev < 50 - 1e-6) fail(`idle for a second, yet samples ${t - prev} ms apart (at ${prev})`)
      const blockedBetween = stretches.filter((s) => s.end > prev && s.start < t).reduce((x, s) => x + s.len, 0)
      if (t - prev > 50 + blockedBetween + 0.5) fail(`samples ${t - prev} ms apart with ${blockedBetween} ms blocked in between`)
    }
    ticks.push(t)
    const h = handles.at(-1)
    if (!h || !h.unref) fail('the sampling timer is not unref\'d')
    // The next sample: 50 ms on, or for a second after a sample more than 2 ms late, 4-50 ms at random.
    if (samples.at(-1)!.lag > 2) lastLate = t
    if (!(wait >= 4 && wait <= 50)) fail(`next sample in ${wait} ms`)
    if (t - lastLate < 1000 ? wait === 50 : wait !== 50)
      fail(`next sample in ${wait} ms, ${t - lastLate} ms after a late one (${samples.at(-1)!.lag} ms late now)`)
  }

  // Wrap wake(): after each sample, check it.
  const wake = host.wake
  host.wake = () => {
    tickPending = undefined
    wake()
    if (tickPending) {
      // A sample ends the stretch of blocks that delayed it.
      open = undefined
      const { t, lag, a } = tickPending
      modelTick(t, lag, a)
      checkTick(t)
    }
  }

  const options = { ...(c.maxLagMs !== undefined && { maxLagMs: c.maxLagMs }), ...(c.maxUtilization !== undefined && { maxUtilization: c.maxUtilization }) }
  const m = c.bare && !Object.keys(options).length ? mod.monitor() : mod.monitor(options)
  const start = host.clock
  // The first sample, taken by monitor() itself.
  if (!Number.isFinite(due)) fail('monitor() posted no sampling timer')
  lastActive = undefined
  modelTick(start, 0, modelActive())
  checkTick(start)
  if (c.elu !== 'none' && activeCalls === 0) fail('the host\'s eventLoopUtilization was never read')

  const doStop = () => {
    if (stopped) return
    m.stop()
    stopped = true
    stopAt = host.clock
    if (decisions.length > events.length) count('event dropped by stop')
    frozen = snapshot(m)
  }
  // Listeners run in the monitor's queue, which reports what they throw: host.reported must stay empty.
  const eventsAt: number[] = []
  m.on('pressure', () => { if (stopped) host.reported.push('pressure fired after stop()'); events.push('pressure'); eventsAt.push(host.clock) })
  m.on('relief', () => { if (stopped) host.reported.push('relief fired after stop()'); events.push('relief'); eventsAt.push(host.clock) })
  if (c.stopAtEvent !== undefined) {
    let k = 0
    const stopper = () => { if (k++ === c.stopAtEvent) { count('stop in listener'); doStop() } }
    m.on('pressure', stopper)
    m.on('relief', stopper)
  }
  const laterEntries: { duration: number; startTime: number }[] = []
  let countedUntil = 0
  let countedSample: (typeof samples)[number] | undefined
  let countedEntry: (typeof entries)[number] | undefined
  const observe = (list: { duration: number; startTime: number }[]) => {
    host.observe(list)
    if (stopped || !c.entryTypes.length) return
    for (const e of list) {
      // Not one that ended before monitor(); one that starts before the end of the last one counted is the same
      // stall, reported as the other kind (a longtask and its long-animation-frame): not counted again, but its
      // sample takes the longer length.
      // One that began before monitor() counts its part since then only (time before the start is idle).
      const end = e.startTime + e.duration
      if (end < start) continue
      const since = e.startTime < start ? end - start : e.duration
      if (since < e.duration) count('long task straddling the start')
      if (e.startTime < countedUntil) {
        count('long task reported twice')
        countedSample!.lag = Math.max(countedSample!.lag, since)
        countedEntry!.duration = Math.max(countedEntry!.duration, since)
      } else {
        longTasks++
        count('long task counted')
        entries.push((countedEntry = { t: host.clock, duration: since }))
        samples.push((countedSample = { t: host.clock, lag: since, span: 0, busy: 0 }))
      }
      countedUntil = Math.max(countedUntil, end)
    }
  }
  const block = (ms: number) => {
    const s = host.clock
    if (open) { open.len += ms; open.end = s + ms } else stretches.push((open = { start: s, end: s + ms, len: ms }))
    blocked += ms
    host.block(ms)
  }
  const checkQuiet = () => {
    if (host.reported.length) fail(`reported: ${host.reported.map(String)}`)
    // Strictly alternating, pressure first.
    if (events.some((e, i) => e !== (i % 2 ? 'relief' : 'pressure'))) fail(`events ${events}`)
    if (stopped) {
      if (snapshot(m) !== frozen) fail(`fields changed after stop(): ${frozen} -> ${snapshot(m)}`)
    } else if (m.underPressure !== under) fail('underPressure does not follow the decision')
    if (m.longTasks !== longTasks) fail(`longTasks ${m.longTasks}, reported since monitor(): ${longTasks}`)
    if (events.some((e, i) => e !== decisions[i])) fail(`events ${events} are not the decisions ${decisions}`)
    // A messageChannel port left ref'd keeps a Node process alive.
    const refs = log.filter((e) => e === 'ref' || e === 'unref')
    if (refs.at(-1) === 'ref' && host.pending() === 0) fail('the message port stays ref\'d with nothing waiting')
  }

  for (const op of c.ops) {
    wakesInOp = []
    if ('idle' in op) {
      const from = decisions.length
      host.advance(op.idle)
      if (laterEntries.length) observe(laterEntries.splice(0))
      // Idle: nothing wakes up but the sampling timer and event deliveries (and a probe's tail just after stop()).
      const others = wakesInOp.filter((e) => e !== 'wake:timer').length
      if (others > decisions.length - from + 1 && !(stopped && host.clock - op.idle <= stopAt + 1.1))
        fail(`${others} wake-ups other than the sampling timer in ${op.idle} idle ms`)
      if (!stopped && decisions.length > events.length + 1) fail(`events ${events} lag behind the decisions ${decisions}`)
    } else if ('block' in op) {
      const ms = op.block >= 1 ? op.block : Math.min(Math.max(op.block * maxLag, 1), 400)
      const s = host.clock
      if (op.inTask) {
        let ran = false
        own = true
        mod.macrotask(() => { block(ms); ran = true })
        for (let i = 0; i < 10_000 && !ran; i++) host.wake()
        own = false
        if (!ran) fail('the macrotask never ran')
        // No wake-up since the task's block: a block that follows stalls the same timer.
      } else block(ms)
      const entry = { duration: ms, startTime: s }
      if (op.entry === 'now') observe([entry])
      // As a longtask, then as its frame: a little earlier, and longer by the frame's own work (not a block the
      // fake host knows of, so not a longer stall in the model's bounds: the frame's length is).
      if (op.entry === 'both') observe([entry]), observe([{ duration: ms + 7, startTime: s - 2 }])
      if (op.entry === 'later') laterEntries.push(entry)
    } else if ('hold' in op) {
      block(Math.min(maxLag * 1.2 + 1, 2000))
      host.advance(op.gap)
      block(Math.max(op.hold * Math.min(maxLag, 2000), 1))
      host.advance(5050 - op.gap)
    } else if ('backlog' in op) {
      let done = 0
      own = true
      for (let i = 0; i < op.backlog; i++) mod.macrotask(() => { block(op.each); done++ })
      const from = decisions.length
      // (The queue re-posts itself between slices: its posts are ours, not the monitor's.)
      for (let i = 0; i < 100_000 && done < op.backlog; i++) host.wake()
      if (done < op.backlog) fail('the backlog never ran')
      host.advance(0)
      own = false
      // README: listeners run in the next turn, through a queue of their own: the backlog does not delay them (by
      // more than the slice in progress, its budget of 5 ms overrun by at most 16 callbacks).
      for (let i = from; i < decisions.length; i++) {
        if (stopped && i >= events.length) break
        count('event behind a backlog')
        if (!(eventsAt[i] - decisionsAt[i] <= 5 + 17 * op.each + 1))
          fail(`the event decided at ${decisionsAt[i]} ran at ${eventsAt[i]}, behind a backlog of ${op.backlog} x ${op.each} ms`)
      }
    } else if ('stale' in op) {
      observe([{ startTime: start - op.stale, duration: op.duration }])
    } else if ('read' in op) {
      // Every read asks for a probe (at most one a second). One asked for by an earlier read has run by now; the
      // first one runs within 50 ms of the first read (and takes 1 ms).
      const turns = m.turnsPerSecond
      if (!(turns >= 0)) fail(`turnsPerSecond ${turns}`)
      if (!read && turns !== 0) fail(`turnsPerSecond ${turns} before the first probe`)
      read = true
      if (probed && !stopped && !(turns > 0)) fail(`turnsPerSecond ${turns} 1.1 s after a read`)
      host.advance(51.5)
      await null
      await null
      const again = m.turnsPerSecond
      if (!stopped && !(again > 0)) fail(`turnsPerSecond ${again} 51.5 ms after a read`)
      host.advance(1100)
      await null
      await null
      if (probed && !stopped) count('turns checked')
      probed = !stopped
    } else {
      if (op.afterSample) for (let i = 0, n = ticks.length; i < 10_000 && ticks.length === n && host.pending(); i++) host.wake()
      doStop()
    }
    checkQuiet()
  }
  // The end: every event delivered, then stop(): nothing left pending, nothing more.
  host.advance(60)
  checkQuiet()
  if (!stopped && events.length !== decisions.length) fail(`events ${events}, decisions ${decisions}`)
  if (!stopped && m.underPressure !== (events.at(-1) === 'pressure')) fail('underPressure does not match the last event')
  for (const s of stretches) if (s.len >= 200 && s.seenAt === undefined && !stopped) fail(`a ${s.len} ms block was never sampled`)
  doStop()
  host.advance(2)
  if (host.pending() !== 0) fail(`${host.pending()} tasks pending after stop()`)
  const before = log.length
  host.advance(3000)
  if (log.length !== before) fail(`activity after stop(): ${log.slice(before, before + 5)}`)
  for (const h of handles) if (!h.unref) fail(`a ${h.ms} ms timer was not unref'd`)
  checkQuiet()
}

describe('monitor() (property, random timelines on the fake host)', () => {
  afterEach(() => { vi.restoreAllMocks() })

  afterAll(() => { if (process.env.STATS) console.log(stats) })

  it('should never lose a stall, keep its fields and events consistent, stay idle when idle, and stop cleanly', async () => {
    await fc.assert(fc.asyncProperty(caseArb, run), { numRuns: Number(process.env.RUNS ?? 800) })
  }, process.env.RUNS ? 600_000 : undefined)

  it('should take any number >= 0 as a limit and reject anything else with a TypeError naming it', async () => {
    const { host, mod } = await load('setImmediate')
    const value = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(0, -0, Infinity, -Infinity, NaN, '5', '', null, true, false, 5n),
      fc.string(),
      fc.constant({}),
    )
    fc.assert(
      fc.property(fc.constantFrom('maxLagMs' as const, 'maxUtilization' as const), value, (name, v) => {
        let m: ReturnType<typeof mod.monitor> | undefined
        let error: unknown
        try { m = mod.monitor({ [name]: v } as never) } catch (e) { error = e }
        m?.stop()
        if (typeof v == 'number' && v >= 0) expect(error).toBeUndefined()
        else {
          expect(error).toBeInstanceOf(TypeError)
          expect((error as Error).message.startsWith(`bad ${name}: `)).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
    // Monitors made and stopped at once leave nothing behind.
    for (let i = 0; i < 10_000 && host.pending(); i++) host.wake()
    host.advance(1000)
    expect(host.pending()).toBe(0)
  })
})
