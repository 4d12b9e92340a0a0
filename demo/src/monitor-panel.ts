/**
 * The live event-loop monitor: readouts from `monitor()` of @eddy/scheduler and a rolling 30 s chart.
 *
 * The panel refreshes from a 250 ms timer, which is itself starved while the main thread is blocked: a blocking
 * run shows as a hole in the fps line followed by the lag spike the monitor measured.
 */
import { monitor } from '@eddy/scheduler'
import { batch, computed, effect, Signal } from '@eddy/signal'
import { group } from './format.ts'
import { fps } from './llama.ts'
import { afterPaint } from './state.ts'

const REFRESH_MS = 250
const HISTORY_MS = 30_000
/** A refresh later than this means the thread was blocked in between: the chart shades the hole. */
const STALL_MS = 600
/** Top of the chart's log-scale lag axis. */
const LAG_TOP_MS = 10_000

/** Pressure events kept for the chart's markers, and listed under it. */
const EVENTS_KEPT = 20
const EVENTS_SHOWN = 3

interface PressureEvent {
  t: number
  type: 'pressure' | 'relief'
  text: string
  clock: string
}

interface Sample {
  t: number
  lag: number
  fps: number
  /** The refresh before this one came this late: the thread was blocked in between. */
  stalled: boolean
}

export function setupMonitor(root: HTMLElement): void {
  const $ = (id: string) => root.querySelector<HTMLElement>(`#${id}`)!
  const options = { maxLagMs: 100, maxUtilization: 0.9 }
  // Started in a task of its own once the panel is built and painted (see the end): created here, the rest of this
  // set-up task (~25 ms here, 80-150 ms on a CPU throttled 4x) was one long task that straddled its start, counted
  // whole as a stall: on a slow phone the idle page opened with a pressure alarm. A stopped one meanwhile.
  let m = monitor(options)
  m.stop()

  const lagP99 = new Signal(0)
  const lagMax = new Signal(0)
  const longTasks = new Signal(0)
  const utilization = new Signal(0)
  const underPressure = new Signal(false)
  fps.bind($('mon-fps'))
  // Grouped, as every number on the page: a 12-second stall reads 12,177.
  lagP99.bind($('mon-lag-p99'), { format: (n) => group(n) })
  lagMax.bind($('mon-lag-max'), { format: (n) => group(n) })
  longTasks.bind($('mon-long-tasks'), { format: (n) => group(n) })
  computed(() => (underPressure.value ? 'under pressure' : 'normal')).bind($('mon-pressure'))
  underPressure.bind($('mon-pressure'), { class: 'alert' })
  utilization.bind($('mon-extra'), { format: (u) => `Main thread busy ${Math.round(u * 100)}% (last 5 s)` })
  // Pressure flips at once, not at the next refresh; each flip is logged and marked on the chart (seed 004: an app
  // would shed load on 'pressure' and resume on 'relief').
  const events = new Signal<PressureEvent[]>([])
  let pressureSince = 0
  // The monitor's hysteresis (scheduler README): relief once lag.max is at most half its limit and utilization at
  // most its limit less 0.1. Said with the limit: "lag max 86 ms" under pressure read as a contradiction of "limit 100".
  const util = (u: number) => `${Math.round(u * 100)}%`
  const utilRelief = Math.max(options.maxUtilization / 2, options.maxUtilization - 0.1)
  const log = (type: PressureEvent['type'], why = '') => {
    const t = performance.now()
    // The figure that crossed its limit comes first, with the limit: "busy 4%" beside the 91% the panel showed a
    // few seconds later read as a contradiction (utilization is over 5 s, even just after the monitor started).
    // "Pressure at": the figures when the alarm went off. The panel's lag max can end higher: the long frame that
    // the block was, reported after it, adds its whole length (a 1 s block: 1,000 ms here, 1,016 there).
    const lag = `lag max ${group(Math.round(m.lag.max))} ms`
    const busy = `busy ${Math.round(m.utilization * 100)}%`
    const text =
      type === 'pressure'
        ? m.lag.max > options.maxLagMs
          ? `pressure at ${lag} (limit ${options.maxLagMs}; relief at ${options.maxLagMs / 2} or less), ${busy}`
          : `pressure at ${busy} (limit ${util(options.maxUtilization)}; relief at ${util(utilRelief)} or less), ${lag}`
        : `relief after ${((t - pressureSince) / 1000).toFixed(1)} s${why}`
    if (type === 'pressure') pressureSince = t
    events.value = [...events.peek(), { t, type, text, clock: new Date().toLocaleTimeString('en-GB') }].slice(-EVENTS_KEPT)
  }
  const listen = () => {
    m.on('pressure', () => {
      underPressure.value = true
      log('pressure')
    })
    m.on('relief', () => {
      underPressure.value = false
      log('relief')
    })
  }
  const list = $('mon-events')
  effect(() => {
    const shown = events.value.slice(-EVENTS_SHOWN).reverse()
    list.replaceChildren(
      ...shown.map((e) => {
        const li = document.createElement('li')
        li.className = `event-${e.type}`
        li.textContent = `${e.clock} ${e.text}`
        return li
      }),
    )
  })
  computed(() => events.value.length > 0).bind($('mon-events-none'), 'hidden')

  const canvas = root.querySelector<HTMLCanvasElement>('#mon-chart')!
  const samples: Sample[] = []
  let last = performance.now()
  // Long frames counted by the monitors stopped when the tab was hidden: the count runs on across them.
  let longBefore = 0

  const refresh = () => {
    const t = performance.now()
    batch(() => {
      lagP99.value = m.lag.p99
      lagMax.value = m.lag.max
      longTasks.value = longBefore + m.longTasks
      utilization.value = m.utilization
      underPressure.value = m.underPressure
    })
    samples.push({ t, lag: m.lag.max, fps: fps.peek(), stalled: t - last > STALL_MS })
    last = t
    while (samples.length && samples[0]!.t < t - HISTORY_MS) samples.shift()
    draw(canvas, samples, events.peek(), t)
  }
  setInterval(() => document.hidden || refresh(), REFRESH_MS)
  refresh()
  // A hidden tab's timers are throttled to about once a second, which a monitor cannot tell from a blocked thread
  // (the scheduler README's advice): it stops while the tab is hidden, and a new one starts when it is shown.
  let watching = false
  const onVisibility = () => {
    if (document.hidden === !watching) return
    watching = !document.hidden
    if (document.hidden) {
      longBefore += m.longTasks
      m.stop()
      // Unwatched is not relieved, but an alarm nobody measures any more must not stay up: the list says why it ends.
      if (underPressure.peek()) {
        underPressure.value = false
        log('relief', ': the tab was hidden, watching paused')
      }
      return
    }
    m = monitor(options)
    listen()
    last = performance.now()
    refresh()
  }
  document.addEventListener('visibilitychange', onVisibility)
  // The monitor starts once the panel's own set-up has been painted; a page opened in a background tab starts it
  // when it is first shown.
  void afterPaint().then(onVisibility)
}

/** y of a lag on the log axis, 0 (bottom) .. 1 (top). */
const lagY = (ms: number) => Math.log10(1 + Math.max(0, ms)) / Math.log10(1 + LAG_TOP_MS)

function draw(canvas: HTMLCanvasElement, samples: Sample[], events: PressureEvent[], now: number): void {
  const dpr = Math.min(2, window.devicePixelRatio || 1)
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr))
  const h = Math.max(1, Math.round(canvas.clientHeight * dpr))
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w
    canvas.height = h
  }
  const ctx = canvas.getContext('2d')
  if (!ctx) return
  const css = getComputedStyle(canvas)
  const color = (name: string) => css.getPropertyValue(name).trim() || '#888'
  const [muted, border, red, accent, amber, green] = ['--muted', '--border', '--red', '--accent', '--amber', '--green'].map(
    color,
  ) as [string, string, string, string, string, string]
  const pad = { l: 52 * dpr, r: 46 * dpr, t: 10 * dpr, b: 10 * dpr }
  const cw = w - pad.l - pad.r
  const ch = h - pad.t - pad.b
  const x = (t: number) => pad.l + cw * (1 - (now - t) / HISTORY_MS)
  const y = (frac: number) => pad.t + ch * (1 - frac)
  ctx.clearRect(0, 0, w, h)

  // Lag grid: 1, 10, 100, 1000, 10000 ms.
  ctx.font = `${11 * dpr}px system-ui, sans-serif`
  ctx.textAlign = 'right'
  ctx.textBaseline = 'middle'
  ctx.lineWidth = 1 * dpr
  for (const ms of [1, 10, 100, 1000, 10000]) {
    const gy = Math.round(y(lagY(ms))) + 0.5
    ctx.strokeStyle = border
    ctx.beginPath()
    ctx.moveTo(pad.l, gy)
    ctx.lineTo(w - pad.r, gy)
    ctx.stroke()
    ctx.fillStyle = muted
    ctx.fillText(ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`, pad.l - 6 * dpr, gy)
  }
  if (samples.length < 2) return

  // Blocked stretches: no refresh ran between two samples.
  ctx.fillStyle = amber
  ctx.globalAlpha = 0.18
  for (let i = 1; i < samples.length; i++) {
    const s = samples[i]!
    if (s.stalled) ctx.fillRect(x(samples[i - 1]!.t), pad.t, x(s.t) - x(samples[i - 1]!.t), ch)
  }
  ctx.globalAlpha = 1

  // Lag (max over the monitor's 5 s window) as a step area: a value holds until the next sample replaced it.
  const lagPath = () => {
    ctx.moveTo(x(samples[0]!.t), y(lagY(samples[0]!.lag)))
    for (let i = 1; i < samples.length; i++) {
      ctx.lineTo(x(samples[i]!.t), y(lagY(samples[i - 1]!.lag)))
      ctx.lineTo(x(samples[i]!.t), y(lagY(samples[i]!.lag)))
    }
  }
  ctx.beginPath()
  lagPath()
  ctx.lineTo(x(samples[samples.length - 1]!.t), y(0))
  ctx.lineTo(x(samples[0]!.t), y(0))
  ctx.closePath()
  ctx.fillStyle = red
  ctx.globalAlpha = 0.16
  ctx.fill()
  ctx.globalAlpha = 1
  ctx.strokeStyle = red
  ctx.lineWidth = 1.5 * dpr
  ctx.beginPath()
  lagPath()
  ctx.stroke()

  // Pressure (red) and relief (green) events: dashed vertical marks.
  ctx.setLineDash([4 * dpr, 3 * dpr])
  ctx.lineWidth = 1 * dpr
  for (const e of events) {
    if (e.t < now - HISTORY_MS) continue
    const ex = Math.round(x(e.t)) + 0.5
    ctx.strokeStyle = e.type === 'pressure' ? red : green
    ctx.beginPath()
    ctx.moveTo(ex, pad.t)
    ctx.lineTo(ex, pad.t + ch)
    ctx.stroke()
  }
  ctx.setLineDash([])

  // FPS on a linear 0..max(60, seen) axis; a blocked stretch drew no frames, so the line drops to 0 across it.
  // 0..60 fps, or up to the next multiple of 30 on a faster display.
  const seen = Math.max(...samples.map((s) => s.fps))
  const top = seen > 75 ? Math.ceil(seen / 30) * 30 : 60
  ctx.fillStyle = accent
  ctx.textAlign = 'left'
  for (const f of [0, top / 2, top]) ctx.fillText(`${Math.round(f)} fps`, w - pad.r + 6 * dpr, y(f / top))
  ctx.strokeStyle = accent
  ctx.lineWidth = 2 * dpr
  ctx.beginPath()
  samples.forEach((s, i) => {
    const py = y(Math.min(1, s.fps / top))
    if (i === 0) return ctx.moveTo(x(s.t), py)
    if (s.stalled) {
      ctx.lineTo(x(samples[i - 1]!.t), y(0))
      ctx.lineTo(x(s.t), y(0))
    }
    ctx.lineTo(x(s.t), py)
  })
  ctx.stroke()
}
