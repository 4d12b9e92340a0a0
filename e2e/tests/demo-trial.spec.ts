/**
 * A user trial of the demo page with fresh eyes (conference attendee, developer evaluating eddy, keyboard and
 * screen-reader user). These are the problems it found, each failing on the code as it was before its fix.
 */
import { expect, test, type Page } from '@playwright/test'
import { num, openDemo } from './support.ts'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function runBoth(page: Page): Promise<number> {
  await page.evaluate(() => (document.getElementById('bench-status')!.textContent = ''))
  await page.getByRole('button', { name: 'Run both' }).click()
  await expect(page.locator('#bench-status')).toHaveText(/(Coalesced is .*|Too fast to compare: raise N)\.$/, { timeout: 60_000 })
  // num(): the cell groups thousands ("1,046.2" after a slow first run), which parseFloat reads as 1.
  const ms = num(await page.locator('#bench-results tr[data-mode="coalesced"] [data-col="ms"]').textContent())
  await page.waitForTimeout(500)
  return ms
}

test.describe('the million-update benchmark, clicked again and again', () => {
  test('the first "Run both" on a fresh page times eddy as the next clicks do (it timed cold code: 3-10x slower)', async ({ page }) => {
    test.setTimeout(180_000) // up to three fresh pages of four runs each
    // Before the fix: first 16-31 ms, the later ones 1.6-8.6 ms (3.4x their median at the least; ratio 21-66x on the
    // first click, 106-444x after). After: first 1.1-1.7 ms, later 0.9-3.1 ms. Times this short move with whatever
    // else the 2 cores do (a fresh-clone CI once read 6.1 ms, then 2, 1.1, 1.6): a fresh page that misses is tried
    // again, at most twice. Cold code misses on every one.
    for (let attempt = 1; ; attempt++) {
      // A new page each time: its own cold start (instrumented once).
      const tab = attempt === 1 ? page : await page.context().newPage()
      await openDemo(tab)
      await tab.getByRole('button', { name: 'Quick: 100,000' }).click()
      const times: number[] = []
      for (let i = 0; i < 4; i++) times.push(await runBoth(tab))
      if (tab !== page) await tab.close()
      const [first, ...later] = times
      test.info().annotations.push({ type: `attempt ${attempt}`, description: `coalesced ms per click: ${times.join(', ')}` })
      if (first! > 3 * median(later) && attempt < 3) continue
      expect(first!, `coalesced ms per click: ${times.join(', ')}`).toBeLessThanOrEqual(3 * median(later))
      break
    }
  })
})

test.describe('loading the page', () => {
  test.use({ viewport: { width: 1280, height: 800 } })
  test('shifts no layout by itself (the non-blocking select, filled by script, widened its sentence: CLS 0.029)', async ({ page }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __shifts: { v: number; src: string }[] }
      w.__shifts = []
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources: { node?: Node }[] }[]) {
          if (!e.hadRecentInput) w.__shifts.push({ v: e.value, src: e.sources.map((s) => (s.node as Element | undefined)?.className ?? '?').join('|') })
        }
      }).observe({ type: 'layout-shift', buffered: true })
    })
    await openDemo(page)
    await page.waitForTimeout(1500)
    const shifts = await page.evaluate(() => (window as unknown as { __shifts: { v: number; src: string }[] }).__shifts)
    const cls = shifts.reduce((sum, s) => sum + s.v, 0)
    expect(cls, JSON.stringify(shifts)).toBeLessThan(0.005)
  })
})

test.describe('a developer evaluating eddy', () => {
  test('can find out from the page where the code and its docs are', async ({ page }) => {
    await openDemo(page)
    // The page loads nothing but its own files, so no link out: the footer names where each part lives (the word
    // "README" anywhere on the page passed before).
    const footer = page.locator('footer')
    for (const where of ['packages/signal', 'packages/scheduler', 'demo/README.md']) await expect(footer).toContainText(where)
    await expect(footer).toContainText(/each with\s+a README/)
  })
})

test.describe('a screen-reader user on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  test('hears each loop\'s relative speed, as at desktop widths (the column is display: none at 390 px)', async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Run time (seconds)').fill('0.5')
    for (const name of ['Blocking loop', 'Cooperative loop']) {
      await page.getByRole('button', { name, exact: true }).click()
      await expect(page.locator('#loop-status')).toHaveText(new RegExp(`^${name}: `), { timeout: 20_000 })
    }
    const snapshot = await page.locator('#loop-results').ariaSnapshot()
    expect(snapshot).toMatch(/of the fastest/)
  })
})
