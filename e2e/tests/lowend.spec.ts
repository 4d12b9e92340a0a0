/**
 * The demo and both packages on a low-end device (from a user trial): a phone-sized context (360x740, 3x pixels,
 * touch) and Chromium's CPU throttling (CDP Emulation.setCPUThrottlingRate, 4x and 6x). Counts and ratios only:
 * other processes share these 2 cores. Throttling slows the page's main thread only (raster and workers run at full
 * speed), so a real phone is, if anything, worse.
 */
import { expect, test, type CDPSession, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { framesBetween, markPanelStart, num, openDemo, readProbe, runLoop, setRunSeconds, setVisibility } from './support.ts'

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 })

const RATES = [1, 4, 6] as const
const LOADS = Number(process.env.LOWEND_LOADS) || 3

async function throttle(page: Page, rate: number): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate })
  return cdp
}

/** The panel's readouts as text. */
const panel = (page: Page) =>
  page.evaluate(() => {
    const t = (id: string) => document.getElementById(id)!.textContent ?? ''
    return {
      fps: t('mon-fps'),
      p99: t('mon-lag-p99'),
      max: t('mon-lag-max'),
      long: t('mon-long-tasks'),
      pressure: t('mon-pressure'),
      busy: t('mon-extra'),
      events: [...document.querySelectorAll('#mon-events li')].map((li) => li.textContent ?? ''),
    }
  })

/**
 * Our own record of long tasks / long animation frames that blocked something, of when the panel first wrote, and of
 * the latest a 20 ms timer due after that ran (`__lateAfter`, ms).
 */
async function recordLongFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __long: { start: number; end: number; type: string }[]; __panelAt: number; __lateAfter: number }
    w.__long = []
    w.__lateAfter = 0
    let due = performance.now() + 20
    const tick = () => {
      const t = performance.now()
      if (due > w.__panelAt) w.__lateAfter = Math.max(w.__lateAfter, t - due)
      setTimeout(tick, 20)
      due = t + 20
    }
    setTimeout(tick, 20)
    for (const type of ['longtask', 'long-animation-frame']) {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { blockingDuration?: number })[]) {
          if (e.blockingDuration !== 0) w.__long.push({ start: e.startTime, end: e.startTime + e.duration, type })
        }
      }).observe({ type, buffered: true })
    }
  })
  await page.addInitScript(markPanelStart)
}

test.describe('the event-loop monitor on a throttled phone, idle', () => {
  test(`at 4x, a first visit's own start-up raises no lag alarm ("the one-off cost ... does not open the chart with a spike and a pressure alarm", main.ts)`, async ({ browser }) => {
    test.setTimeout(180_000)
    const loads: string[] = []
    let alarms = 0
    // Each load is a first visit: a fresh context (no HTTP or code cache), as a phone opening the link. At 6x the
    // idle page is over the 90% limit by itself (CDP 92-96%), so only 4x (CDP 64-74%, under it) is asked to stay calm.
    // Visits that tested the start-up: with no alarm, or with one our timers do not account for (the bug's mark).
    let tested = 0
    let visits = 0
    while (tested < LOADS && visits < LOADS + 5) {
      visits++
      const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 })
      const page = await context.newPage()
      await throttle(page, 4)
      await recordLongFrames(page)
      await openDemo(page)
      await page.waitForFunction(() => performance.now() - (window as unknown as { __panelAt: number }).__panelAt > 3000)
      const shown = await panel(page)
      const { long, panelAt, lateAfter } = await page.evaluate(() => {
        const w = window as unknown as { __long: { start: number; end: number; type: string }[]; __panelAt: number; __lateAfter: number }
        return { long: w.__long, panelAt: w.__panelAt, lateAfter: w.__lateAfter }
      })
      const straddling = long.filter((e) => e.start < panelAt && e.end >= panelAt - 1)
      // The page was idle: nothing but its own set-up and the llama. Before the fix, a lag alarm named the set-up task
      // in which the monitor was created (80-150 ms at 4x), counted whole as a stall.
      // The lag an alarm named (the highest, if there were several).
      const alarmLag = Math.max(0, ...shown.events.map((e) => Number(/ pressure at lag max ([\d,]+) ms/.exec(e)?.[1]?.replace(/,/g, '') ?? 0)))
      loads.push(`${shown.pressure}, ${shown.events.join(' / ') || 'no event'}; straddling the panel's first write: ${straddling.map((e) => `${e.type} ${Math.round(e.end - e.start)} ms`).join(', ') || 'none'}; our timers due after it late by <= ${Math.round(lateAfter)} ms`)
      await context.close()
      // The bug's mark: an alarm whose lag is the set-up task counted whole, while our own timers, due after the
      // panel's first write, waited only for the rest of that task (idle visits: 50-56 ms late), so the lag named
      // is well over their lateness. An alarm that our timers agree with (within 30 ms, or 1.5x their lateness: the
      // monitor's samples and our 20 ms chain fall at different points of a long stall) is a stall after the set-up
      // that the monitor was right about: another process pinning a core made one of 107 ms at 4x, a fresh-clone
      // CI run read lags of 101, 111 and 113 ms with our timers 103, 98 and 117 ms late, and three processes pinning
      // the 2 cores made 150 ms against 107. Such a visit does not test the start-up: visits go on until LOADS of them
      // have, at most 5 more (under that load 4 visits of 6 alarmed so). The bug showed on 4 visits of 5.
      const stall = alarmLag > 0 && alarmLag <= Math.max(lateAfter + 30, 1.5 * lateAfter)
      if (!stall) tested++
      if (alarmLag > 0 && !stall) alarms++
    }
    test.info().annotations.push({ type: `4x, 3 s after the panel started, ${visits} first visits`, description: loads.join(' | ') })
    // Too busy a machine makes every visit a stall: that is no pass (with a slow bug alarm, it would hide it).
    expect(tested, `first visits that tested the start-up, of ${visits}: ${loads.join(' | ')}`).toBe(LOADS)
    expect(alarms, `first visits of an idle page with a lag alarm: ${loads.join(' | ')}`).toBe(0)
  })

  test('(the fix above) a page set up in a hidden tab starts its monitor when first shown, and it sees a blocking run', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true })
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
    })
    await openDemo(page)
    await page.waitForTimeout(500)
    await setVisibility(page, false)
    await page.waitForTimeout(1000)
    await expect(page.locator('#mon-pressure')).toHaveText('normal')
    await runLoop(page, 'Blocking loop', 1)
    await expect(page.locator('#mon-pressure')).toHaveText('under pressure', { timeout: 5000 })
    await expect.poll(async () => num((await panel(page)).max)).toBeGreaterThanOrEqual(900)
  })
})

test.describe('the event-loop monitor on a busy phone, after a blocking run', () => {
  // A phone's idle page sits between half the 90% utilization limit and the limit (at 4x throttling this page read
  // 64-85% busy, drawing its frames). Throttling does not make that load reliably: at 3.5x the idle page read 59-75%
  // busy on a loaded machine, and 32% in a CI run on an idle one (so the premise below failed). The load here is the
  // page's own, in wall-clock time, so about the same on any machine: 17 ms of work, then a 23 ms timer. With the
  // llama's frames, on an idle machine CDP read the page 59-60% busy and the monitor 57-61%; with another process
  // pinning one of the 2 cores, 67-71% and 67-71%; lag max 24-31 ms, each piece well under half the 100 ms lag limit.
  // (15 ms and a 25 ms timer read as low as 47% once the spike had left, near the premise's 45%; 20 ms and a 20 ms
  // timer read 57-67% idle but 85% beside that process, over the 80% relief mark; 25 ms and a 12 ms timer read 89-93%
  // against CDP's 79%: see the README on periodic loads.) Until the monitor held each measure to its own hysteresis,
  // relief needed both under half their limits and never came on such a page (62% busy, lag max 53: failed; with
  // that rule restored, this test fails at 'normal').
  test('a page kept over half busy reads "normal"; a 2 s blocking run shows a spike and pressure, then the spike leaves and the alarm is relieved ("then returns to normal", README)', async ({ page }) => {
    test.setTimeout(90_000)
    await openDemo(page)
    await page.evaluate(() => {
      const work = () => {
        const end = performance.now() + 17
        while (performance.now() < end);
        setTimeout(work, 23)
      }
      work()
    })
    // The load fills the monitor's 5 s window.
    await page.waitForTimeout(6000)
    const before = await panel(page)
    const busy = (p: typeof before) => num(p.busy.match(/(\d+)%/)![1]!)
    test.info().annotations.push({ type: 'under load, before the run', description: JSON.stringify(before) })
    // The premise: busy over half the 90% limit (or the test would pass on the old rule), and under the limit.
    expect(busy(before), before.busy).toBeGreaterThan(45)
    expect(busy(before), before.busy).toBeLessThan(90)
    expect(before.pressure, JSON.stringify(before)).toBe('normal')
    await runLoop(page, 'Blocking loop', 2)
    await expect.poll(async () => num((await panel(page)).max), { timeout: 10_000 }).toBeGreaterThanOrEqual(1000)
    await expect(page.locator('#mon-pressure')).toHaveText('under pressure')
    // The spike leaves the 5 s window.
    await expect.poll(async () => num((await panel(page)).max), { timeout: 20_000 }).toBeLessThan(500)
    const after = await panel(page)
    test.info().annotations.push({ type: 'once the spike left', description: JSON.stringify(after) })
    expect(busy(after), after.busy).toBeGreaterThan(45)
    // Relief: lag back at or below half its limit (50 ms) over the window; utilization, never over its limit, under it.
    await expect(page.locator('#mon-pressure'), `${after.busy}, lag max ${after.max}`).toHaveText('normal', { timeout: 20_000 })
  })
})

test.describe('the five loops on a throttled phone', () => {
  const rate = 4
  test(`at ${rate}x: the blocking ones freeze, the others keep frames coming, taps are handled, the page says so`, async ({ page }) => {
    test.setTimeout(150_000)
    await throttle(page, rate)
    await openDemo(page)
    const seconds = 1.5
    const report: string[] = []
    const perSecond: Record<string, number> = {}
    for (const [name, id, flows] of [
      ['Blocking loop', 'blocking', false],
      ['Microtask loop', 'microtask', false],
      ['Non-blocking loop', 'nonblocking', true],
      ['Cooperative loop', 'cooperative', true],
      ['Worker loop', 'worker', true],
    ] as const) {
      const run = await runLoop(page, name, seconds)
      const during = framesBetween(run.probe, run.endedAt - run.runMs, run.endedAt).ours
      const idle = framesBetween(run.probe, run.runningAt - 1000, run.runningAt).ours
      const row = page.locator(`#loop-results tr[data-loop="${id}"]`)
      const work = num(await row.locator('[data-col="work"]').textContent())
      const gap = num(await row.locator('[data-col="gap"]').textContent())
      perSecond[id] = work
      report.push(`${id}: ${during} frames in ${seconds} s (idle ${idle}/s), ${work} units/s, gap ${gap} ms`)
      const status = (await page.locator('#loop-status').textContent())!
      expect(status).toMatch(new RegExp(`^${name}: [\\d,]+ work units per second for \\d+\\.\\d s; longest frame gap [\\d,]+ ms`))
      expect(work, `${id} units/s`).toBeGreaterThan(0)
      if (flows) {
        // Frames keep coming: at least a third of the idle rate at the same throttling.
        expect(during / seconds, `${rate}x ${id}: fps during vs idle ${idle}`).toBeGreaterThanOrEqual(idle / 3)
        expect(gap, `${rate}x ${id}: longest gap`).toBeLessThan(seconds * 1000 * 0.5)
      } else {
        expect(during, `${rate}x ${id}: frames during the run`).toBeLessThanOrEqual(5)
        expect(gap, `${rate}x ${id}: longest gap`).toBeGreaterThanOrEqual(seconds * 1000 * 0.9)
      }
    }
    const coop = perSecond.cooperative! / perSecond.blocking!
    test.info().annotations.push({ type: `${rate}x`, description: `${report.join('; ')}; cooperative/blocking ${coop.toFixed(3)}` })
    // The page's point, on a slow phone too: the cooperative loop is smooth and still does many times the work of
    // one unit per turn (its `> 0` followed from the rows' own checks, and checked nothing).
    expect(perSecond.cooperative!, 'cooperative units/s against non-blocking').toBeGreaterThan(5 * perSecond.nonblocking!)
  })

  test(`at ${rate}x: a tap on "Click probe" during "Cooperative loop" is handled while it runs; during "Blocking loop" only after`, async ({ page }) => {
    test.setTimeout(90_000)
    await throttle(page, rate)
    await openDemo(page)
    const count = page.locator('#click-count')
    const results: string[] = []
    for (const [name, handledDuring] of [['Cooperative loop', true], ['Blocking loop', false]] as const) {
      await setRunSeconds(page, 2)
      // The whole llama at the top of the screen: the probe is right under it, and "Blocking loop" on screen too.
      await page.evaluate(() => window.scrollTo(0, document.querySelector('.scene-box')!.getBoundingClientRect().top + scrollY))
      const centre = async (locator: ReturnType<Page['locator']>) => {
        const b = (await locator.boundingBox())!
        expect(b.y >= 0 && b.y + b.height <= 740, 'on screen').toBe(true)
        return [b.x + b.width / 2, b.y + b.height / 2] as const
      }
      const before = num(await count.textContent())
      const running = (n: string) => page.waitForFunction((n) => window.__probe.status.some((s) => s.text === `Running: ${n}`), n)
      let probe: readonly [number, number]
      if (handledDuring) {
        // Below the screen: tapping it scrolls it into view, and the run brings the llama (and the probe) back.
        await page.getByRole('button', { name, exact: true }).tap()
        await running(name)
        probe = await centre(page.locator('#click-probe')) // the page answers during this run
      } else {
        // The page freezes: where the probe is, measured before; the run leaves a whole llama where it is.
        probe = await centre(page.locator('#click-probe'))
        await page.touchscreen.tap(...(await centre(page.getByRole('button', { name, exact: true }))))
        await running(name)
      }
      // Well inside the 2 s run: a blocking run starts ~2 frames + 150 ms after "Running" (300 ms or so at 4x).
      await page.waitForTimeout(1000)
      // A raw touch, as a finger does (the loop may be holding the thread: no waiting on the page).
      const tapped = page.touchscreen.tap(...probe)
      await expect(page.locator('#loop-status')).toHaveText(new RegExp(`^${name}: `), { timeout: 30_000 })
      await tapped
      await expect(count).toHaveText(String(before + 1))
      const { inputs, status } = await readProbe(page)
      const ended = status.findLast((s) => s.text.startsWith(`${name}: `))!.t
      const runningAt = status.findLast((s) => s.text === `Running: ${name}`)!.t
      const click = inputs.findLast((i) => i.type === 'click')!
      results.push(`${name}: tap on ${click.target} handled ${Math.round(ended - click.handled)} ms before the result`)
      if (handledDuring) expect(click.handled, `${rate}x: handled before the run ended`).toBeLessThan(ended)
      else expect(click.handled, `${rate}x: handled only once the 2 s run was over`).toBeGreaterThan(runningAt + 2000)
    }
    test.info().annotations.push({ type: `${rate}x taps`, description: results.join('; ') })
  })

  test(`at ${rate}x: a tap on a busy (aria-disabled) button starts nothing, whether the page is responsive or frozen`, async ({ page }) => {
    test.setTimeout(90_000)
    await throttle(page, rate)
    await openDemo(page)
    const status = page.locator('#loop-status')
    const centre = async (name: string) => {
      const b = (await page.getByRole('button', { name, exact: true }).boundingBox())!
      return [b.x + b.width / 2, b.y + b.height / 2] as const
    }
    const blocking = await centre('Blocking loop')
    const worker = await centre('Worker loop')
    // Responsive: the cooperative loop runs; taps on two other loop buttons and on "Run both".
    await setRunSeconds(page, 2)
    await page.getByRole('button', { name: 'Cooperative loop', exact: true }).tap()
    await expect(status).toHaveText('Running: Cooperative loop')
    await expect(page.getByRole('button', { name: 'Blocking loop', exact: true })).toHaveAttribute('aria-disabled', 'true')
    await page.touchscreen.tap(...blocking)
    await page.touchscreen.tap(...worker)
    await expect(status).toHaveText('Running: Cooperative loop')
    await expect(status).toHaveText(/^Cooperative loop: /, { timeout: 30_000 })
    await page.waitForTimeout(1000)
    await expect(status).toHaveText(/^Cooperative loop: /)
    // Frozen: the blocking loop holds the thread; a tap on "Worker loop" is dispatched once it is free.
    await page.getByRole('button', { name: 'Blocking loop', exact: true }).tap()
    await page.waitForFunction(() => window.__probe.status.some((s) => s.text === 'Running: Blocking loop'))
    await page.waitForTimeout(600)
    await page.touchscreen.tap(...worker)
    await expect(status).toHaveText(/^Blocking loop: /, { timeout: 30_000 })
    await page.waitForTimeout(1500)
    const { status: log } = await readProbe(page)
    expect(log.filter((s) => s.text.startsWith('Running: ')).map((s) => s.text)).toEqual(['Running: Cooperative loop', 'Running: Blocking loop'])
  })
})

test.describe('touch targets on a 360 px phone', () => {
  test('a tap on any loop button brings the whole llama on screen before the run starts (tap, then watch it)', async ({ page }) => {
    // At 360x740 the whole llama and the Microtask, Cooperative or Worker button do not fit on one screen (773, 864
    // and 935 px from the llama's top to the button's bottom): a run was started out of sight of the llama.
    await openDemo(page)
    await setRunSeconds(page, 0.5)
    const seen: string[] = []
    for (const name of ['Blocking loop', 'Non-blocking loop', 'Microtask loop', 'Cooperative loop', 'Worker loop']) {
      const button = page.getByRole('button', { name, exact: true })
      await button.scrollIntoViewIfNeeded()
      const before = await page.evaluate(() => window.__probe.status.length)
      await button.tap()
      await page.waitForFunction(([n, k]) => window.__probe.status.slice(k).some((s) => s.text === `Running: ${n}`), [name, before] as const)
      const box = await page.locator('.scene-box').evaluate((el) => {
        const r = el.getBoundingClientRect()
        return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: innerHeight }
      })
      if (box.top < 0 || box.bottom > box.height) seen.push(`${name}: llama at ${box.top}..${box.bottom} of ${box.height}`)
      const at = await page.evaluate(() => scrollY)
      await expect(page.locator('#loop-status')).toHaveText(new RegExp(`^${name}: `), { timeout: 30_000 })
      // The page is left where the run put it (README): no jump back to the button when the run ends.
      await page.waitForTimeout(300)
      const after = await page.evaluate(() => scrollY)
      if (after !== at) seen.push(`${name}: scrolled from ${at} to ${after} when the run ended`)
    }
    expect(seen, 'runs started with the llama not whole on screen').toEqual([])
  })

  test('no horizontal scroll, no two controls overlap, every control >= 24x24 CSS px (but inline ones), all within 360 px', async ({ page }) => {
    await openDemo(page)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow, 'px of horizontal overflow').toBeLessThanOrEqual(0)
    const boxes = await page.locator('button, input, select, summary, a[href], label').evaluateAll((els) =>
      els
        .filter((el) => (el as HTMLElement).offsetParent)
        .map((el) => {
          const r = el.getBoundingClientRect()
          return { what: (el.id || el.textContent || el.tagName).trim().slice(0, 30), tag: el.tagName, inline: !!el.closest('p, li'), x: r.x, y: r.y, w: r.width, h: r.height, label: el.tagName === 'LABEL' ? el.contains(el.querySelector('input,select')) : false }
        }),
    )
    const controls = boxes.filter((b) => b.tag !== 'LABEL')
    const small = controls.filter((b) => !b.inline && (b.w < 24 || b.h < 24)).map((b) => `${b.what} ${b.w.toFixed(0)}x${b.h.toFixed(0)}`)
    expect(small).toEqual([])
    const overlaps: string[] = []
    for (let i = 0; i < controls.length; i++)
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i]!
        const b = controls[j]!
        const ix = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)
        const iy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y)
        if (ix > 1 && iy > 1) overlaps.push(`${a.what} / ${b.what}`)
      }
    expect(overlaps).toEqual([])
    const offscreen = controls.filter((b) => b.x < 0 || b.x + b.w > 360).map((b) => b.what)
    expect(offscreen).toEqual([])
  })
})

const SCHEDULER = readFileSync(new URL('../../packages/scheduler/dist/index.js', import.meta.url), 'utf8')

/** Serves the built @eddy/scheduler at /__lowend/scheduler.js and, at /__lowend/blank.html, a page with nothing else. */
async function serveScheduler(page: Page): Promise<void> {
  await page.route('**/__lowend/**', (route) =>
    route.request().url().endsWith('scheduler.js')
      ? route.fulfill({ contentType: 'text/javascript', body: SCHEDULER })
      : route.fulfill({ contentType: 'text/html', body: '<!doctype html><meta name="viewport" content="width=device-width"><title>blank</title>' }),
  )
}

interface ProbeResult {
  idleWorst: number
  loopWorst: number
  loopSteps: number
  queueSlices: number
  queueMaxSlice: number
  queueP50Slice: number
}

/** In the page: a 1 ms timer chain's worst delay idle and beside loop(); then a createQueue backlog's slices. */
const probeScheduler = (page: Page): Promise<ProbeResult> =>
  page.evaluate(async () => {
    const S = await import(/* @vite-ignore */ '/__lowend/scheduler.js' as string)
    const hash = (n: number) => {
      let x = n | 0
      for (let i = 0; i < 256; i++) x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + i) | 0
      return x
    }
    const chain = (ms: number) =>
      new Promise<number>((resolve) => {
        let worst = 0
        const end = performance.now() + ms
        let due = performance.now() + 1
        const tick = () => {
          const t = performance.now()
          worst = Math.max(worst, t - due)
          if (t > end) return resolve(worst)
          due = t + 1
          setTimeout(tick, 1)
        }
        setTimeout(tick, 1)
      })
    const idleWorst = await chain(2000)
    let seed = 1
    let loopSteps = 0
    const l = S.loop(() => {
      for (let i = 0; i < 8; i++) seed = hash(seed)
      loopSteps++
    }, { budgetMs: 5 })
    const loopWorst = await chain(2000)
    l.stop()
    await l.done
    // A backlog of 4,000 callbacks of fixed CPU work on a 5 ms queue; a 1 ms timer chain marks the slices.
    const q = S.createQueue({ budgetMs: 5 })
    const ran: number[] = []
    const fires: number[] = []
    let stop = false
    const tick = () => {
      fires.push(performance.now())
      if (!stop) setTimeout(tick, 1)
    }
    setTimeout(tick, 1)
    await new Promise<void>((resolve) => {
      for (let i = 0; i < 4000; i++)
        q.macrotask(() => {
          for (let k = 0; k < 8; k++) seed = hash(seed)
          ran.push(performance.now())
          if (ran.length === 4000) resolve()
        })
    })
    stop = true
    const slices: number[] = []
    let f = 0
    let first = ran[0]!
    let last = ran[0]!
    for (const t of ran) {
      let crossed = false
      while (f < fires.length && fires[f]! < t) (f++), (crossed = true)
      if (crossed) slices.push(last - first), (first = t)
      last = t
    }
    slices.push(last - first)
    const sorted = [...slices].sort((a, b) => a - b)
    return { idleWorst, loopWorst, loopSteps, queueSlices: slices.length, queueMaxSlice: sorted.at(-1)!, queueP50Slice: sorted[sorted.length >> 1]! }
  })

test.describe('loop() and createQueue() under CPU throttling', () => {
  // The demo page too held by median, but its 30-70 ms frames at 4x put one round in three at +29 ms: a blank page.
  test(`in a blank page: a 1 ms timer waits at most budgetMs + 10 ms more beside loop() than idle, at 1x, 4x and 6x; queue slices stay near 5 ms`, async ({ page }) => {
    test.setTimeout(240_000)
    await serveScheduler(page)
    for (const rate of RATES) {
      const cdp = await throttle(page, rate)
      await page.goto('/__lowend/blank.html')
      // Five rounds; the median of each figure (one worst delay is one sample of a noisy 2-core machine: at 6x one
      // round read 36.5 ms beside loop() against 8.8 idle, and with three rounds, two such rounds on a loaded machine
      // made a median of +21 ms, where the others read +4 to +11).
      const rounds: ProbeResult[] = []
      for (let i = 0; i < 5; i++) rounds.push(await probeScheduler(page))
      const med = (f: (r: ProbeResult) => number) => rounds.map(f).sort((a, b) => a - b)[2]!
      const extra = med((r) => r.loopWorst - r.idleWorst)
      const row = `${rate}x: idle worst ${rounds.map((r) => r.idleWorst.toFixed(1)).join('/')} ms, beside loop() ${rounds.map((r) => r.loopWorst.toFixed(1)).join('/')} ms (${med((r) => r.loopSteps)} steps); queue median slice ${med((r) => r.queueP50Slice).toFixed(1)} ms, max ${med((r) => r.queueMaxSlice).toFixed(1)} ms`
      await cdp.detach()
      // Each rate's figures go out before its checks, so a failure shows them.
      test.info().annotations.push({ type: `a blank page at ${rate}x`, description: row })
      // README (scheduler): "timers wait at most about a budget more than on an idle page (the target is budgetMs + 10 ms)".
      expect(extra, `${rate}x: extra worst delay beside loop() (median of 5)`).toBeLessThanOrEqual(5 + 10)
      // The queue's median slice is its budget: throttled callbacks are slower, and it reads the clock often enough.
      expect(med((r) => r.queueP50Slice), `${rate}x: median queue slice`).toBeLessThanOrEqual(5 * 2)
    }
  })
})
