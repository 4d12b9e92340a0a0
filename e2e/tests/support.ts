/**
 * What the e2e tests add to the demo page, independently of the page's own code: a requestAnimationFrame counter
 * (registered before the page's scripts, on the native rAF), a log of #loop-status changes, and a log of when
 * input events were issued and handled. All times are `performance.now()` of the page.
 */
import { expect, type Page } from '@playwright/test'

export interface InputRecord {
  type: string
  target: string
  /** When the browser created the event (for CDP input: when the test dispatched it). */
  issued: number
  /** When the page's listeners saw it. */
  handled: number
}

export interface Probe {
  /** `performance.now()` of every animation frame since the page started. */
  frames: number[]
  /** The page's #frame-count, read in the same frame callbacks (NaN before the page drew). */
  pageFrames: number[]
  /** Every text #loop-status showed, with when the change was observed. */
  status: { t: number; text: string }[]
  inputs: InputRecord[]
}

declare global {
  interface Window {
    __probe: Probe
  }
}

/** Installs the probe before any page script runs. */
export async function instrument(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const probe: Probe = { frames: [], pageFrames: [], status: [], inputs: [] }
    window.__probe = probe
    const raf = window.requestAnimationFrame.bind(window)
    const now = performance.now.bind(performance)
    const tick = () => {
      probe.frames.push(now())
      const count = document.getElementById('frame-count')
      probe.pageFrames.push(count ? Number(count.textContent) : NaN)
      raf(tick)
    }
    raf(tick)
    for (const type of ['pointerdown', 'click']) {
      window.addEventListener(
        type,
        (e) => {
          const target = e.target instanceof Element ? e.target.id || e.target.tagName.toLowerCase() : ''
          probe.inputs.push({ type, target, issued: e.timeStamp, handled: now() })
        },
        { capture: true },
      )
    }
    document.addEventListener('DOMContentLoaded', () => {
      const status = document.getElementById('loop-status')
      if (!status) return
      probe.status.push({ t: now(), text: status.textContent ?? '' })
      new MutationObserver(() => probe.status.push({ t: now(), text: status.textContent ?? '' })).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      })
    })
  })
}

/**
 * Opens the demo with the probe installed and waits until the llama has been drawing for a second, so that the
 * second before a run (the tests' idle reference) is all frames of a loaded page.
 */
export async function openDemo(page: Page): Promise<void> {
  await instrument(page)
  await page.goto('/')
  await expect.poll(() => page.evaluate(() => Number(document.getElementById('frame-count')?.textContent)), {
    message: 'the llama draws frames',
  }).toBeGreaterThan(5)
  await page.waitForFunction(() => performance.now() - window.__probe.frames[0]! >= 1000)
}

/** A number as the page shows it, grouped ("1,234.5"), or NaN for anything else ("—"). */
export const num = (text: string | null): number => Number(text?.replace(/,/g, '') || NaN)

export const readProbe = (page: Page): Promise<Probe> => page.evaluate(() => window.__probe)

/** Sets "Run time (seconds)" through its label, as a user would. */
export async function setRunSeconds(page: Page, seconds: number): Promise<void> {
  await page.getByLabel('Run time (seconds)').fill(String(seconds))
}

export interface LoopRun {
  name: string
  runMs: number
  /** When the page showed "Running: <name>". */
  runningAt: number
  /** When the page showed the result sentence. */
  endedAt: number
  probe: Probe
}

/**
 * Clicks the loop button `name` and waits until the page has shown "Running: <name>" (read from the probe's log:
 * a blocking loop can end before a poll of the live text would see it).
 */
export async function startLoop(page: Page, name: string, seconds: number): Promise<void> {
  await setRunSeconds(page, seconds)
  const since = await page.evaluate(() => performance.now())
  await page.getByRole('button', { name, exact: true }).click()
  await page.waitForFunction(
    ([text, since]) => window.__probe.status.some((s) => s.t > since && s.text === text),
    [`Running: ${name}`, since] as const,
  )
}

/** Waits for the result of the loop `name` and returns the probe's logs around it. */
export async function finishLoop(page: Page, name: string, seconds: number): Promise<LoopRun> {
  const status = page.locator('#loop-status')
  await expect(status).not.toHaveText(/^Running/, { timeout: seconds * 1000 + 30_000 })
  await expect(status).toHaveText(new RegExp(`^${name}: `))
  await expect(status).not.toHaveText(/failed/)
  const probe = await readProbe(page)
  const runningAt = probe.status.findLast((s) => s.text === `Running: ${name}`)?.t ?? NaN
  const endedAt = probe.status.findLast((s) => s.text.startsWith(`${name}: `))?.t ?? NaN
  expect(runningAt, 'the page showed "Running" first').toBeLessThan(endedAt)
  return { name, runMs: seconds * 1000, runningAt, endedAt, probe }
}

/** Runs the loop button `name` for `seconds` and waits for its result. */
export async function runLoop(page: Page, name: string, seconds: number): Promise<LoopRun> {
  await startLoop(page, name, seconds)
  return finishLoop(page, name, seconds)
}

/** Frames (ours, and the page's #frame-count) in the interval (from, to]. */
export function framesBetween(probe: Probe, from: number, to: number): { ours: number; page: number } {
  let first = -1
  let last = -1
  for (let i = 0; i < probe.frames.length; i++) {
    const t = probe.frames[i]!
    if (t > from && t <= to) {
      if (first < 0) first = i
      last = i
    }
  }
  if (first < 0) return { ours: 0, page: 0 }
  // Our callback reads the page's counter in the same frame; its delta over the same frames is the page's count.
  const before = first > 0 ? probe.pageFrames[first - 1]! : probe.pageFrames[first]!
  return { ours: last - first + 1, page: probe.pageFrames[last]! - before }
}

/**
 * Sets what the page reads as its visibility and fires the event a browser fires when a tab is hidden or shown
 * (headless Chromium keeps a page behind another tab "visible", though it throttles its timers and frames).
 */
export const setVisibility = (page: Page, hidden: boolean): Promise<void> =>
  page.evaluate((hidden) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden })
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') })
    document.dispatchEvent(new Event('visibilitychange'))
  }, hidden)

/**
 * Hides `page` for `ms`: another tab in front (Chromium throttles this page's timers and frames), and the page told
 * it is hidden; then shows it again.
 */
export async function hideFor(page: Page, ms: number): Promise<void> {
  await setVisibility(page, true)
  const other = await page.context().newPage()
  await other.bringToFront()
  await other.waitForTimeout(ms)
  await page.bringToFront()
  await setVisibility(page, false)
  await other.close()
}

/**
 * Records in `window.__panelAt` when the monitor panel first writes a readout (NaN until then): an init script, added
 * before the page loads with `page.addInitScript(markPanelStart)`.
 */
export function markPanelStart(): void {
  const w = window as unknown as { __panelAt: number }
  w.__panelAt = NaN
  document.addEventListener('DOMContentLoaded', () => {
    const mo = new MutationObserver(() => {
      w.__panelAt = performance.now()
      mo.disconnect()
    })
    mo.observe(document.getElementById('mon-extra')!, { childList: true, characterData: true, subtree: true })
  })
}
