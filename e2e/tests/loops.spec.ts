/**
 * The llama's frames, counted by our own requestAnimationFrame callback (support.ts), stall while a loop holds the
 * main thread and keep coming while a loop yields. The window checked is the last `run time` before the result
 * appears: the loop itself (the page starts it after a short lead) plus the two frames the page waits to measure
 * the gap. The page's #frame-count must agree with our count.
 */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { finishLoop, framesBetween, hideFor, num, openDemo, runLoop, startLoop } from './support.ts'

/** "At most a few frames" over a stalled run: the page waits two frames after the loop before it reports. */
const STALLED_MAX_FRAMES = 5
const MIN_FPS = 20

const stalling = [
  { name: 'Blocking loop', id: 'blocking' },
  { name: 'Microtask loop', id: 'microtask' },
]
/** The row's run length (s, one decimal) is the run time asked for, and what the status line says of the run. */
async function expectRunLength(page: Page, row: Locator, seconds: number): Promise<void> {
  const shown = (await row.locator('[data-col="run"]').textContent())!
  expect(shown, 'run length shown').toMatch(/^\d+\.\d$/)
  // Each loop stops at its first check past the deadline: a little over the time asked for, never under it.
  expect(Number(shown)).toBeGreaterThanOrEqual(seconds)
  expect(Number(shown)).toBeLessThan(seconds + 0.5)
  await expect(page.locator('#loop-status')).toContainText(` for ${shown} s; `)
}

const flowing = [
  { name: 'Non-blocking loop', id: 'nonblocking' },
  { name: 'Cooperative loop', id: 'cooperative' },
  { name: 'Worker loop', id: 'worker' },
]

test.describe('the llama during the loops', () => {
  for (const { name, id } of stalling) {
    test(`freezes during "${name}"`, async ({ page }) => {
      await openDemo(page)
      const seconds = 1.5
      const run = await runLoop(page, name, seconds)
      const during = framesBetween(run.probe, run.endedAt - run.runMs, run.endedAt)
      test.info().annotations.push({ type: 'frames', description: `ours ${during.ours}, page ${during.page} in ${seconds} s` })
      expect(during.ours, `frames drawn during ${seconds} s of "${name}"`).toBeLessThanOrEqual(STALLED_MAX_FRAMES)
      expect(Math.abs(during.page - during.ours), `#frame-count advanced ${during.page}, we counted ${during.ours}`).toBeLessThanOrEqual(1)
      // Frames were flowing before the run: the stall is the loop's doing, not a dead page.
      const before = framesBetween(run.probe, run.runningAt - 1000, run.runningAt)
      expect(before.ours, 'frames in the second before the run').toBeGreaterThanOrEqual(2 * STALLED_MAX_FRAMES)
      // The results row reports the work and a longest frame gap of about the whole run.
      const row = page.locator(`#loop-results tr[data-loop="${id}"]`)
      await expect(row.locator('[data-col="work"]')).toHaveText(/^[1-9][\d,]*$/)
      const gap = num(await row.locator('[data-col="gap"]').textContent())
      expect(gap, 'longest frame gap shown (ms)').toBeGreaterThanOrEqual(seconds * 1000 * 0.9)
      await expectRunLength(page, row, seconds)
    })
  }

  for (const { name, id } of flowing) {
    test(`keeps walking during "${name}" (>= ${MIN_FPS} fps)`, async ({ page }) => {
      await openDemo(page)
      const seconds = 2
      for (let attempt = 1; ; attempt++) {
        const run = await runLoop(page, name, seconds)
        const during = framesBetween(run.probe, run.endedAt - run.runMs, run.endedAt)
        const idle = framesBetween(run.probe, run.runningAt - 1000, run.runningAt).ours
        test.info().annotations.push({
          type: `frames, attempt ${attempt}`,
          description: `ours ${during.ours}, page ${during.page} in ${seconds} s; ${idle} in the idle second before`,
        })
        // A trial under the floor is repeated (at most twice): the claim is about the loop, not about other processes
        // sharing the 2 cores, which can hold frames back while the idle second before looked fine. A loop that
        // blocks draws no frame in any attempt.
        if (during.ours / seconds < MIN_FPS && attempt < 3) continue
        expect(during.ours / seconds, `frames per second during "${name}"`).toBeGreaterThanOrEqual(MIN_FPS)
        // The page's counter agrees with ours (it may lag our callback by a frame at either end).
        expect(Math.abs(during.page - during.ours), `#frame-count advanced ${during.page}, we counted ${during.ours}`).toBeLessThanOrEqual(2)
        break
      }
      const row = page.locator(`#loop-results tr[data-loop="${id}"]`)
      await expect(row.locator('[data-col="work"]')).toHaveText(/^[1-9][\d,]*$/)
      const gap = num(await row.locator('[data-col="gap"]').textContent())
      expect(gap, 'longest frame gap shown (ms)').toBeLessThan(seconds * 1000 * 0.5)
      await expectRunLength(page, row, seconds)
    })
  }

  test('disables all five loop buttons while one runs', async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Run time (seconds)').fill('1')
    await page.getByRole('button', { name: 'Cooperative loop', exact: true }).click()
    for (const { name } of [...stalling, ...flowing]) {
      await expect(page.getByRole('button', { name, exact: true })).toBeDisabled()
    }
    await expect(page.locator('#loop-status')).toHaveText(/^Cooperative loop: /, { timeout: 30_000 })
    for (const { name } of [...stalling, ...flowing]) {
      await expect(page.getByRole('button', { name, exact: true })).toBeEnabled()
    }
  })
})

test.describe('a loop run again', () => {
  test("its row keeps the last run's figures, greyed and busy, until the new ones come; the other rows are not", async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Run time (seconds)').fill('0.5')
    const row = (id: string) => page.locator(`#loop-results tr[data-loop="${id}"]`)
    for (const name of ['Blocking loop', 'Cooperative loop']) {
      await page.getByRole('button', { name, exact: true }).click()
      await expect(page.locator('#loop-status')).toHaveText(new RegExp(`^${name}: `), { timeout: 20_000 })
    }
    const before = await row('cooperative').locator('[data-col="work"]').textContent()
    await expect(row('cooperative')).toHaveAttribute('aria-busy', 'false')
    await page.getByLabel('Run time (seconds)').fill('2')
    await page.getByRole('button', { name: 'Cooperative loop', exact: true }).click()
    await expect(page.locator('#loop-status')).toHaveText('Running: Cooperative loop')
    await expect(row('cooperative')).toHaveAttribute('aria-busy', 'true')
    await expect(row('cooperative')).toHaveClass(/\brerun\b/)
    expect(Number(await row('cooperative').evaluate((tr) => getComputedStyle(tr).opacity))).toBeLessThan(1)
    await expect(row('cooperative').locator('[data-col="work"]')).toHaveText(before!)
    await expect(row('blocking')).toHaveAttribute('aria-busy', 'false')
    await expect(row('blocking')).not.toHaveClass(/\brerun\b/)
    await expect(page.locator('#loop-status')).toHaveText(/^Cooperative loop: /, { timeout: 20_000 })
    await expect(row('cooperative')).toHaveAttribute('aria-busy', 'false')
    await expect(row('cooperative')).not.toHaveClass(/\brerun\b/)
  })
})

test.describe('the worker loop', () => {
  test('runs again after the worker failed to start', async ({ page }) => {
    await openDemo(page)
    const status = page.locator('#loop-status')
    // The first time, the worker's script does not load (a flaky network, a deploy that removed the old chunk).
    await page.route(/\/worker[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }))
    await page.getByLabel('Run time (seconds)').fill('0.5')
    const button = page.getByRole('button', { name: 'Worker loop', exact: true })
    await button.click()
    await expect(status).toHaveText(/^Worker loop failed: /, { timeout: 20_000 })
    await expect(button).toBeEnabled()
    // The script is back: the next click must run the loop, not wait forever on the dead worker.
    await page.unroute(/\/worker[^/]*\.js$/)
    await button.click()
    await expect(status).toHaveText(/^Worker loop: .* work units per second/, { timeout: 20_000 })
    await expect(page.locator('#loop-results tr[data-loop="worker"] [data-col="work"]')).toHaveText(/^[1-9][\d,]*$/)
    await expect(button).toBeEnabled()
  })
})

test.describe('the longest frame gap', () => {
  test('is at least the run time of a loop that froze the page for all of it', async ({ page }) => {
    await openDemo(page)
    const seconds = 0.5
    for (const { name, id } of stalling) {
      await runLoop(page, name, seconds)
      // No frame can be drawn while the loop holds the thread, and it holds it for the whole run time: the gap
      // between the frames before and after it cannot be shorter.
      const gap = num(await page.locator(`#loop-results tr[data-loop="${id}"] [data-col="gap"]`).textContent())
      expect(gap, `longest frame gap shown for "${name}" (ms)`).toBeGreaterThanOrEqual(seconds * 1000)
    }
  })
})

test.describe('a run during which the tab was hidden', () => {
  test('reports no frame gap (a hidden tab draws no frames); the next run does', async ({ page }) => {
    await openDemo(page)
    const gap = page.locator('#loop-results tr[data-loop="cooperative"] [data-col="gap"]')
    await startLoop(page, 'Cooperative loop', 2)
    await hideFor(page, 1000)
    await finishLoop(page, 'Cooperative loop', 2)
    await expect(page.locator('#loop-status')).toHaveText(/; no frame gap: the tab was hidden during the run\.$/)
    await expect(gap).toHaveText('—')
    // Seen whole, the next run measures its gap again.
    await runLoop(page, 'Cooperative loop', 0.5)
    await expect(page.locator('#loop-status')).toHaveText(/; longest frame gap [\d,]+ ms\.$/)
    await expect(gap).toHaveText(/^[\d,]+$/)
  })
})
