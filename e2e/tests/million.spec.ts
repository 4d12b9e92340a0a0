/** The million-update benchmark of the page, with 100,000 updates per signal (the page's quick choice). */
import { expect, test, type Page } from '@playwright/test'
import { num, openDemo } from './support.ts'

const N = 100_000

test.describe('the million-update benchmark', () => {
  test('"Run both" with 100,000 updates: last value in each paragraph, 3 DOM writes coalesced, the ratio', async ({ page }) => {
    await openDemo(page)
    await page.getByRole('button', { name: 'Quick: 100,000' }).click()
    await expect(page.getByLabel('Updates per signal')).toHaveValue(String(N))

    // Our own count of DOM writes under the paragraphs, from before the run to its end.
    await page.evaluate(() => {
      const w = window as unknown as { __paragraphWrites: number }
      w.__paragraphWrites = 0
      const observer = new MutationObserver((list) => (w.__paragraphWrites += list.length))
      for (const id of ['bench-p1', 'bench-p2', 'bench-p3']) {
        observer.observe(document.getElementById(id)!, { childList: true, characterData: true, subtree: true })
      }
    })
    await page.getByRole('button', { name: 'Run both' }).click()
    await expect(page.locator('#bench-ratio')).toHaveText(/^\d+(\.\d)?x faster$/, { timeout: 60_000 })
    await expect(page.locator('#bench-running')).toBeHidden()

    for (const id of ['#bench-p1', '#bench-p2', '#bench-p3']) await expect(page.locator(id)).toHaveText(String(N))

    const results = page.locator('#bench-results')
    await expect(results.locator('caption')).toHaveText('Million-update benchmark')
    const cell = (mode: string, col: string) => results.locator(`tr[data-mode="${mode}"] [data-col="${col}"]`)
    await expect(cell('coalesced', 'dom-writes')).toHaveText('3')
    await expect(cell('every-write', 'dom-writes')).toHaveText((3 * N).toLocaleString('en-US'))
    const everyMs = num(await cell('every-write', 'ms').textContent())
    const coalescedMs = num(await cell('coalesced', 'ms').textContent())
    expect(everyMs).toBeGreaterThan(0)
    // A finite time, 0.0 included (a run under the clock's 0.1 ms tick).
    expect(Number.isFinite(coalescedMs) && coalescedMs >= 0, `coalesced ms ${coalescedMs}`).toBe(true)
    for (const mode of ['every-write', 'coalesced']) {
      expect(num(await cell(mode, 'per-ms').textContent()), `${mode} writes/ms`).toBeGreaterThan(0)
    }
    // The ratio shown is the ratio of the two times shown (rounded as the page rounds them).
    const shown = parseFloat((await page.locator('#bench-ratio').textContent())!)
    const expected = everyMs / Math.max(coalescedMs, 0.1)
    test.info().annotations.push({ type: 'benchmark', description: `${everyMs} ms vs ${coalescedMs} ms, shown ${shown}x` })
    expect(shown).toBeGreaterThan(1)
    expect(Math.abs(shown - expected) / expected, `ratio shown ${shown}, times give ${expected.toFixed(1)}`).toBeLessThan(0.35)

    // What the page counted is what happened: every-write wrote 3N times, coalesced 3 times (a little setup aside).
    const observed = await page.evaluate(() => (window as unknown as { __paragraphWrites: number }).__paragraphWrites)
    expect(observed).toBeGreaterThanOrEqual(3 * N + 3)
    expect(observed).toBeLessThanOrEqual(3 * N + 3 + 6)
  })

  test('shows "running" before the blocking run starts', async ({ page }) => {
    await openDemo(page)
    await page.getByRole('button', { name: 'Quick: 100,000' }).click()
    // Record whether the indicator was visible in a frame painted before the paragraphs changed.
    await page.evaluate(() => {
      const w = window as unknown as { __runningPainted: boolean }
      w.__runningPainted = false
      const p1 = document.getElementById('bench-p1')!
      const start = p1.textContent
      const check = () => {
        if (p1.textContent !== start) return
        if (!document.getElementById('bench-running')!.hidden) w.__runningPainted = true
        requestAnimationFrame(check)
      }
      requestAnimationFrame(check)
    })
    await page.getByRole('button', { name: 'Render on every write' }).click()
    await expect(page.locator('tr[data-mode="every-write"] [data-col="dom-writes"]')).toHaveText((3 * N).toLocaleString('en-US'), {
      timeout: 60_000,
    })
    expect(await page.evaluate(() => (window as unknown as { __runningPainted: boolean }).__runningPainted)).toBe(true)
  })
})

test.describe('"Updates per signal" out of range', () => {
  test('runs the nearest count the input allows (0 runs 1 update, not the million-update default)', async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Updates per signal').fill('0')
    await page.getByRole('button', { name: 'Coalesced', exact: true }).click()
    await expect(page.locator('#bench-status')).toHaveText(/^Coalesced: /, { timeout: 30_000 })
    for (const id of ['#bench-p1', '#bench-p2', '#bench-p3']) await expect(page.locator(id)).toHaveText('1')
    await expect(page.locator('#bench-results tr[data-mode="coalesced"] th')).toHaveText('Coalesced (3 × 1)')
  })
})

test.describe('results of different runs', () => {
  test('a new "Run both" clears the old results: while it runs, no ratio pairs its coalesced time with the last run\'s', async ({ page }) => {
    await openDemo(page)
    await page.getByRole('button', { name: 'Quick: 100,000' }).click()
    const ratio = page.locator('#bench-ratio')
    await page.getByRole('button', { name: 'Run both' }).click()
    await expect(ratio).toHaveText(/^\d+(\.\d)?x faster$/, { timeout: 60_000 })
    await expect(page.locator('#bench-running')).toBeHidden()

    // What the card shows in the frames painted while the second run is on its way (before the blocking half
    // freezes the page, the card is painted with the state it will show for seconds).
    await page.evaluate(() => {
      const w = window as unknown as { __painted: { running: string; ratio: string; every: string }[] }
      w.__painted = []
      const check = () => {
        const row = document.querySelector<HTMLElement>('#bench-results tr[data-mode="every-write"]')
        w.__painted.push({
          running: document.getElementById('bench-running')!.hidden ? '' : document.getElementById('bench-running-text')!.textContent!,
          ratio: document.getElementById('bench-ratio')!.textContent!,
          every: row && row.getClientRects().length ? row.querySelector('[data-col="ms"]')!.textContent! : '',
        })
        requestAnimationFrame(check)
      }
      requestAnimationFrame(check)
    })
    await page.getByRole('button', { name: 'Run both' }).click()
    await expect(page.locator('#bench-status')).toHaveText(/Coalesced is/, { timeout: 60_000 })
    await expect(page.locator('#bench-running')).toBeHidden()
    const painted = await page.evaluate(() => (window as unknown as { __painted: { running: string; ratio: string; every: string }[] }).__painted)
    const during = painted.filter((p) => p.running.startsWith('Running: Render on every write'))
    expect(during.length, 'frames painted before the blocking half').toBeGreaterThan(0)
    // The new coalesced time is known, the new every-write time is not: there is no ratio, and no old time next to it.
    for (const p of during) {
      expect(p.ratio, 'the ratio while the second run is under way').toMatch(/^—/)
      expect(p.every, 'the every-write time shown while it runs again').toBe('')
    }
  })
})

test.describe('results of separate clicks', () => {
  test('a ratio of times from two separate runs says so; one from "Run both" does not', async ({ page }) => {
    await openDemo(page)
    await page.getByRole('button', { name: 'Quick: 100,000' }).click()
    const ratio = page.locator('#bench-ratio')
    const done = (mode: string) => page.locator(`#bench-results tr[data-mode="${mode}"]`)
    for (const name of ['Render on every write', 'Coalesced']) {
      const button = page.getByRole('button', { name, exact: true })
      await button.click()
      await expect(button).toBeEnabled({ timeout: 60_000 })
    }
    await expect(done('every-write')).toBeVisible()
    await expect(done('coalesced')).toBeVisible()
    // Measured at different moments (the coalesced run after the innerHTML run's garbage, not before it).
    await expect(ratio).toHaveText(/^\d+(\.\d)?x faster \(separate runs\)$/)
    await page.getByRole('button', { name: 'Run both' }).click()
    await expect(page.locator('#bench-status')).toHaveText(/Coalesced is/, { timeout: 60_000 })
    await expect(ratio).toHaveText(/^\d+(\.\d)?x faster$/)
  })
})

test.describe('times below the clock tick', () => {
  test('a run that reads 0.0 ms shows no writes/ms and no ratio; any other ratio is the ratio of the table\'s times', async ({ page }) => {
    await openDemo(page)
    // 3 writes of 1 update: shorter than the 0.1 ms the page's clock ticks in (5 µs at best: still 0.0 once rounded).
    await page.getByLabel('Updates per signal').fill('1')
    const status = page.locator('#bench-status')
    const cell = (mode: string, col: string) => page.locator(`#bench-results tr[data-mode="${mode}"] [data-col="${col}"]`)
    let zeros = 0
    const runBoth = page.getByRole('button', { name: 'Run both' })
    for (let attempt = 0; attempt < 8 && zeros < 2; attempt++) {
      await runBoth.click()
      // The buttons are disabled from the click to the end of the run.
      await expect(runBoth).toBeEnabled({ timeout: 30_000 })
      await expect(status).toHaveText(/^Render on every write: .* Coalesced: /)
      const text = (await status.textContent())!
      const ms: Record<string, string> = {}
      for (const mode of ['every-write', 'coalesced']) {
        ms[mode] = (await cell(mode, 'ms').textContent())!
        const perMs = (await cell(mode, 'per-ms').textContent())!
        if (ms[mode] === '0.0') {
          zeros++
          // 3 writes in "0 ms" is no rate at all: 3,000 writes/ms was 3 / 0.001.
          expect(perMs, `${mode}: writes/ms of a 0.0 ms run`).not.toMatch(/^\d/)
        } else {
          // Shown as a whole number: 3 / 0.4 ms = 7.5 shows as 8, within 0.5 (toBeCloseTo's `< 0.5` failed on it).
          const off = Math.abs(num(perMs) - 3 / num(ms[mode]!))
          expect(off, `${mode}: writes/ms ${perMs} = 3 / ${ms[mode]} ms shown, rounded`).toBeLessThanOrEqual(0.5)
        }
      }
      expect(text, 'the status gives no writes/ms for a 0.0 ms run').not.toMatch(/in 0\.0 ms \([\d,.]+ writes\/ms\)/)
      const ratio = (await page.locator('#bench-ratio').textContent())!
      const every = num(ms['every-write']!)
      const coalesced = num(ms.coalesced!)
      // Never "0.0x faster" (3 updates once read 0.1 ms against 2.6 ms), in the ratio or in the status.
      // A 0 not preceded by a digit or a point: "0x" and "0.0x", not "2.0x" or "10x".
      expect(ratio, `ratio of ${every} ms and ${coalesced} ms`).not.toMatch(/(^|[^\d.])0(\.0)?x/)
      expect(text).not.toMatch(/(^|[^\d.])0(\.0)?x/)
      if (every === 0 || coalesced === 0 || (every < 1 && coalesced < 1)) {
        expect(ratio, `ratio of ${every} ms and ${coalesced} ms`).toMatch(/^—/)
        expect(text, 'nor does the status give a ratio').not.toMatch(/Coalesced is [\d.]+x/)
      } else {
        expect(ratio, `ratio of ${every} ms and ${coalesced} ms`).toBe(comparison(every, coalesced))
        expect(text).toContain(`Coalesced is ${ratio}.`)
      }
      await expectGreenOnlyWhenFaster(page)
    }
    expect(zeros, 'runs that read 0.0 ms').toBeGreaterThan(0)
  })

  test('a tiny run whose coalesced time is the longer says "Nx slower", not "0.0x faster", and not in green', async ({ page }) => {
    // The reviewer's run (3 updates: 0.1 ms against 2.6 ms, the coalesced run first, on cold code) made certain:
    // each write of a bench paragraph's textContent (eddy's render; the talk's signal writes innerHTML) takes 5 ms,
    // and each of its innerHTML writes 0.2 ms, so that the 9 of them never read 0.0 ms (the page then gives no
    // ratio at all, and a run here once did). 5 ms, not 2: on a loaded machine the 9 writes once took within 10%
    // of 3 x 2 ms, and the page said "about as fast".
    await page.addInitScript(() => {
      const slow = (proto: object, name: string, ms: number) => {
        const d = Object.getOwnPropertyDescriptor(proto, name)!
        Object.defineProperty(proto, name, {
          ...d,
          set(this: Node, value: string | null) {
            if (this instanceof Element && this.id.startsWith('bench-p')) {
              const t = performance.now()
              while (performance.now() - t < ms);
            }
            d.set!.call(this, value)
          },
        })
      }
      slow(Node.prototype, 'textContent', 5)
      slow(Element.prototype, 'innerHTML', 0.2)
    })
    await openDemo(page)
    await page.getByLabel('Updates per signal').fill('3')
    const runBoth = page.getByRole('button', { name: 'Run both' })
    await runBoth.click()
    await expect(runBoth).toBeEnabled({ timeout: 30_000 })
    const status = page.locator('#bench-status')
    await expect(status).toHaveText(/^Render on every write: .* Coalesced: /)
    const cell = (mode: string) => page.locator(`#bench-results tr[data-mode="${mode}"] [data-col="ms"]`)
    const every = num(await cell('every-write').textContent())
    const coalesced = num(await cell('coalesced').textContent())
    expect(coalesced, 'coalesced ms (3 writes of at least 5 ms)').toBeGreaterThanOrEqual(15)
    expect(every, 'render on every write ms (9 innerHTML writes of at least 0.2 ms)').toBeGreaterThanOrEqual(1.8)
    expect(every, 'render on every write ms').toBeLessThan(coalesced)
    const ratio = page.locator('#bench-ratio')
    await expect(ratio).toHaveText(comparison(every, coalesced))
    await expect(ratio).toHaveText(/^\d+(\.\d)?x slower$/)
    await expect(status).toContainText(`Coalesced is ${comparison(every, coalesced)}.`)
    await expect(status).not.toContainText('faster')
    await expectGreenOnlyWhenFaster(page)
  })
})

/** What #bench-ratio should read for two times as the table shows them (both read, at least one 1 ms or more). */
function comparison(every: number, coalesced: number): string {
  const times = (r: number) => (r >= 10 ? String(Math.round(r)) : r.toFixed(1))
  const x = every / coalesced
  if (times(x) === '1.0' || times(1 / x) === '1.0') return 'about as fast'
  return x > 1 ? `${times(x)}x faster` : `${times(1 / x)}x slower`
}

/** The ratio is in green ("faster" class) when, and only when, it says coalesced was faster. */
async function expectGreenOnlyWhenFaster(page: Page): Promise<void> {
  const ratio = page.locator('#bench-ratio')
  const green = /x faster( \(separate runs\))?$/.test((await ratio.textContent())!)
  if (green) await expect(ratio).toHaveClass(/\bfaster\b/)
  else await expect(ratio).not.toHaveClass(/\bfaster\b/)
  const [color, greenColor] = await ratio.evaluate((el) => {
    const probe = document.createElement('span')
    probe.style.color = 'var(--green)'
    document.body.append(probe)
    const values = [getComputedStyle(el).color, getComputedStyle(probe).color]
    probe.remove()
    return values
  })
  expect(color === greenColor, `ratio "${await ratio.textContent()}" in ${color}`).toBe(green)
}
