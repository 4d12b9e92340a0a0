/**
 * The demo page for a keyboard-only user and a screen-reader user, in Chromium (from a user trial: the "fixed"
 * group failed on the demo before its fixes). What a screen reader
 * reads is taken from Chromium's own accessibility tree (CDP), not from Playwright's computation. No time is
 * asserted in absolute terms: only counts, orders and ratios.
 */
import { expect, test, type Page } from '@playwright/test'
import { openDemo } from './support.ts'

/** Name, description and properties of the first node Chromium's accessibility tree has for `selector`. */
async function ax(page: Page, selector: string) {
  const cdp = await page.context().newCDPSession(page)
  const { root } = await cdp.send('DOM.getDocument')
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false })
  const n = nodes[0]!
  await cdp.detach()
  return {
    role: n.role?.value as string,
    name: (n.name?.value ?? '') as string,
    description: (n.description?.value ?? '') as string,
    props: Object.fromEntries((n.properties ?? []).map((p) => [p.name, p.value.value])) as Record<string, unknown>,
  }
}

/** Chromium's whole accessibility tree, unignored nodes only. */
async function axTree(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  const { nodes } = await cdp.send('Accessibility.getFullAXTree')
  await cdp.detach()
  return nodes
    .filter((n) => !n.ignored)
    .map((n) => ({
      role: n.role?.value as string,
      // Spaces as a screen reader reads them (the page uses no-break spaces in a few names).
      name: ((n.name?.value ?? '') as string).replace(/\s+/g, ' '),
      props: Object.fromEntries((n.properties ?? []).map((p) => [p.name, p.value.value])) as Record<string, unknown>,
    }))
}

/**
 * Every visible element with text of its own whose WCAG contrast ratio is under 4.5 (3 for large text), computed from
 * the computed colours: the backgrounds of the element and its ancestors composited (alpha included) up to the
 * first opaque one, then the text colour over them. Disabled controls, SVG and visually-hidden text are exempt.
 */
const lowContrast = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.createElement('canvas')
    canvas.width = canvas.height = 1
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!
    const paint = (colors: string[]) => {
      ctx.clearRect(0, 0, 1, 1)
      for (const c of ['#fff', ...colors]) {
        ctx.fillStyle = c
        ctx.fillRect(0, 0, 1, 1)
      }
      return [...ctx.getImageData(0, 0, 1, 1).data]
    }
    const opaque = (c: string) => {
      ctx.clearRect(0, 0, 1, 1)
      ctx.fillStyle = c
      ctx.fillRect(0, 0, 1, 1)
      return ctx.getImageData(0, 0, 1, 1).data[3] === 255
    }
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
      return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!)
    }
    const out: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!el.offsetParent || el.closest('svg, [disabled], [aria-disabled="true"], .visually-hidden')) continue
      if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim())) continue
      const cs = getComputedStyle(el)
      if (cs.visibility === 'hidden') continue
      const layers: string[] = []
      for (let n: Element | null = el; n; n = n.parentElement) {
        const c = getComputedStyle(n).backgroundColor
        layers.unshift(c)
        if (opaque(c)) break
      }
      const bg = paint(layers)
      const fg = paint([...layers, cs.color])
      const [a, b] = [lum(fg), lum(bg)]
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
      const px = parseFloat(cs.fontSize)
      const large = px >= 24 || (px >= 18.66 && Number(cs.fontWeight) >= 700)
      if (ratio < (large ? 3 : 4.5)) {
        out.push(`#${el.id || el.className} "${el.textContent!.trim().slice(0, 24)}" ${ratio.toFixed(2)}:1`)
      }
    }
    return out
  })

/** Installs a log of every text change of every live region (explicit aria-live, the live roles, and <output>). */
async function logLiveRegions(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: { t: number; id: string; text: string }[] = []
    ;(window as unknown as { __live: typeof log }).__live = log
    document.addEventListener('DOMContentLoaded', () => {
      const live = '[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log], [role=timer], [role=marquee], output'
      for (const region of document.querySelectorAll(live)) {
        let last = region.textContent
        new MutationObserver(() => {
          if (region.textContent === last) return
          last = region.textContent
          log.push({ t: performance.now(), id: region.id || region.className, text: (last ?? '').replace(/\s+/g, ' ').trim() })
        }).observe(region, { childList: true, characterData: true, subtree: true })
      }
    })
  })
}
const liveLog = (page: Page) =>
  page.evaluate(() => (window as unknown as { __live: { t: number; id: string; text: string }[] }).__live.slice())

/** The most changes in any 1 s window. */
const perSecondPeak = (log: { t: number }[]) => Math.max(0, ...log.map((a) => log.filter((b) => b.t >= a.t && b.t < a.t + 1000).length))

// ---------------------------------------------------------------------------------------------------------------
// What held up
// ---------------------------------------------------------------------------------------------------------------

test.describe('keyboard only: what held up', () => {
  test('Tab visits every control once, in reading order, each with a visible focus ring, then leaves the page (no trap)', async ({ page }) => {
    await openDemo(page)
    const expected = await page
      .locator('a[href], button, input, select, summary')
      .evaluateAll((els) => els.filter((el) => (el as HTMLElement).offsetParent || el.matches('.skip')).length)
    const seen: string[] = []
    for (let i = 0; i < expected + 2; i++) {
      await page.keyboard.press('Tab')
      const it = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement
        if (a === document.body || !a) return null
        const cs = getComputedStyle(a)
        const ring = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 1
        return `${a.tagName.toLowerCase()} ${a.id || a.textContent!.trim().slice(0, 20)} ring=${ring && a.matches(':focus-visible')}`
      })
      if (!it) break
      seen.push(it)
    }
    expect(seen, 'each control once').toHaveLength(expected)
    expect(new Set(seen).size).toBe(expected)
    expect(seen.filter((s) => !s.endsWith('ring=true')), 'controls without a visible ring').toEqual([])
    // The one after the last: the focus has left the page's controls, it is not held.
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true)
    await page.keyboard.press('Shift+Tab')
    await expect(page.getByRole('button', { name: '+1,000 writes' })).toBeFocused()
  })

  test('the skip link shows when focused and takes Tab to the loops\' first control', async ({ page }) => {
    await openDemo(page)
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to the loops' })
    await expect(skip).toBeFocused()
    expect((await skip.boundingBox())!.y, 'on screen once focused').toBeGreaterThanOrEqual(0)
    await page.keyboard.press('Enter')
    // Focus moves to the section's heading (a screen reader reads on from there), not only the scroll.
    await expect(page.getByRole('heading', { name: 'Five ways to loop' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByLabel('Run time (seconds)')).toBeFocused()
  })

  test('Enter and Space operate the probe, the disclosure and a run; the select changes with the arrow keys', async ({ page }) => {
    await openDemo(page)
    const probe = page.getByRole('button', { name: 'Click probe' })
    await probe.focus()
    await page.keyboard.press('Enter')
    await page.keyboard.press('Space')
    await expect(page.locator('#click-count')).toHaveText('2')
    const details = page.locator('details.lessons')
    await page.getByText('What to look for').focus()
    await page.keyboard.press('Enter')
    await expect(details).not.toHaveAttribute('open')
    await page.keyboard.press('Space')
    await expect(details).toHaveAttribute('open')
    const select = page.getByRole('combobox', { name: 'Non-blocking via' })
    const before = await select.inputValue()
    await select.focus()
    await page.keyboard.press('ArrowDown')
    await expect(select).not.toHaveValue(before)
    await page.getByLabel('Run time (seconds)').fill('0.5')
    const coop = page.getByRole('button', { name: 'Cooperative loop', exact: true })
    await coop.focus()
    await page.keyboard.press('Space')
    await expect(page.locator('#loop-status')).toHaveText(/^Cooperative loop: /, { timeout: 20_000 })
  })

  test('during a run started from the keyboard, Tab and Shift+Tab move on from the button, not from the top', async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Run time (seconds)').fill('2')
    const coop = page.getByRole('button', { name: 'Cooperative loop', exact: true })
    await coop.focus()
    await page.keyboard.press('Enter')
    await expect(coop).toBeDisabled()
    // Where the focus goes relative to the button: 'after' or 'before' it in the page.
    const where = () =>
      coop.evaluate((b) => {
        const a = document.activeElement!
        return a === document.body ? 'body' : b.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING ? 'after' : 'before'
      })
    await page.keyboard.press('Tab')
    expect(await where(), 'Tab').toBe('after')
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Shift+Tab')
    expect(await where(), 'Shift+Tab twice').toBe('before')
    await page.evaluate(() => document.activeElement!.setAttribute('data-trial-moved', ''))
    await expect(page.locator('#loop-status')).toHaveText(/^Cooperative loop: /, { timeout: 20_000 })
    // The user moved on: the end of the run does not pull the focus back.
    await page.waitForTimeout(300)
    expect(await page.evaluate(() => document.activeElement!.hasAttribute('data-trial-moved'))).toBe(true)
  })

  test('a button given the focus back after its run shows the focus ring (blocking and cooperative)', async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Run time (seconds)').fill('0.5')
    for (const name of ['Blocking loop', 'Cooperative loop']) {
      const button = page.getByRole('button', { name, exact: true })
      await button.focus()
      await page.keyboard.press('Enter')
      await expect(page.locator('#loop-status')).toHaveText(new RegExp(`^${name}: `), { timeout: 20_000 })
      await expect(button).toBeFocused()
      expect(await button.evaluate((b) => b.matches(':focus-visible') && getComputedStyle(b).outlineStyle)).toBe('solid')
    }
  })
})

test.describe('screen reader: what held up', () => {
  test('one h1, h2 per card, h3 inside cards; banner, main, contentinfo and a named region per card', async ({ page }) => {
    await openDemo(page)
    const tree = await axTree(page)
    // Chromium's tree lists nodes in its own order: the levels and names from it, the order from the DOM.
    const inTree = tree.filter((n) => n.role === 'heading').map((n) => `${n.props.level} ${n.name}`)
    const inPage = await page
      .locator('h1, h2, h3, h4, h5, h6')
      .evaluateAll((hs) => hs.map((h) => `${h.tagName[1]} ${h.textContent!.replace(/\s+/g, ' ').trim()}`))
    expect(inTree.sort()).toEqual([...inPage].sort())
    expect(inPage).toEqual([
      '1 The event loop, made visible',
      '2 The llama',
      '2 Five ways to loop',
      '2 Event-loop monitor',
      "3 Pressure events (monitor.on('pressure' | 'relief'))",
      '2 The million-update benchmark',
      '3 Why eddy writes textContent, not innerHTML',
      '2 Signals 101',
    ])
    const landmarks = tree.filter((n) => ['banner', 'main', 'contentinfo', 'region', 'complementary'].includes(n.role))
    expect(landmarks.map((n) => `${n.role} ${n.name}`).sort()).toEqual(
      [
        'banner ',
        'main ',
        'contentinfo ',
        'region The llama',
        'region Five ways to loop',
        'region Event-loop monitor',
        'region The million-update benchmark',
        'region Signals 101',
        'complementary Why eddy writes textContent, not innerHTML',
      ].sort(),
    )
  })

  test('every button, field, select and image has a name; the llama and the chart have text alternatives', async ({ page }) => {
    await openDemo(page)
    const tree = await axTree(page)
    const named = tree.filter((n) => ['button', 'spinbutton', 'textbox', 'combobox', 'image', 'link', 'DisclosureTriangle'].includes(n.role))
    expect(named.length).toBeGreaterThanOrEqual(18)
    expect(named.filter((n) => !n.name.trim()).map((n) => n.role)).toEqual([])
    expect((await ax(page, '#llama')).name).toMatch(/llama/i)
    expect((await ax(page, '#mon-chart')).name).toMatch(/lag/i)
  })

  test('both results tables have a caption, column headers, and a row header per row', async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Run time (seconds)').fill('0.5')
    await page.getByRole('button', { name: 'Cooperative loop', exact: true }).click()
    await expect(page.locator('#loop-status')).toHaveText(/^Cooperative loop: /, { timeout: 20_000 })
    await page.getByRole('button', { name: 'Quick: 100,000' }).click()
    await page.getByRole('button', { name: 'Run both' }).click()
    await expect(page.locator('#bench-status')).toHaveText(/(Coalesced is .*|Too fast to compare: raise N)\.$/, { timeout: 60_000 })
    expect((await ax(page, '#loop-results')).name).toBe('Loop results')
    expect((await ax(page, '#bench-results')).name).toBe('Million-update benchmark')
    const tree = await axTree(page)
    expect(tree.filter((n) => n.role === 'columnheader').map((n) => n.name)).toEqual([
      'Loop', 'Run length in seconds', 'Work units per second', 'Longest frame gap in milliseconds', 'Relative speed',
      'Mode', 'ms', 'Writes/ms', 'DOM writes',
    ])
    expect(tree.filter((n) => n.role === 'rowheader').map((n) => n.name)).toEqual([
      'Cooperative loop', 'Render on every write (3 × 100,000)', 'Coalesced (3 × 100,000)',
    ])
  })

  test('live regions: nothing while idle; each run announces its start and its end, a handful a second at most', async ({ page }) => {
    await logLiveRegions(page)
    await openDemo(page)
    // The llama's frame counter and fps, and the monitor's figures, change many times a second: none is live.
    await page.waitForTimeout(1500)
    expect(await liveLog(page), 'announcements while idle').toEqual([])
    await page.getByLabel('Run time (seconds)').fill('1')
    for (const name of ['Blocking loop', 'Cooperative loop', 'Microtask loop', 'Non-blocking loop']) {
      const since = (await liveLog(page)).length
      await page.getByRole('button', { name, exact: true }).click()
      await expect(page.locator('#loop-status')).toHaveText(new RegExp(`^${name}: `), { timeout: 20_000 })
      const run = (await liveLog(page)).slice(since)
      expect(run.map((e) => e.text.split(':')[0]), `${name}: start, then end`).toEqual(['Running', name])
    }
    const since = (await liveLog(page)).length
    await page.getByRole('button', { name: 'Quick: 100,000' }).click()
    await page.getByRole('button', { name: 'Run both' }).click()
    await expect(page.locator('#bench-status')).toHaveText(/(Coalesced is .*|Too fast to compare: raise N)\.$/, { timeout: 60_000 })
    const bench = (await liveLog(page)).slice(since)
    // 300,000 signal writes and 300,000 innerHTML writes: three announcements.
    expect(bench.map((e) => e.text.slice(0, 20))).toEqual(['Running: Coalesced', 'Running: Render on e', expect.stringMatching(/^Render on every wri/)])
    expect(perSecondPeak(await liveLog(page)), 'most announcements in any second').toBeLessThanOrEqual(3)
  })

  test('"+1,000 writes" is announced once per region (the thousand writes coalesce), not a thousand times', async ({ page }) => {
    await logLiveRegions(page)
    await openDemo(page)
    await page.getByRole('button', { name: '+1,000 writes' }).click()
    await expect(page.locator('#count')).toHaveText('1000')
    await page.waitForTimeout(200)
    const log = await liveLog(page)
    expect(log.filter((e) => /^(count|doubled)/.test(e.id) || /\bCount\b/.test(e.text)).length).toBeLessThanOrEqual(2)
  })
})

test.describe('display settings: what held up', () => {
  test('reduced motion: the spinner and the bars do not animate', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await openDemo(page)
    const styles = await page.evaluate(() => ({
      spinner: getComputedStyle(document.querySelector('.spinner')!).animationName,
      bar: getComputedStyle(document.querySelector('.bar')!).transitionDuration,
    }))
    expect(styles).toEqual({ spinner: 'none', bar: '0s' })
  })

  test('dark mode and forced colours: no text under 4.5:1 (3:1 when large)', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await openDemo(page)
    // The buttons' background eases over 0.15 s: read the settled colours.
    await page.waitForTimeout(400)
    expect(await lowContrast(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light', forcedColors: 'active' })
    await page.waitForTimeout(400)
    expect(await lowContrast(page)).toEqual([])
  })

  for (const [width, height, what] of [[320, 640, '320 px (400% zoom of 1280)'], [640, 400, '200% zoom of 1280x800']] as const) {
    test(`at ${what}: no horizontal scroll, nothing clipped, with the widest values`, async ({ page }) => {
      await page.setViewportSize({ width, height })
      await openDemo(page)
      await page.getByLabel('Run time (seconds)').fill('0.5')
      await page.getByRole('button', { name: 'Non-blocking loop', exact: true }).click()
      await expect(page.locator('#loop-status')).toHaveText(/^Non-blocking loop: /, { timeout: 20_000 })
      await page.getByLabel('Updates per signal').fill('10000000')
      await page.getByLabel('Updates per signal').press('Tab')
      await page.locator('#mon-pressure').evaluate((el) => (el.textContent = 'under pressure'))
      const problems = await page.evaluate(() => {
        const vw = document.documentElement.clientWidth
        const out = [`overflow ${document.documentElement.scrollWidth - vw}`]
        for (const el of document.querySelectorAll<HTMLElement>('body *')) {
          if (!el.offsetParent || el.closest('svg, .visually-hidden')) continue
          if (getComputedStyle(el).overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) out.push(`clipped ${el.id || el.className}`)
          const r = el.getBoundingClientRect()
          if (r.width && (r.right > vw + 1 || r.left < -1)) out.push(`off-screen ${el.id || el.className}`)
        }
        return out
      })
      expect(problems).toEqual(['overflow 0'])
    })
  }
})

// ---------------------------------------------------------------------------------------------------------------
// Findings: each test failed on the demo as it was
// ---------------------------------------------------------------------------------------------------------------

test.describe('fixed after the trial', () => {
  test('light mode: the pressure pill ("normal", "under pressure") and the XSS sample reach 4.5:1', async ({ page }) => {
    await openDemo(page)
    await page.waitForTimeout(400)
    // Was: #mon-pressure "normal" 3.25:1 (green on a green tint), #xss-demo 3.83:1 (pink on grey).
    expect(await lowContrast(page), 'normal').toEqual([])
    // A blocking run puts the monitor under pressure: the alarm pill was 3.72:1 (red on a red tint).
    await page.getByLabel('Run time (seconds)').fill('1')
    await page.getByRole('button', { name: 'Blocking loop', exact: true }).click()
    await expect(page.locator('#mon-pressure')).toHaveText('under pressure', { timeout: 20_000 })
    expect(await lowContrast(page), 'under pressure').toEqual([])
  })

  test('the counter\'s and the probe\'s live readouts say what they count, once per click, and have a name', async ({ page }) => {
    await logLiveRegions(page)
    await openDemo(page)
    await page.getByRole('button', { name: 'Increment' }).click()
    await page.getByRole('button', { name: 'Click probe' }).click()
    await expect(page.locator('#count')).toHaveText('1')
    await expect(page.locator('#click-count')).toHaveText('1')
    await page.waitForTimeout(200)
    const said = (await liveLog(page)).map((e) => e.text)
    // Was: ['1', '2', '1']: "Count" and "Doubled" are not in their live regions (two <output>s, one aria-live), so a
    // screen reader says "1", "2" for one click of Increment, then "1" for the probe.
    expect(said).toEqual([expect.stringMatching(/count\D*1$/i), expect.stringMatching(/clicks?\D*1$/i)])
    // And the live regions (role status) had no accessible name: a screen reader's list of them shows blanks.
    // Named by aria-label, not by the visible label: CSS upper-cases that one, and Chromium named them "COUNT", "CLICKS".
    expect((await ax(page, '[role=status]:has(#count), output#count')).name).toBe('Count')
    expect((await ax(page, '[role=status]:has(#click-count), output#click-count')).name).toBe('Clicks')
  })

  test('"Run time (seconds)": a time the page runs is not announced as invalid, and the range is explained', async ({ page }) => {
    await openDemo(page)
    const seconds = page.getByLabel('Run time (seconds)')
    await seconds.fill('1.2')
    await seconds.press('Tab')
    await expect(seconds).toHaveValue('1.2')
    // The page runs 1.2 s (and the e2e suite relies on 0.5122 staying as typed), but step="0.5" makes it a step
    // mismatch: Chromium marks it invalid ("invalid entry"), and its message says "The two nearest valid values are 1
    // and 1.5".
    const a = await ax(page, '#run-seconds')
    expect(a.props.invalid, 'aria-invalid Chromium exposes for 1.2').toBe('false')
    // The bounds (0.5 to 10) are in neither the visible text nor the description; 20 silently becomes 10.
    expect(a.description).toMatch(/0\.5.*10/)
    expect((await ax(page, '#updates')).description).toMatch(/1\b.*10,000,000/)
  })

  test('the loop table\'s "Relative speed" column reads something: its cells were empty to a screen reader', async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Run time (seconds)').fill('0.5')
    for (const name of ['Cooperative loop', 'Non-blocking loop']) {
      await page.getByRole('button', { name, exact: true }).click()
      await expect(page.locator('#loop-status')).toHaveText(new RegExp(`^${name}: `), { timeout: 20_000 })
    }
    const cells = (await axTree(page)).filter((n) => n.role === 'cell')
    expect(cells).toHaveLength(8) // two rows: run length, work, gap and bar
    expect(cells.filter((c) => !c.name.trim()).length, 'empty cells').toBe(0)
  })

  test('forced colours: the speed bars and the chart\'s legend swatches stay visible', async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Run time (seconds)').fill('0.5')
    await page.getByRole('button', { name: 'Cooperative loop', exact: true }).click()
    await expect(page.locator('#loop-status')).toHaveText(/^Cooperative loop: /, { timeout: 20_000 })
    await page.emulateMedia({ forcedColors: 'active' })
    await page.waitForTimeout(300)
    const colours = await page.evaluate(() => {
      const bg = (el: Element, pseudo?: string) => {
        const cs = getComputedStyle(el, pseudo)
        return cs.backgroundImage !== 'none' ? cs.backgroundImage : cs.backgroundColor
      }
      const bar = document.querySelector('.bar-cooperative')!
      const every = document.querySelector('#bar-every')!
      const key = document.querySelector('.key-lag')!
      return {
        bar: bg(bar) !== bg(bar.parentElement!),
        ratioBar: bg(every) !== bg(every.parentElement!) && !/rgba\(\d+, \d+, \d+, 0\)/.test(bg(every)),
        key: !/rgba\(\d+, \d+, \d+, 0\)|rgb\(255, 255, 255\)/.test(bg(key, '::before')),
      }
    })
    // Was: every one white on white (the backgrounds are forced to Canvas, the gradient dropped).
    expect(colours).toEqual({ bar: true, ratioBar: true, key: true })
  })

  test('a run started from the keyboard keeps the focus on its button while it runs (it went to <body>)', async ({ page }) => {
    await openDemo(page)
    await page.getByLabel('Run time (seconds)').fill('2')
    const coop = page.getByRole('button', { name: 'Cooperative loop', exact: true })
    await coop.focus()
    await page.keyboard.press('Enter')
    await expect(page.locator('#loop-status')).toHaveText('Running: Cooperative loop')
    await expect(coop).toBeDisabled()
    // For the whole run (up to 10 s; a million-update "Run both" takes 14 s here) a screen reader's focus is on the
    // document: some jump their reading position to the top.
    const onBody = await page.evaluate(() => document.activeElement === document.body)
    expect(onBody, 'the focus is on <body> during the run').toBe(false)
    // Pressing Enter again meanwhile starts nothing.
    await page.keyboard.press('Enter')
    await expect(page.locator('#loop-status')).toHaveText(/^Cooperative loop: /, { timeout: 20_000 })
    await page.waitForTimeout(300)
    await expect(page.locator('#loop-status')).toHaveText(/^Cooperative loop: /)
    await expect(coop).toBeFocused()
  })

  test('the llama, which moves for ever (also with reduced motion), can be paused (WCAG 2.2.2)', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await openDemo(page)
    const pose = () => page.locator('#llama-body').getAttribute('transform')
    const a = await pose()
    await page.waitForTimeout(300)
    expect(await pose(), 'it walks, with reduced motion too').not.toBe(a)
    const pause = page.getByRole('button', { name: /pause/i })
    await expect(pause).toHaveCount(1)
    await pause.focus()
    await page.keyboard.press('Enter')
    await expect(pause).toHaveAttribute('aria-pressed', 'true')
    const b = await pose()
    await page.waitForTimeout(300)
    expect(await pose(), 'paused').toBe(b)
    // The frame counter still counts: a blocked thread still shows.
    const frames = Number(await page.locator('#frame-count').textContent())
    await expect.poll(async () => Number(await page.locator('#frame-count').textContent())).toBeGreaterThan(frames)
    await page.keyboard.press('Enter')
    await page.waitForTimeout(300)
    expect(await pose(), 'walks again').not.toBe(b)
  })
})
