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
  /** ratio[a][b]: the median over rounds of a's time / b's time in the same round (pairs measured side by side). */
  ratio: Record<MillionMode, Record<MillionMode, number>>
}

/**
 * The fast modes take ~10-40 ms, so one stray descheduling of a loaded machine can double a sample: each round
 * keeps the best of this many runs of them (interference only ever adds time). The per-write modes run once.
 */
const FAST_REPEATS = 3

test.describe('million-update benchmark', () => {
  test('measures 3 signals x 1,000,000 writes in five modes, side by side', async ({ page }) => {
    forget('million')
    await openBenchPage(page)
    const modes = await page.evaluate(() => window.eddyBench.million.modes)
    const samples = Object.fromEntries(modes.map((m) => [m, [] as number[]])) as Record<MillionMode, number[]>
    for (let round = -1; round < rounds; round++) {
      // Rotate the order each round, so no mode always runs right after the garbage of another.
      const order = modes.map((_, i) => modes[(i + Math.max(round, 0)) % modes.length]!)
      for (const mode of order) {
        const n = writesFor(mode)
        let best = Infinity
        for (let rep = 0; rep < (n === FULL ? FAST_REPEATS : 1); rep++) {
          const run: MillionRun = await page.evaluate(([m, n]) => window.eddyBench.million.run(m, n), [mode, n] as const)
          // Every mode must leave each paragraph showing the last value written, or its time means nothing.
          expect(run.texts, `${mode}: paragraph texts`).toEqual([String(n), String(n), String(n)])
          best = Math.min(best, run.ms * (FULL / n))
        }
        if (round >= 0) samples[mode].push(best)
      }
    }
    const full = Object.fromEntries(modes.map((m) => [m, median(samples[m])])) as Saved['medianMsFor3M']
    const paired = (a: MillionMode, b: MillionMode) => median(samples[a].map((ms, r) => ms / samples[b][r]!))
    const ratios = Object.fromEntries(
      modes.map((a) => [a, Object.fromEntries(modes.map((b) => [b, paired(a, b)]))]),
    ) as Saved['ratio']

    const rows = modes.map((mode) => [
      labels[mode],
      writesFor(mode) === FULL ? '3 x 1,000,000' : `3 x ${fmt(writesFor(mode))}, extrapolated`,
      fmt(full[mode]),
      fmt((full[mode] * 1e6) / (3 * FULL)),
      ratio(ratios[mode].handWritten),
      ratio(ratios[mode].eddy),
    ])
    const md = [
      `### Million-update: 3 signals x 1,000,000 writes (median of ${rounds} rounds; ${environment(page)})`,
      '',
      markdownTable(['mode', 'writes measured', 'ms for 3 x 1M', 'ns / write', 'vs hand-written', 'vs eddy'], rows),
      '',
      `Ratios are medians over the rounds of the two times measured in the same round; the fast modes keep the best ` +
        `of ${FAST_REPEATS} runs per round. eddy coalesced is **${ratio(ratios.innerHTML.eddy)}** faster than ` +
        `innerHTML on every write (target >= 300x, CI asserts >= 50x) and costs **${ratio(ratios.eddy.handWritten)}** ` +
        `the hand-written reference (target <= 1.2x, CI asserts <= 3x).`,
    ].join('\n')
    save(
      'million',
      { rounds, fastRepeats: FAST_REPEATS, perWriteN: PER_WRITE, fullN: FULL, medianMsFor3M: full, ratio: ratios, samplesMsFor3M: samples },
      md,
    )
  })

  test('eddy coalesced is at least 50x faster than innerHTML on every write', () => {
    expect(load<Saved>('million').ratio.innerHTML.eddy).toBeGreaterThanOrEqual(50)
  })

  test('eddy coalesced costs at most 3x the hand-written reference', () => {
    expect(load<Saved>('million').ratio.eddy.handWritten).toBeLessThanOrEqual(3)
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
