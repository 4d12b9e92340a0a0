// A live telemetry dashboard written the way the READMEs teach: one Signal per sensor reading, every row field bound
// with .bind(), rows created and removed as sensors come and go (bindings disposed on removal), a simulated feed
// pushing thousands of updates a second through createQueue() batches written inside batch(), computed aggregates
// (min/max/mean, a sorted top-10, per-group counts), an effect raising and clearing alerts, a monitor() panel with
// load shedding, a loop() "recompute history" that a button stops, and a yieldToMain() import of 50k records.
// Run under the default microtask schedule and under 'animationFrame'.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Signal, batch, computed, configure, effect, flush, settled, untracked, type Binding } from '@eddy/signal'
import { createQueue, loop, monitor, yieldToMain, type Monitor } from '@eddy/scheduler'
import { observe, rng } from '../dom.ts'
import { collectUntil } from '../../../../../scripts/gc.ts'

const block = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const frame = () => new Promise<number>((r) => requestAnimationFrame(r))

const GROUPS = ['north', 'south', 'east', 'west'] as const
type Group = (typeof GROUPS)[number]
const HIGH = 95 // alert threshold
const fmt = (v: number) => v.toFixed(1)

interface Sensor {
  id: string
  group: Group
  value: Signal<number>
  trend: Signal<-1 | 0 | 1>
}

function mountDashboard(root: HTMLElement) {
  root.innerHTML = `
    <section class="summary">
      min <b class="min"></b> max <b class="max"></b> mean <b class="mean"></b> n <b class="count"></b>
      <ul class="groups">${GROUPS.map((g) => `<li data-group="${g}">${g}: <span></span></li>`).join('')}</ul>
    </section>
    <ol class="top">${Array.from({ length: 10 }, () => '<li><span class="id"></span> <span class="v"></span></li>').join('')}</ol>
    <ul class="alerts"></ul>
    <section class="monitor">p99 <b class="p99"></b> util <b class="util"></b> <b class="pressure"></b> shed <b class="shed"></b></section>
    <button class="recompute">Recompute history</button> <button class="stop">Stop</button> <b class="progress"></b>
    <table><tbody class="rows"></tbody></table>`
  const $ = <E extends Element = HTMLElement>(sel: string) => root.querySelector<E>(sel)!

  const sensors = new Signal<Sensor[]>([])
  const byId = new Map<string, Sensor>()

  // Aggregates.
  const values = computed(() => sensors.value.map((s) => s.value.value))
  const min = computed(() => (values.value.length ? Math.min(...values.value) : NaN))
  const max = computed(() => (values.value.length ? Math.max(...values.value) : NaN))
  const mean = computed(() => (values.value.length ? values.value.reduce((a, b) => a + b, 0) / values.value.length : NaN))
  const top10 = computed(
    () =>
      sensors.value
        .map((s) => ({ id: s.id, v: s.value.value }))
        .sort((a, b) => b.v - a.v || (a.id < b.id ? -1 : 1))
        .slice(0, 10),
    // a new array on each run: fine, the rows below cut off on their own values
  )
  const groupCounts = computed(() => {
    const c: Record<Group, number> = { north: 0, south: 0, east: 0, west: 0 }
    for (const s of sensors.value) c[s.group]++
    return c
  })

  const app: Binding[] = []
  const pct = (v: number) => (Number.isNaN(v) ? '–' : fmt(v))
  app.push(min.bind($('.min'), { format: pct }))
  app.push(max.bind($('.max'), { format: pct }))
  app.push(mean.bind($('.mean'), { format: pct }))
  app.push(computed(() => sensors.value.length).bind($('.count')))
  for (const g of GROUPS) app.push(computed(() => groupCounts.value[g]).bind($(`[data-group=${g}] span`)))
  $('.top')
    .querySelectorAll('li')
    .forEach((li, i) => {
      const entry = computed(() => top10.value[i])
      app.push(computed(() => entry.value?.id ?? '').bind(li.querySelector('.id')!))
      app.push(computed(() => (entry.value ? fmt(entry.value.v) : '')).bind(li.querySelector('.v')!))
      app.push(computed(() => !entry.value).bind(li, 'hidden'))
    })

  // Alerts: an effect that reads every value and writes the list of sensors over the threshold into a signal.
  const alerts = new Signal<string[]>([])
  let alertRuns = 0
  const stopAlerts = effect(() => {
    alertRuns++
    const over = sensors.value.filter((s) => s.value.value > HIGH).map((s) => s.id)
    const old = untracked(() => alerts.value)
    if (over.length !== old.length || over.some((id, i) => id !== old[i])) alerts.value = over
  })
  const alertList = $('.alerts')
  const stopAlertList = effect(() => {
    alertList.replaceChildren(
      ...alerts.value.map((id) => {
        const li = document.createElement('li')
        li.textContent = `${id} above ${HIGH}`
        return li
      }),
    )
  })

  // Rows, by hand, keyed by sensor id; bindings disposed on removal.
  const rows = new Map<string, { tr: HTMLTableRowElement; bindings: Binding[] }>()
  const body = $('.rows')
  function makeRow(s: Sensor) {
    const tr = document.createElement('tr')
    tr.dataset.id = s.id
    const id = tr.appendChild(document.createElement('td'))
    id.className = 'id'
    id.textContent = s.id
    const val = tr.appendChild(document.createElement('td'))
    val.className = 'value'
    const trend = tr.appendChild(document.createElement('td'))
    trend.className = 'trend'
    const bar = tr.appendChild(document.createElement('td')).appendChild(document.createElement('div'))
    bar.className = 'bar'
    const status = computed(() => (s.value.value > HIGH ? 'alarm' : s.value.value > 80 ? 'warn' : 'ok'))
    const bindings = [
      s.value.bind(val, { format: fmt }),
      s.trend.bind(trend, { format: (t) => (t > 0 ? '▲' : t < 0 ? '▼' : '▶') }),
      status.bind(tr, { class: 'alarm', format: (st) => st === 'alarm' }),
      status.bind(tr, { class: 'warn', format: (st) => st === 'warn' }),
      status.bind(tr, { attr: 'data-status' }),
      s.value.bind(bar, { style: 'width', format: (v) => `${v}%` }),
      s.value.bind(val, { attr: 'aria-valuenow', format: fmt }),
    ]
    return { tr, bindings }
  }
  const stopRows = effect(() => {
    const list = sensors.value
    const keep = new Set(list.map((s) => s.id))
    for (const [id, row] of rows)
      if (!keep.has(id)) {
        row.bindings.forEach((b) => b.dispose())
        row.tr.remove()
        rows.delete(id)
      }
    list.forEach((s, i) => {
      let row = rows.get(s.id)
      if (!row) rows.set(s.id, (row = makeRow(s)))
      if (body.children[i] !== row.tr) body.insertBefore(row.tr, body.children[i] ?? null)
    })
  })

  let nextId = 0
  const addSensors = (n: number, at = 50) =>
    batch(() => {
      const added: Sensor[] = []
      for (let i = 0; i < n; i++) {
        const s: Sensor = {
          id: `s${String(nextId).padStart(4, '0')}`,
          group: GROUPS[nextId++ % 4]!,
          value: new Signal(at),
          trend: new Signal<-1 | 0 | 1>(0),
        }
        byId.set(s.id, s)
        added.push(s)
      }
      sensors.value = [...sensors.peek(), ...added]
      return added
    })
  const removeSensors = (ids: string[]) => {
    const gone = new Set(ids)
    for (const id of ids) byId.delete(id)
    sensors.value = sensors.peek().filter((s) => !gone.has(s.id))
  }
  const setReading = (s: Sensor, v: number) => {
    const old = s.value.peek()
    s.value.value = v
    s.trend.value = v > old ? 1 : v < old ? -1 : 0
  }

  const destroy = () => {
    stopRows()
    stopAlerts()
    stopAlertList()
    app.forEach((b) => b.dispose())
    for (const row of rows.values()) row.bindings.forEach((b) => b.dispose())
    rows.clear()
  }
  return {
    $, sensors, byId, rows, alerts, min, max, mean, top10, groupCounts, addSensors, removeSensors, setReading, destroy,
    get alertRuns() { return alertRuns },
  }
}
type Dashboard = ReturnType<typeof mountDashboard>

/** What the DOM must show for the model, field by field. */
function expectDomMatchesModel(d: Dashboard) {
  const list = d.sensors.peek()
  const trs = [...d.$('.rows').querySelectorAll('tr')]
  expect(trs.map((tr) => tr.dataset.id)).toEqual(list.map((s) => s.id))
  const bad: string[] = []
  list.forEach((s, i) => {
    const tr = trs[i]!
    const v = s.value.peek()
    const want = v > HIGH ? 'alarm' : v > 80 ? 'warn' : 'ok'
    const trend = s.trend.peek()
    if (tr.querySelector('.value')!.textContent !== fmt(v)) bad.push(`${s.id} value ${tr.querySelector('.value')!.textContent} != ${fmt(v)}`)
    if (tr.querySelector('.value')!.getAttribute('aria-valuenow') !== fmt(v)) bad.push(`${s.id} aria`)
    if (tr.querySelector('.trend')!.textContent !== (trend > 0 ? '▲' : trend < 0 ? '▼' : '▶')) bad.push(`${s.id} trend`)
    if (tr.dataset.status !== want) bad.push(`${s.id} status ${tr.dataset.status} != ${want}`)
    if (tr.classList.contains('alarm') !== (want === 'alarm') || tr.classList.contains('warn') !== (want === 'warn'))
      bad.push(`${s.id} class ${tr.className}`)
    if (tr.querySelector<HTMLElement>('.bar')!.style.width !== `${v}%`) bad.push(`${s.id} width ${tr.querySelector<HTMLElement>('.bar')!.style.width} != ${v}%`)
  })
  expect(bad.slice(0, 10)).toEqual([])
  const vals = list.map((s) => s.value.peek())
  if (vals.length) {
    expect(d.$('.min').textContent).toBe(fmt(Math.min(...vals)))
    expect(d.$('.max').textContent).toBe(fmt(Math.max(...vals)))
    expect(d.$('.mean').textContent).toBe(fmt(vals.reduce((a, b) => a + b, 0) / vals.length))
  }
  expect(d.$('.count').textContent).toBe(String(list.length))
  for (const g of GROUPS)
    expect(d.$(`[data-group=${g}] span`).textContent).toBe(String(list.filter((s) => s.group === g).length))
  // top-10, computed independently
  const want = list
    .map((s) => ({ id: s.id, v: s.value.peek() }))
    .sort((a, b) => b.v - a.v || (a.id < b.id ? -1 : 1))
    .slice(0, 10)
  const lis = [...d.$('.top').querySelectorAll('li')]
  expect(lis.filter((li) => !li.hidden).map((li) => [li.querySelector('.id')!.textContent, li.querySelector('.v')!.textContent])).toEqual(
    want.map((w) => [w.id, fmt(w.v)]),
  )
  const over = list.filter((s) => s.value.peek() > HIGH).map((s) => `${s.id} above ${HIGH}`)
  expect([...d.$('.alerts').children].map((li) => li.textContent)).toEqual(over)
}

/**
 * The feed: a chain of tasks on its own queue, each writing `perTask` readings inside one batch(); `shedEvery` > 1
 * keeps only every Nth generated update (load shedding). Records the last value generated per sensor.
 */
function startFeed(
  d: Dashboard,
  opts: { perTask: number; seed: number; strategy?: 'postTask' | 'messageChannel' | 'postMessage' | 'setTimeout'; ratePerSec?: number },
) {
  const q = createQueue(opts.strategy ? { strategy: opts.strategy } : {})
  const rand = rng(opts.seed)
  const stats = { taskMs: 0, generated: 0, applied: 0, shed: 0, tasks: 0, lastGenerated: new Map<string, number>() }
  let shedEvery = 1
  let running = true
  let cancel = () => {}
  const task = () => {
    if (!running) return
    const t0 = performance.now()
    queueMicrotask(() => queueMicrotask(() => (stats.taskMs += performance.now() - t0)))
    stats.tasks++
    const list = d.sensors.peek()
    batch(() => {
      for (let i = 0; i < opts.perTask && list.length; i++) {
        const s = list[(rand() * list.length) | 0]!
        if (!d.byId.has(s.id)) continue
        const v = Math.round(rand() * 1000) / 10 // 0.0 .. 100.0
        stats.generated++
        if (shedEvery > 1 && stats.generated % shedEvery) {
          stats.shed++
          continue
        }
        stats.applied++
        stats.lastGenerated.set(s.id, v)
        d.setReading(s, v)
      }
    })
    if (!opts.ratePerSec) cancel = q.macrotask(task)
  }
  // Saturating: a chain of tasks back to back. Rate-limited: a 10 ms producer posts the batches the rate asks for.
  let producer: ReturnType<typeof setInterval> | undefined
  const cancels: (() => void)[] = []
  if (!opts.ratePerSec) cancel = q.macrotask(task)
  else
    producer = setInterval(() => {
      cancels.length = 0
      for (let k = 0; k < opts.ratePerSec! / 100 / opts.perTask; k++) cancels.push(q.macrotask(task))
    }, 10)
  return {
    stats,
    setShedding(n: number) { shedEvery = n },
    get shedEvery() { return shedEvery },
    stop() {
      running = false
      cancel()
      clearInterval(producer)
      cancels.forEach((c) => c())
    },
  }
}

// Errors: reportError'ed errors arrive as window 'error' events; console.error is watched too.
let errors: unknown[] = []
const onError = (e: ErrorEvent) => {
  errors.push(e.error ?? e.message)
  e.preventDefault()
}
const origConsoleError = console.error
beforeEach(() => {
  errors = []
  window.addEventListener('error', onError)
  console.error = (...args: unknown[]) => {
    errors.push(args)
    origConsoleError(...args)
  }
})
afterEach(() => {
  window.removeEventListener('error', onError)
  console.error = origConsoleError
  flush()
  configure({ schedule: 'microtask' })
  document.body.replaceChildren()
})

describe.each(['microtask', 'animationFrame'] as const)('telemetry dashboard, schedule %s', (schedule) => {
  beforeEach(() => configure({ schedule }))

  it('renders 400 rows, aggregates, top-10 and groups, then follows a feed of thousands of updates a second, nothing lost', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const d = mountDashboard(root)
    d.addSensors(400)
    await settled()
    expectDomMatchesModel(d)
    expect(d.$('.rows').children).toHaveLength(400)

    const feed = startFeed(d, { perTask: 200, seed: 1 })
    let frames = 0
    let counting = true
    const tick = () => { if (counting) (frames++, requestAnimationFrame(tick)) }
    requestAnimationFrame(tick)
    await sleep(1000)
    feed.stop()
    counting = false
    await settled()
    // thousands of updates per second
    expect(feed.stats.applied).toBeGreaterThan(2000)
    expect(feed.stats.shed).toBe(0)
    // frames kept coming while the feed ran (a macrotask chain, not a microtask one)
    expect(frames).toBeGreaterThan(10)
    // the DOM shows, for every sensor written, the last value the feed generated for it
    for (const [id, v] of feed.stats.lastGenerated) expect([id, d.byId.get(id)!.value.peek()]).toEqual([id, v])
    expectDomMatchesModel(d)
    expect(errors).toEqual([])
    d.destroy()
  }, 20_000)

  it('sensors come and go at runtime while the feed runs; removed rows are unbound and written no more', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const d = mountDashboard(root)
    d.addSensors(450)
    await settled()
    const feed = startFeed(d, { perTask: 100, seed: 2 })
    const removed: { s: Sensor; tr: HTMLTableRowElement; bindings: Binding[] }[] = []
    const rand = rng(7)
    for (let round = 0; round < 10; round++) {
      await sleep(40)
      const list = d.sensors.peek()
      const ids = Array.from({ length: 15 }, () => list[(rand() * list.length) | 0]!.id)
      for (const id of new Set(ids)) removed.push({ s: d.byId.get(id)!, ...d.rows.get(id)! })
      d.removeSensors([...new Set(ids)])
      d.addSensors(10, 60)
      const n = d.sensors.peek().length
      expect(n).toBeGreaterThanOrEqual(300)
      expect(n).toBeLessThanOrEqual(500)
    }
    feed.stop()
    await settled()
    expectDomMatchesModel(d)
    // every removed sensor: detached, no longer in the map
    for (const r of removed) {
      expect(r.tr.isConnected).toBe(false)
      expect(d.rows.has(r.s.id)).toBe(false)
    }
    // the removed sensors' signals still live (someone kept them): writes must not touch their detached rows
    const snapshots = removed.map((r) => r.tr.outerHTML)
    const watchers = removed.map((r) => observe(r.tr))
    batch(() => removed.forEach((r) => d.setReading(r.s, 99.9)))
    await settled()
    await frame()
    watchers.forEach((w) => expect(w.stop()).toEqual([]))
    expect(removed.map((r) => r.tr.outerHTML)).toEqual(snapshots)
    // the dashboard ignores them too (no alert for a removed sensor)
    expectDomMatchesModel(d)
    // disposing a removed row's bindings again is a no-op
    removed.forEach((r) => r.bindings.forEach((b) => b.dispose()))
    expect(errors).toEqual([])
    d.destroy()
  }, 20_000)

  it('alerts appear when a threshold is crossed and clear when the value drops', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const d = mountDashboard(root)
    const [a, b, c] = d.addSensors(300)
    await settled()
    expect(d.$('.alerts').children).toHaveLength(0)
    const runs = d.alertRuns
    batch(() => {
      d.setReading(a!, 99)
      d.setReading(b!, 97)
      d.setReading(c!, 95) // at the threshold: no alert (strictly above)
    })
    expect(d.alertRuns).toBe(runs + 1) // one run for the batch
    await settled()
    expect([...d.$('.alerts').children].map((li) => li.textContent)).toEqual([`${a!.id} above 95`, `${b!.id} above 95`])
    expect(d.rows.get(a!.id)!.tr.classList.contains('alarm')).toBe(true)
    expect(d.top10.value.slice(0, 3).map((e) => e.id)).toEqual([a!.id, b!.id, c!.id])
    d.setReading(a!, 10)
    await settled()
    expect([...d.$('.alerts').children].map((li) => li.textContent)).toEqual([`${b!.id} above 95`])
    expect(d.rows.get(a!.id)!.tr.classList.contains('alarm')).toBe(false)
    expect(d.rows.get(a!.id)!.tr.querySelector('.trend')!.textContent).toBe('▼')
    // removing an alarming sensor clears its alert
    d.removeSensors([b!.id])
    await settled()
    expect(d.$('.alerts').children).toHaveLength(0)
    expectDomMatchesModel(d)
    d.destroy()
  })

  it('a sensor written and removed in the same feed batch: its queued renders never reach the detached row', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const d = mountDashboard(root)
    const [a, b] = d.addSensors(300)
    await settled()
    const rowA = d.rows.get(a!.id)!.tr
    const seen = observe(rowA)
    batch(() => {
      d.setReading(a!, 99.5) // queued renders for a's row, an alert
      d.setReading(b!, 97)
      d.removeSensors([a!.id]) // goes offline in the same batch
    })
    await settled()
    expect(seen.stop()).toEqual([])
    expect(rowA.isConnected).toBe(false)
    expect(rowA.querySelector('.value')!.textContent).toBe('50.0')
    expect([...d.$('.alerts').children].map((li) => li.textContent)).toEqual([`${b!.id} above 95`])
    expectDomMatchesModel(d)
    d.destroy()
  })

  it('top-10 follows ties and fewer than ten sensors (hidden entries)', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const d = mountDashboard(root)
    const s = d.addSensors(4)
    batch(() => s.forEach((x, i) => d.setReading(x, 70 + (i % 2))))
    await settled()
    expectDomMatchesModel(d)
    const lis = [...d.$('.top').querySelectorAll('li')]
    expect(lis.filter((li) => li.hidden)).toHaveLength(6)
    d.addSensors(400, 20)
    await settled()
    expect(lis.filter((li) => li.hidden)).toHaveLength(0)
    expectDomMatchesModel(d)
    d.destroy()
  })
})

describe('telemetry dashboard: memory and render errors', () => {
  it('removed rows are collected while their sensors\' signals live on (bindings disposed)', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const d = mountDashboard(root)
    d.addSensors(400)
    await settled()
    const kept = d.sensors.peek().slice(0, 200) // a history panel keeps the sensors, not the rows
    const collected = new Set<string>()
    const registry = new FinalizationRegistry<string>((id) => collected.add(id))
    for (const s of kept) registry.register(d.rows.get(s.id)!.tr, s.id)
    d.removeSensors(kept.map((s) => s.id))
    await settled()
    expect(await collectUntil(() => collected.size === 200)).toBe(true)
    batch(() => kept.forEach((s) => d.setReading(s, 1)))
    await settled()
    expectDomMatchesModel(d)
    d.destroy()
  }, 20_000)

  it('a format that throws for one row is reported (clear message) and the other rows still render', async () => {
    const v = Array.from({ length: 5 }, (_, i) => new Signal<number | null>(i))
    const cells = v.map(() => document.body.appendChild(document.createElement('td')))
    const bs = v.map((s, i) => s.bind(cells[i]!, { format: (x) => x!.toFixed(1) }))
    await settled()
    batch(() => {
      v.forEach((s) => (s.value = s.peek()! + 10))
      v[2]!.value = null // a sensor reporting no value
    })
    await settled()
    expect(cells.map((c) => c.textContent)).toEqual(['10.0', '11.0', '2.0', '13.0', '14.0'])
    // the Vitest harness echoes a reported error through console.error too: count the error events only
    const reported = errors.filter((e) => !Array.isArray(e))
    expect(reported).toHaveLength(1)
    expect(String(reported[0])).toMatch(/TypeError: Cannot read properties of null \(reading 'toFixed'\)/)
    errors = []
    v[2]!.value = 7 // the next good value renders again
    await settled()
    expect(cells[2]!.textContent).toBe('7.0')
    bs.forEach((b) => b.dispose())
  })
})

describe('telemetry dashboard: monitor panel and load shedding', () => {
  let m: Monitor | undefined
  afterEach(() => m?.stop())

  it('a 500 ms block puts the monitor under pressure: the feed sheds to every 4th update, relief restores it', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const d = mountDashboard(root)
    d.addSensors(300)
    await settled()
    const feed = startFeed(d, { perTask: 50, seed: 3, ratePerSec: 5000 })

    // Lag only: on this shared 2-core machine the sampled utilization of a page rendering 300 live rows read
    // 0.85-0.9 (CPU contention reads as late timers), which would hold off 'relief' (util <= 0.45) for good.
    // README: a maxUtilization above 1 never puts the loop under pressure by utilization. A 300 ms limit (relief at
    // 150 ms or less over the whole window) keeps the machine's own stalls, tens to a hundred ms or so, out of it.
    m = monitor({ maxLagMs: 300, maxUtilization: 2 })
    const p99 = new Signal(0)
    const util = new Signal(0)
    const pressure = new Signal(m.underPressure)
    const panel = [
      p99.bind(d.$('.p99'), { format: (v) => `${Math.round(v)} ms` }),
      util.bind(d.$('.util'), { format: (v) => `${Math.round(v * 100)}%` }),
      pressure.bind(d.$('.pressure'), { format: (p) => (p ? 'under pressure' : 'ok') }),
      pressure.bind(d.$('.pressure'), { class: 'hot' }),
    ]
    const events: { type: string; t: number; underPressure: boolean }[] = []
    const t0 = performance.now()
    m.on('pressure', () => {
      events.push({ type: 'pressure', t: performance.now() - t0, underPressure: m!.underPressure })
      pressure.value = true
      feed.setShedding(4)
    })
    m.on('relief', () => {
      events.push({ type: 'relief', t: performance.now() - t0, underPressure: m!.underPressure })
      pressure.value = false
      feed.setShedding(1)
    })
    const poll = setInterval(() => batch(() => { p99.value = m!.lag.p99; util.value = m!.utilization }), 100)

    await sleep(300)
    expect(m.underPressure).toBe(false)
    block(500)
    await sleep(300)
    expect(events.map((e) => e.type)).toEqual(['pressure'])
    expect(events[0]!.underPressure).toBe(true)
    expect(m.lag.max).toBeGreaterThanOrEqual(450)
    await settled()
    expect(d.$('.pressure').textContent).toBe('under pressure')
    expect(d.$('.pressure').classList.contains('hot')).toBe(true)
    expect(Number.parseInt(d.$('.p99').textContent!)).toBeGreaterThan(300)
    const shedBefore = feed.stats.shed
    await sleep(500)
    expect(feed.stats.shed).toBeGreaterThan(shedBefore) // shedding while under pressure
    // relief once the spike leaves the 5 s window
    const deadline = performance.now() + 12_000
    const trace: string[] = []
    while (!events.some((e) => e.type === 'relief') && performance.now() < deadline) {
      await sleep(500)
      trace.push(`${Math.round(performance.now() - t0)}: max ${m.lag.max.toFixed(1)} p99 ${m.lag.p99.toFixed(1)} util ${m.utilization.toFixed(2)} long ${m.longTasks} tasks ${feed.stats.tasks} taskMs ${feed.stats.taskMs.toFixed(0)}`)
    }
    if (!events.some((e) => e.type === 'relief')) console.log(trace.join('\n'))
    expect(events.map((e) => e.type)).toEqual(['pressure', 'relief'])
    expect(m.underPressure).toBe(false)
    expect(feed.shedEvery).toBe(1)
    const shedAfterRelief = feed.stats.shed
    await sleep(300)
    // nothing shed once relieved (unless this shared machine stalled the page again: a new 'pressure' event)
    if (events.length === 2) expect(feed.stats.shed).toBe(shedAfterRelief)
    feed.stop()
    clearInterval(poll)
    await settled()
    expect(d.$('.pressure').textContent).toBe('ok')
    expectDomMatchesModel(d)
    panel.forEach((b) => b.dispose())
    expect(errors).toEqual([])
    d.destroy()
  }, 30_000)
})

describe('telemetry dashboard: heavy actions', () => {
  it('recompute history with loop(): frames advance, the Stop button stops it mid-way, progress is rendered', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const d = mountDashboard(root)
    d.addSensors(300)
    await settled()
    // 300 sensors x 2000 historical samples each: a rolling mean per sensor, one sensor-chunk per step
    const history = d.sensors.peek().map((s, i) => Float64Array.from({ length: 2000 }, (_, k) => ((i * 31 + k * 7) % 1000) / 10))
    const means = new Float64Array(history.length)
    const progress = new Signal(0)
    const pb = progress.bind(d.$('.progress'), { format: (p) => `${p}/${history.length}` })
    let h: ReturnType<typeof loop> | undefined
    let i = 0
    d.$('.recompute').addEventListener('click', () => {
      i = 0
      h = loop(() => {
        const row = history[i]!
        let acc = 0
        for (let k = 0; k < row.length; k++) acc += row[k]!
        block(0.2) // make each step heavy enough to take a while
        means[i] = acc / row.length
        progress.value = ++i
        return i < history.length
      })
    })
    d.$('.stop').addEventListener('click', () => h?.stop())

    let frames = 0
    let counting = true
    const tick = () => { if (counting) (frames++, requestAnimationFrame(tick)) }
    await frame()
    requestAnimationFrame(tick)
    let timerFires = 0
    const iv = setInterval(() => timerFires++, 10)
    d.$<HTMLButtonElement>('.recompute').click()
    await sleep(25)
    d.$<HTMLButtonElement>('.stop').click()
    const n = await h!.done
    counting = false
    clearInterval(iv)
    // 300 steps of >= 0.2 ms = >= 60 ms: stopped after ~25 ms
    expect(n).toBeGreaterThan(0)
    expect(n).toBeLessThan(history.length)
    expect(n).toBe(h!.iterations)
    expect(timerFires).toBeGreaterThan(0)
    await settled()
    expect(d.$('.progress').textContent).toBe(`${n}/${history.length}`)

    // Run it to completion: frames advance during it
    frames = 0
    counting = true
    requestAnimationFrame(tick)
    d.$<HTMLButtonElement>('.recompute').click()
    const total = await h!.done
    counting = false
    expect(total).toBe(history.length)
    expect(frames).toBeGreaterThan(1)
    await settled()
    expect(d.$('.progress').textContent).toBe(`${history.length}/${history.length}`)
    expect(means[299]).toBeCloseTo(history[299]!.reduce((a, b) => a + b, 0) / 2000, 6)
    pb.dispose()
    expect(errors).toEqual([])
    d.destroy()
  }, 20_000)

  it('imports 50k records with yieldToMain(): timers run during the import, the DOM matches at the end', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const d = mountDashboard(root)
    const sensors = d.addSensors(500)
    await settled()
    const records = Array.from({ length: 50_000 }, (_, k) => ({ id: sensors[k % 500]!.id, v: (k % 997) / 10 }))
    let timerFires = 0
    const iv = setInterval(() => timerFires++, 5)
    const imported = new Signal(0)
    const ib = imported.bind(d.$('.progress'))
    let yields = 0
    let longest = 0
    let t = performance.now()
    for (let k = 0; k < records.length; k += 1000) {
      batch(() => {
        for (const r of records.slice(k, k + 1000)) d.setReading(d.byId.get(r.id)!, r.v)
        imported.value = Math.min(k + 1000, records.length)
      })
      longest = Math.max(longest, performance.now() - t)
      await yieldToMain()
      yields++
      t = performance.now()
    }
    clearInterval(iv)
    expect(yields).toBe(50)
    expect(timerFires).toBeGreaterThan(0)
    await settled()
    expect(d.$('.progress').textContent).toBe('50000')
    // last record per sensor wins
    for (let j = 0; j < 500; j++) expect(sensors[j]!.value.peek()).toBe(((49_500 + j) % 997) / 10)
    expectDomMatchesModel(d)
    ib.dispose()
    expect(errors).toEqual([])
    d.destroy()
    console.log(`import: longest chunk ${longest.toFixed(1)} ms, timer fires ${timerFires}`)
  }, 20_000)
})
