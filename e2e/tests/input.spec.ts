/**
 * When is a click handled while a loop runs? Real input (CDP mouse events, as a user's) on #click-probe, with the
 * time the browser issued each event and the time the page's listeners saw it (support.ts).
 */
import { expect, test, type Page } from '@playwright/test'
import { finishLoop, openDemo, readProbe, runLoop, setRunSeconds, startLoop, type InputRecord } from './support.ts'

/** Where to click the probe; read before a run, since nothing can be read from a blocked page. */
async function probeCenter(page: Page): Promise<{ x: number; y: number }> {
  const box = (await page.locator('#click-probe').boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

const probeClicks = (inputs: InputRecord[]) => inputs.filter((i) => i.type === 'click' && i.target === 'click-probe')

/** After the page shows "Running", it starts the loop after two frames and a 150 ms lead: wait past that. */
const PAST_LEAD_MS = 500

test.describe('input during the loops', () => {
  test('a click during "Blocking loop" is handled only after the loop ends', async ({ page }) => {
    await openDemo(page)
    const seconds = 3
    const at = await probeCenter(page)
    await setRunSeconds(page, seconds)
    // Nothing can be read from a blocked page, so the click is timed from here: the page starts the loop a lead
    // (two frames and 150 ms) after the button's click, and the loop then runs 3 s, so a click 1 s after the
    // button's lands inside it. Whether it did is checked below from the frame log; on a machine so loaded that it
    // did not, the trial is repeated (the claim is only judged on a click that was issued during the loop).
    for (let attempt = 1; ; attempt++) {
      const before = (await readProbe(page)).inputs.length
      await page.getByRole('button', { name: 'Blocking loop', exact: true }).click()
      await page.waitForTimeout(1000)
      // Resolves once the page has taken the input, which a blocked page cannot do before the loop ends.
      await page.mouse.click(at.x, at.y)
      const run = await finishLoop(page, 'Blocking loop', seconds)
      await expect(page.locator('#click-count')).toHaveText(String(attempt))

      const click = probeClicks(run.probe.inputs.slice(before))[0]
      expect(click, 'the probe click reached the page').toBeDefined()
      const frames = run.probe.frames
      const lastFrameBefore = Math.max(...frames.filter((t) => t < click!.issued))
      const firstFrameAfter = Math.min(...frames.filter((t) => t > click!.issued))
      test.info().annotations.push({
        type: `click, attempt ${attempt}`,
        description: `issued ${Math.round(click!.issued - run.runningAt)} ms after "Running", handled ${Math.round(click!.handled - click!.issued)} ms later`,
      })
      // The premise: the click was issued while the page was frozen, inside the loop's frame gap.
      const issuedDuringLoop = firstFrameAfter - lastFrameBefore >= seconds * 1000 * 0.9
      if (!issuedDuringLoop && attempt < 3) continue
      expect(issuedDuringLoop, `a click issued during the loop (attempt ${attempt})`).toBe(true)
      // The loop started after the last frame before the click, so it ended no earlier than that frame + run time:
      // the click was handled after that.
      expect(click!.handled).toBeGreaterThanOrEqual(lastFrameBefore + seconds * 1000)
      break
    }
  })

  test('a click during "Cooperative loop" is handled while it runs, 10x sooner than a loop that never yields', async ({ page }) => {
    await openDemo(page)
    const seconds = 3
    const at = await probeCenter(page)
    await startLoop(page, 'Cooperative loop', seconds)
    await page.waitForTimeout(PAST_LEAD_MS)
    const clicks = 5
    for (let i = 0; i < clicks; i++) {
      await page.mouse.click(at.x, at.y)
      await page.waitForTimeout(150)
    }
    const run = await finishLoop(page, 'Cooperative loop', seconds)
    await expect(page.locator('#click-count')).toHaveText(String(clicks))

    const seen = probeClicks(run.probe.inputs)
    expect(seen).toHaveLength(clicks)
    const delays = seen.map((c) => c.handled - c.issued).sort((a, b) => a - b)
    test.info().annotations.push({ type: 'click delays (ms)', description: delays.map((d) => d.toFixed(1)).join(', ') })
    for (const c of seen) {
      // The premise: issued while the loop ran, and handled while it still ran (not queued until its end).
      expect(c.issued).toBeGreaterThan(run.runningAt)
      expect(c.handled).toBeLessThan(run.endedAt)
    }
    // A ratio of two measurements of the same run: each click's delay against what a loop that never yields would
    // have made it wait, the rest of the run (1.5-2.5 s here). The median of several clicks: one click can always
    // meet a busy moment of a loaded 2-core machine. A loop yielding every 5 ms typically reads well under 0.01.
    const ratios = seen.map((c) => (c.handled - c.issued) / (run.endedAt - c.issued)).sort((a, b) => a - b)
    expect(ratios[clicks >> 1], 'median click delay / the rest of the run').toBeLessThanOrEqual(0.1)
  })
})

test.describe('clicks made while a run froze the page', () => {
  test('start nothing when dispatched after the run ended: the buttons they hit showed disabled', async ({ page }) => {
    await openDemo(page)
    const seconds = 1
    const center = async (name: string) => {
      const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    }
    const cooperative = await center('Cooperative loop')
    const blocking = await center('Blocking loop')
    const cdp = await page.context().newCDPSession(page)
    // A real click, made at `at` (the page's performance.now(); default: now).
    const click = async (where: { x: number; y: number }, clickCount: number, at?: number) => {
      const origin = await page.evaluate(() => performance.timeOrigin)
      for (const type of ['mousePressed', 'mouseReleased'] as const)
        await cdp.send('Input.dispatchMouseEvent', {
          type, x: where.x, y: where.y, button: 'left', clickCount,
          ...(at === undefined ? {} : { timestamp: (origin + at) / 1000 }),
        })
    }
    const run = await runLoop(page, 'Blocking loop', seconds)
    // A click made while the page was frozen is dispatched once the thread is free. It usually reaches the
    // buttons before the run re-enables them, but not always: a review saw one land 57 ms after, and start a run.
    // That case, made certain: clicks made in the middle of the freeze, dispatched after the run's end.
    const { frames } = run.probe
    const gaps = frames.slice(1).map((t, i) => [frames[i]!, t] as const)
    const [from, to] = gaps.reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a))
    expect(to - from, 'the frame gap of the blocking run (ms)').toBeGreaterThanOrEqual(seconds * 1000 * 0.9)
    const frozen = (from + to) / 2
    const since = (await readProbe(page)).inputs.length
    for (const [where, clickCount, at] of [[cooperative, 1, frozen], [blocking, 1, frozen + 100], [blocking, 2, frozen + 200]] as const) {
      await click(where, clickCount, at)
      // The premise: it reached the button, stamped with its time inside the freeze.
      const made = (await readProbe(page)).inputs.slice(since).filter((i) => i.type === 'click')
      expect(made.at(-1)?.issued, 'the click, stamped inside the freeze').toBeCloseTo(at, 0)
      // Nothing started: no "Running" after the blocking run's result, which stays.
      await page.waitForTimeout(300)
      expect((await readProbe(page)).status.filter((s) => s.t > run.endedAt).map((s) => s.text)).toEqual([])
    }
    await expect(page.locator('#loop-status')).toHaveText(/^Blocking loop: /)
    // A click made now starts a run.
    await setRunSeconds(page, 0.5)
    await click(cooperative, 1)
    await finishLoop(page, 'Cooperative loop', 0.5)
  })
})
