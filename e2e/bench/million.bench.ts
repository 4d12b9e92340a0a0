/**
 * The talk's benchmark in Chromium: 3 signals bound to 3 paragraphs, 1,000,000 writes each, in five modes run
 * side by side in every round (rotating order), medians over the rounds.
 * The two render-on-every-write modes take seconds at 3 x 1,000,000, so they are measured with fewer writes and
 * their time is extrapolated per write (the table says so); their cost per write is flat.
 */
import { expect, test } from '@playwright/test'
import type { MillionMode, MillionRun } from '../../demo/bench/api.ts'
import { environment, fmt, forget, load, markdownTable, median, openBenchPage, ratio, rounds, save } from './report.ts'

const FULL = 1_000_000
const PER_WRITE = Math.max(1000, Number(process.env.BENCH_PER_WRITE_N) || 100_000)
const writesFor = (mode: MillionMode) => (mode === 'innerHTML' || mode === 'textContent' ? PER_WRITE : FULL)
const labels: Record<MillionMode, string> = {
  innerHTML: 'render on every write, innerHTML (the talk)',
  textContent: 'render on every write, textContent',
  eddy: 'eddy coalesced (`Signal` + `bind`)',
  handWritten: 'hand-written: dirty flag + one shared queue + one microtask',
  plain: 'floor: plain property writes',
}

interface Saved {
  /** Median ms for 3 x 1,000,000 writes (extrapolated for the per-write modes). */
  medianMsFor3M: Record<MillionMode, number>
}

test.describe('million-update benchmark', () => {
  test('measures 3 signals x 1,000,000 writes in five modes, side by side', async ({ page }) => {
    forget('million')
    const full = {} as Record<MillionMode, number>
    await openBenchPage(page)
    const modes = await page.evaluate(() => window.eddyBench.million.modes)
    const samples = Object.fromEntries(modes.map((m) => [m, [] as number[]])) as Record<MillionMode, number[]>
    for (let round = -1; round < rounds; round++) {
      // Rotate the order each round, so no mode always runs right after the garbage of another.
      const order = modes.map((_, i) => modes[(i + Math.max(round, 0)) % modes.length]!)
      for (const mode of order) {
        const n = writesFor(mode)
        const run: MillionRun = await page.evaluate(([m, n]) => window.eddyBench.million.run(m, n), [mode, n] as const)
        // Every mode must leave each paragraph showing the last value written, or its time means nothing.
        expect(run.texts, `${mode}: paragraph texts`).toEqual([String(n), String(n), String(n)])
        if (round >= 0) samples[mode].push(run.ms * (FULL / n))
      }
    }
    for (const mode of modes) full[mode] = median(samples[mode])

    const rows = modes.map((mode) => [
      labels[mode],
      writesFor(mode) === FULL ? '3 x 1,000,000' : `3 x ${fmt(writesFor(mode))}, extrapolated`,
      fmt(full[mode]),
      fmt((full[mode] * 1e6) / (3 * FULL)),
      ratio(full[mode] / full.handWritten),
      ratio(full[mode] / full.eddy),
    ])
    const md = [
      `### Million-update: 3 signals x 1,000,000 writes (median of ${rounds} rounds; ${environment(page)})`,
      '',
      markdownTable(['mode', 'writes measured', 'ms for 3 x 1M', 'ns / write', 'vs hand-written', 'vs eddy'], rows),
      '',
      `eddy coalesced is **${ratio(full.innerHTML / full.eddy)}** faster than innerHTML on every write ` +
        `(target >= 300x, CI asserts >= 50x) and costs **${ratio(full.eddy / full.handWritten)}** the hand-written ` +
        `reference (target <= 1.2x, CI asserts <= 3x).`,
    ].join('\n')
    save('million', { rounds, perWriteN: PER_WRITE, fullN: FULL, medianMsFor3M: full, samplesMsFor3M: samples }, md)
  })

  test('eddy coalesced is at least 50x faster than innerHTML on every write', () => {
    const full = load<Saved>('million').medianMsFor3M
    expect(full.innerHTML / full.eddy).toBeGreaterThanOrEqual(50)
  })

  test('eddy coalesced costs at most 3x the hand-written reference', () => {
    const full = load<Saved>('million').medianMsFor3M
    expect(full.eddy / full.handWritten).toBeLessThanOrEqual(3)
  })

  test('coalesced modes write each paragraph once; per-write modes write on every write', async ({ page }) => {
    await openBenchPage(page)
    const count = (mode: MillionMode, n: number) =>
      page.evaluate(([m, n]) => window.eddyBench.million.countDomWrites(m, n), [mode, n] as const)
    expect(await count('eddy', 10_000)).toBe(3)
    expect(await count('handWritten', 10_000)).toBe(3)
    expect(await count('innerHTML', 1000)).toBe(3000)
    expect(await count('textContent', 1000)).toBe(3000)
  })
})
