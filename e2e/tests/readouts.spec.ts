/**
 * What a first-time user's trial of the demo found: an FPS readout of 61 on a 60 Hz display, and the monitor reading
 * a background tab's throttled frames as a blocked main thread. Counts and ratios only, on the page's own clock.
 */
import { expect, test } from '@playwright/test'
import { num, openDemo, readProbe } from './support.ts'

test.describe('the FPS readouts', () => {
  test('never show more frames per second than the frames drawn allow (no "61" on a 60 Hz display)', async ({ page }) => {
    await openDemo(page)
    await page.waitForTimeout(1000)
    const readouts: { llama: number; monitor: number }[] = []
    for (let i = 0; i < 30; i++) {
      readouts.push({
        llama: num(await page.locator('#fps').textContent()),
        monitor: num(await page.locator('#mon-fps').textContent()),
      })
      await page.waitForTimeout(97)
    }
    // The display's rate, from our own rAF callback over the same stretch: 1000 / its fastest sustained frame
    // interval (the 10th percentile: a loaded machine drops frames, which only lowers the readouts).
    const { frames } = await readProbe(page)
    const recent = frames.slice(-150)
    const intervals = recent.slice(1).map((t, i) => t - recent[i]!).sort((a, b) => a - b)
    const rate = Math.round(1000 / intervals[Math.floor(intervals.length / 10)]!)
    const over = readouts.filter((r) => r.llama > rate || r.monitor > rate)
    test.info().annotations.push({
      type: 'fps',
      description: `display ${rate} Hz; readouts ${readouts.map((r) => r.llama).join(' ')}`,
    })
    // Numbers, all of them: an empty or "—" readout is NaN, which is above no rate, and passed.
    expect(rate, 'display rate').toBeGreaterThan(0)
    expect(readouts.filter((r) => !(r.llama > 0 && r.monitor > 0)), 'readouts that are no frame rate').toEqual([])
    // 61 frame stamps in [t - 1000, t] span 60 intervals: 60 frames a second, not 61.
    expect(over.length, `readouts above ${rate} fps, of ${readouts.length}`).toBe(0)
  })
})

test.describe('the event-loop monitor, with the tab behind another', () => {
  test("does not read the browser's throttled frames as a blocked main thread", async ({ page }) => {
    await openDemo(page)
    const lagMax = page.locator('#mon-lag-max')
    const long = page.locator('#mon-long-tasks')
    await expect.poll(() => lagMax.textContent().then(num), { timeout: 20_000 }).toBeLessThan(400)
    // Our own measure of the main thread: how late a 50 ms timer chain runs, and the frames Chromium reports long.
    await page.evaluate(() => {
      const w = window as unknown as { __late: number; __loaf: { duration: number; blocking: number }[] }
      w.__late = 0
      w.__loaf = []
      let due = performance.now() + 50
      const tick = () => {
        w.__late = Math.max(w.__late, performance.now() - due)
        due = performance.now() + 50
        setTimeout(tick, 50)
      }
      setTimeout(tick, 50)
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) {
          w.__loaf.push({ duration: e.duration, blocking: (e as unknown as { blockingDuration: number }).blockingDuration })
        }
      }).observe({ type: 'long-animation-frame' })
    })
    const longBefore = num(await long.textContent())
    const newest = () => page.locator('#mon-events li').first().textContent({ timeout: 100 }).catch(() => null)
    const newestBefore = await newest()
    // Another tab in front for 3 s. Headless Chromium keeps this page "visible" (no visibilitychange, so the panel
    // keeps its monitor running) but throttles its frames to about one a second.
    const other = await page.context().newPage()
    await other.bringToFront()
    await other.waitForTimeout(3000)
    await page.bringToFront()
    await other.close()
    await page.waitForTimeout(1000)
    const { late, loaf } = await page.evaluate(() => {
      const w = window as unknown as { __late: number; __loaf: { duration: number; blocking: number }[] }
      return { late: w.__late, loaf: w.__loaf }
    })
    const lag = num(await lagMax.textContent())
    const longAfter = num(await long.textContent())
    test.info().annotations.push({
      type: 'behind another tab',
      description: `timer late by <= ${Math.round(late)} ms; long frames ${loaf.map((f) => `${Math.round(f.duration)} (blocking ${Math.round(f.blocking)})`).join(', ')}; panel: lag max ${lag} ms, long frames ${longBefore} -> ${longAfter}`,
    })
    // The premise: the frames were throttled (long frames with no long task in them: ~1,000 ms each), and the main
    // thread was never blocked (timers ran on time). Both are measured here, and the bounds are fractions of the
    // throttled frame's own length: a loaded machine alone made our timer tens to a few hundred ms late.
    const throttled = Math.max(0, ...loaf.filter((f) => f.blocking === 0).map((f) => f.duration))
    expect(throttled, 'the longest frame that nothing blocked (ms)').toBeGreaterThan(10 * 50)
    expect(late, `ms our 50 ms timer was late at worst, against a throttled frame of ${Math.round(throttled)}`).toBeLessThan(0.4 * throttled)
    // What the panel showed: the lag a timer saw, not a whole throttled frame (~1,015 ms before the fix). The
    // panel's 5 s window can hold a spike from before our timer chain started (a review read 2.09x its worst lag
    // under load), hence the floor well below a throttled frame.
    expect(lag, `lag max shown, against our timer's worst lag (${Math.round(late)} ms)`).toBeLessThan(Math.max(2 * late, 0.4 * throttled))
    // Frames that something did block (the machine's other processes) count, rightly; the throttled ones must not.
    const blocked = loaf.filter((f) => f.blocking > 0).length
    expect(longAfter - longBefore, `long frames counted (${blocked} of the frames seen were blocked)`).toBeLessThanOrEqual(1 + blocked)
    const newestAfter = await newest()
    expect(newestAfter === newestBefore || !/ pressure at /.test(newestAfter!), `the newest event: ${newestAfter}`).toBe(true)
  })
})
