import { fail, fnArg, numArg, objArg } from './errors.ts'
import { activeMs, clearTimeout, now, PerformanceObserver, post, setTimeout } from './host.ts'
import { rate } from './probe.ts'
import { macrotask, queue } from './queue.ts'

/** Options of {@link monitor}. */
export interface MonitorOptions {
  /** Lag (ms) above which the loop is under pressure; default 100. */
  maxLagMs?: number | undefined
  /** Busy fraction (0..1) above which the loop is under pressure; default 0.9. */
  maxUtilization?: number | undefined
}

/** Event-loop lag percentiles in ms, over the last 5 s. */
export interface Lag {
  /** The median lag sample, in ms. */
  p50: number
  /** The 99th-percentile lag sample, in ms. */
  p99: number
  /** The worst stall seen in the last 5 s: a spike shows, then returns to normal once it leaves the window. */
  max: number
}

/** A running event-loop monitor; its fields are refreshed at every sample (20 a second, more after a late timer). */
export interface Monitor {
  /** Lag percentiles over the last 5 s. */
  readonly lag: Lag
  /** Busy fraction (0..1) over the last 5 s: Node's event-loop utilization where it exists, else sampled. */
  readonly utilization: number
  /** Long tasks (or long animation frames that something blocked) reported by the host since the monitor started. */
  readonly longTasks: number
  /**
   * Macrotask turns per second the loop completed in the latest 1 ms probe. Probed once a second, and only while this
   * field is read: 0 until the first probe, within 50 ms of the first read.
   */
  readonly turnsPerSecond: number
  /**
   * The monitor's decision: true from the sample that decides pressure until the one that decides relief. It changes
   * one turn before the `pressure` / `relief` listeners run, so work queued before them sees it first: gate held-back
   * work on a flag your listeners set, not on this, if the `relief` listener releases it.
   */
  readonly underPressure: boolean
  /** Calls `fn` when the loop goes under pressure or is relieved; returns a function that removes it. */
  on(type: 'pressure' | 'relief', fn: () => void): () => void
  /** Stops sampling, observing and calling listeners (an event not yet delivered included). */
  stop(): void
}

// Numbers, inlined (named constants cost bytes in the bundle): the timer-drift sampling period is at most 50 ms
// (20 wake-ups a second; a random 4-50 ms for a second after a late timer, see `wait`), so a 200 ms stall that starts
// just after a sample still delays the next one by >= 150 ms; a timer later than 2 ms found the loop busy (below that
// is timer noise); `lag`, `utilization` and the pressure decision cover a rolling window of the last 5000 ms.

/** Starts an event-loop monitor: lag, utilization, long tasks, turn rate and pressure events, without pinning the CPU. */
export function monitor(options: MonitorOptions = {}): Monitor {
  const { maxLagMs = 100, maxUtilization = 0.9 } = objArg(options)
  numArg('maxLagMs', maxLagMs)
  numArg('maxUtilization', maxUtilization) // above 1: never under pressure by utilization
  // Listeners of 'relief' and of 'pressure', indexed by the value `underPressure` takes when they fire. Each entry
  // is a wrapper made for one registration, so a remover deletes exactly its own, once (the same function on()'d
  // twice is two registrations; a remover called again, or after a later on() of that function, deletes nothing).
  const subs: Set<() => void>[] = [new Set(), new Set()]
  // Listeners are delivered through a queue of their own: on the shared `macrotask` queue they waited behind its
  // whole backlog, so a listener meant to shed that load ran only once the load was done.
  const deliver = queue(5, post)
  // Samples, oldest first: [time, lag, elapsed ms, busy ms]. A timer sample's lag is how late it fired: a task
  // queued when the stall began waited at least that long. A timer that fired late (beyond timer noise) found the
  // thread busy, and its whole period counts as busy: sampled this way, a loop busy in tasks of 20 ms and more
  // reads close to its busy share, where counting only the lateness would read a few %. A long task adds its true
  // length as lag, and 0 elapsed.
  // A timer due in the last ~2 ms of a task looks on time, so back-to-back tasks of T ms read about 1 - 2/T.
  // Counting samples 2-4 ms late twice made up for that on average (saturated 5 ms tasks read 1.00), but a review
  // found it read loops 78-80% busy in short tasks as 0.87-0.96 in Node, and fired 'pressure' for them: reverted.
  let samples: number[][] = []
  // Where the host measures its own loop (Node: `performance.eventLoopUtilization()`, the time it was not waiting
  // for events; seed 004), a sample's busy time is the loop's active ms since the last one, at most its span: exact
  // where the sampler only estimates (Node read loops saturated by 5 or 10 ms tasks as 0 by sampling when their
  // period held every sample in one phase, 0.58 when it did not). Elsewhere `activeMs()` is undefined, and a late
  // timer's whole span counts as busy.
  let active = activeMs()
  const start = now()
  let last = start
  // When the turn rate was last probed; undefined at first, and `t - undefined` is NaN, never < 1000.
  let probed: any
  // The latest turn rate, and whether `turnsPerSecond` was read since the last probe.
  let turns = 0
  let wanted: any
  let timer: any
  // The delay of the pending timer: 50 ms, or a random 4-50 ms while a timer fired late in the last second. A late
  // timer fires at the end of a busy stretch, and 50 ms later a periodic load (10 ms of work every 20 ms, 50 every
  // 100) is busy again: every sample then fell in a busy stretch, and a 50%-busy loop read 100% (and 'pressure').
  // Random delays break that phase lock; never over 50 ms, so a 200 ms block still reads >= 150; 50 when idle.
  // Never under 4: Chromium runs a timer nested this deep 4 ms after it was set, however short its delay, and a
  // timer set for 1 ms that fired at 4 read as 3 ms late, busy.
  let wait = 50
  // When a timer last fired late; undefined at first (`t - undefined` is NaN, never < 1000).
  let busyAt: any
  // Whether lag, and utilization, are high: from a sample over its limit to one at or below its low mark (see the
  // hysteresis in `tick`). 0 at first (not undefined: `0 && x` is 0, which `!=` takes for false).
  let lagHigh: boolean | 0 = 0
  let utilHigh: boolean | 0 = 0
  const tick = () => {
    const t = now()
    const span = t - last
    // The timer was set at `last`, so it was due at `last + wait` (the first tick, called directly, is not late).
    const late = Math.max(t - (last + wait), 0)
    last = t
    if (late > 2) busyAt = t
    // Node: watching the loop must not keep the process alive.
    ;(timer = setTimeout(tick, (wait = t - busyAt < 1e3 ? 4 + Math.random() * 46 : 50))).unref?.()
    // Once a second, ~1 ms of back-to-back macrotask turns measures the turn rate (seed 001's checker) without
    // pinning the CPU the way a permanent self-re-posting probe would; and only while someone reads it, so an idle
    // page wakes up for the 20 samples a second and nothing else.
    if (wanted && !(t - probed < 1e3)) (wanted = 0), rate(macrotask, 1, (probed = t)).then((r) => { turns = r })
    samples = samples.filter((s) => s[0] > t - 5000)
    const a = activeMs()
    const d = a! - active!
    samples.push([t, late, span, (d >= 0 ? Math.min(d, span) : late > 2 && span) as number])
    active = a
    let busy = 0
    let total = 0
    const lags = samples.map((s) => ((busy += s[3]), (total += s[2]), s[1])).sort((a, b) => a - b)
    // Nearest rank: index ceil(p * n) - 1, written as a truncation just below p * n.
    const rank = (p: number) => lags[(p * lags.length - 1e-9) | 0]
    const max = rank(1)
    // A timer sample's busy time is at most its span, so this stays within [0, 1]. The window is 5 s even while the
    // monitor is younger: one late timer just after monitor() is 50 ms of busy time, not a saturated loop (100%).
    const util = (m.utilization = busy / Math.max(total, 5e3))
    m.lag = { p50: rank(0.5), p99: rank(0.99), max }
    // Hysteresis, for each measure on its own: high above its limit, and until it is back at or below its low mark,
    // over the whole window; under pressure while either is high. Lag, which comes in spikes, is low at half its
    // limit. Utilization, a 5 s average that moves by at most 1% a sample, is low 0.1 under its limit (half of it, for
    // limits under 0.2). Relief once both were under half held a loop whose steady load sits between the two (a phone
    // busy 64-85% drawing its frames, a server at 60%) under pressure for good after a lag spike, or after a stall long
    // enough to take utilization over its limit; and a server that sheds load shed until it was half as busy.
    lagHigh = max > maxLagMs || (lagHigh && max > maxLagMs / 2)
    utilHigh = util > maxUtilization || (utilHigh && util > Math.max(maxUtilization / 2, maxUtilization - 0.1))
    if (m.underPressure != (lagHigh || utilHigh)) {
      // Listeners run through their queue, in the next turn: a throwing one is reported and stops neither the
      // others nor the monitor.
      subs[+(m.underPressure = !m.underPressure)].forEach(deliver)
    }
  }
  // Where the host reports long tasks or long animation frames, each one adds its true length as a lag sample. Both
  // kinds are observed: a same-origin iframe (an embedded app, a test runner's) gets no long-animation-frame while
  // the page animates, only the longtask (measured in Chromium). One that starts before the end of the last one
  // counted is the same stall, reported as the other kind (entries come in the order they end): not counted again,
  // but its sample is the longer of the two (a frame is its task plus the frame's own work: a 60 ms task in a
  // 160 ms frame came first).
  const types = PerformanceObserver?.supportedEntryTypes?.filter((t) => /^long/.test(t)) ?? []
  let until = 0
  let counted: number[]
  const observer = (types[0] && new PerformanceObserver!((list) => {
    for (let { startTime, duration, blockingDuration } of list.getEntries() as any[]) {
      const end = startTime + duration
      // Only its part since monitor(): a task that was running when the monitor was made (an app's set-up, with
      // monitor() in it) counted whole, time before the monitor included, and could open a page with a false alarm.
      startTime < start && (duration = end - start)
      // Chromium delivers the frames of the page's loading to an observer created after them: not since monitor().
      // A long frame that nothing blocked (`blockingDuration` 0: a background tab's frames, throttled to one a second
      // while timers ran on time) is no stall: it read as 1 s of lag, and went under pressure.
      if (end < start || blockingDuration == 0) continue
      if (startTime < until) counted[1] = Math.max(counted[1], duration)
      else m.longTasks++, samples.push((counted = [now(), duration, 0, 0]))
      until = Math.max(until, end)
    }
  })) as PerformanceObserver | undefined
  const m = {
    longTasks: 0,
    get turnsPerSecond() { wanted = 1; return turns },
    underPressure: false,
    on(type, fn) {
      const list = subs[type === 'relief' ? 0 : type === 'pressure' ? 1 : fail('type', type)]
      fnArg('fn', fn)
      // Delivered in a later turn: a listener removed meanwhile (by another listener, an unmount) is skipped.
      const f = () => list.has(f) && fn()
      list.add(f)
      return () => { list.delete(f) }
    },
    stop() {
      clearTimeout(timer)
      observer?.disconnect()
      // A pressure or relief event decided before stop() is delivered in the next turn: emptied sets skip it too.
      subs.map((s) => s.clear())
    },
  } as { -readonly [K in keyof Monitor]: Monitor[K] }
  types.map((type) => observer!.observe({ type }))
  tick()
  return m
}
