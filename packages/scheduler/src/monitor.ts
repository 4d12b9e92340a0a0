import { clearTimer, now, Observer, perf, report, setTimer } from './host.ts'
import { macrotask } from './queue.ts'

/** Options of {@link monitor}. */
export interface MonitorOptions {
  /** Lag (ms) above which the loop is under pressure; default 100. */
  maxLagMs?: number
  /** Busy fraction (0..1) above which the loop is under pressure; default 0.9. */
  maxUtilization?: number
}

/** Event-loop lag percentiles in ms, over the last {@link WINDOW_MS}. */
export interface Lag {
  p50: number
  p99: number
  /** The worst stall seen in the last 5 s: a spike shows, then returns to normal once it leaves the window. */
  max: number
}

/** A running event-loop monitor; its fields are refreshed at every sample (20 times per second). */
export interface Monitor {
  /** Lag percentiles over the last 5 s. */
  readonly lag: Lag
  /** Busy fraction (0..1) over the last 5 s. */
  readonly utilization: number
  /** Long tasks (or long animation frames) reported by the host since the monitor started. */
  readonly longTasks: number
  /** Macrotask turns per second the loop completed in the latest 1 ms probe (measured once a second). */
  readonly turnsPerSecond: number
  /** True from a `pressure` event until the next `relief` event. */
  readonly underPressure: boolean
  /** Calls `fn` when the loop goes under pressure or is relieved; returns a function that removes it. */
  on(type: 'pressure' | 'relief', fn: () => void): () => void
  /** Stops sampling and observing. */
  stop(): void
}

/** Timer-drift sampling period: at most 1000 / 50 = 20 wake-ups per second, and a 200 ms stall that starts just
 * after a sample still delays the next one by >= 150 ms. */
export const INTERVAL_MS = 50
/** Rolling window of `lag` and `utilization`. */
export const WINDOW_MS = 5000
/** Window the pressure decision looks at. */
const RECENT_MS = 1000
/** Hysteresis: relief only once lag and utilization over the last second are below this share of their limits. */
const RELIEF = 0.5

/** Starts an event-loop monitor: lag, utilization, long tasks, turn rate and pressure events, without pinning the CPU. */
export function monitor(options: MonitorOptions = {}): Monitor {
  const { maxLagMs = 100, maxUtilization = 0.9 } = options
  if (typeof maxLagMs != 'number' || !(maxLagMs > 0)) throw new TypeError(`monitor: expected maxLagMs to be a number > 0, got ${String(maxLagMs)}`)
  if (typeof maxUtilization != 'number' || !(maxUtilization > 0 && maxUtilization <= 1)) throw new TypeError(`monitor: expected maxUtilization to be a number in (0, 1], got ${String(maxUtilization)}`)
  const listeners: Record<string, (() => void)[]> = { pressure: [], relief: [] }
  // Samples, oldest first: [time, lag, busy ms, elapsed ms]. A timer sample's lag is how late it fired (a task
  // queued when the stall began waited at least that long); a long task adds its true length as lag.
  const samples: number[][] = []
  // Node reports exact event-loop utilization; elsewhere the busy time of a period is how late its timer fired.
  const elu: (() => { active: number; idle: number }) | undefined = (perf as any).eventLoopUtilization
  let last = now()
  let due = last
  let probed = -Infinity
  let lastElu = elu?.call(perf)
  let timer: any
  let stopped = false
  const emit = (type: string) => {
    (m as any).underPressure = type == 'pressure'
    for (const fn of listeners[type].slice()) try { fn() } catch (e) { report(e) }
  }
  const schedule = () => {
    due = now() + INTERVAL_MS
    timer = setTimer(tick, INTERVAL_MS)
    timer.unref?.() // Node: watching the loop must not keep the process alive.
  }
  const update = (t: number) => {
    while (samples.length && samples[0][0] < t - WINDOW_MS) samples.shift()
    const lags: number[] = []
    let busy = 0, span = 0, recentMax = 0, recentBusy = 0, recentSpan = 0
    for (const [at, lag, b, s] of samples) {
      lags.push(lag)
      busy += b
      span += s
      if (at >= t - RECENT_MS) {
        recentMax = Math.max(recentMax, lag)
        recentBusy += b
        recentSpan += s
      }
    }
    lags.sort((a, b) => a - b)
    const rank = (p: number) => lags[Math.ceil(p * lags.length) - 1] ?? 0
    m.lag = { p50: rank(0.5), p99: rank(0.99), max: rank(1) }
    m.utilization = span ? Math.min(1, busy / span) : 0
    const util = recentSpan ? recentBusy / recentSpan : 0
    if (!m.underPressure && (recentMax > maxLagMs || util > maxUtilization)) emit('pressure')
    else if (m.underPressure && recentMax <= maxLagMs * RELIEF && util <= maxUtilization * RELIEF) emit('relief')
  }
  const tick = () => {
    const t = now()
    const late = Math.max(0, t - due)
    let busy = late
    let span = t - last
    if (elu) {
      const u = elu.call(perf)
      busy = u.active - lastElu!.active
      span = busy + u.idle - lastElu!.idle
      lastElu = u
    }
    samples.push([t, late, busy, span])
    last = t
    schedule()
    if (t - probed >= 1000) probe((probed = t))
    update(t)
  }
  // One short burst of macrotask turns a second: long enough to average out a coarse clock, short enough to cost
  // ~0.1% of the CPU.
  const probe = (start: number) => {
    let turns = 0
    const turn = () => {
      const spent = now() - start
      turns++
      if (spent < 1 && !stopped) macrotask(turn)
      else m.turnsPerSecond = (turns * 1000) / spent
    }
    macrotask(turn)
  }
  let observer: PerformanceObserver | undefined
  const type = ['long-animation-frame', 'longtask'].find((t) => Observer?.supportedEntryTypes?.includes(t))
  if (type) {
    observer = new Observer!((list) => {
      for (const e of list.getEntries()) {
        m.longTasks++
        samples.push([now(), e.duration, 0, 0])
      }
      update(now())
    })
    observer.observe({ type })
  }
  const m: { -readonly [K in keyof Monitor]: Monitor[K] } = {
    lag: { p50: 0, p99: 0, max: 0 },
    utilization: 0,
    longTasks: 0,
    turnsPerSecond: 0,
    underPressure: false,
    on(type, fn) {
      const list = Object.hasOwn(listeners, type) && listeners[type]
      if (!list) throw new TypeError(`monitor.on: expected type to be "pressure" or "relief", got ${String(type)}`)
      if (typeof fn != 'function') throw new TypeError(`monitor.on: expected fn to be a function, got ${typeof fn}`)
      list.push(fn)
      return () => { list.splice(list.indexOf(fn) >>> 0, 1) }
    },
    stop() {
      stopped = true
      clearTimer(timer)
      observer?.disconnect()
    },
  }
  schedule()
  return m
}
