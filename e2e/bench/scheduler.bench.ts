/**
 * The scheduler benchmark in Chromium: packages/scheduler/bench's cases and runner, in the benchmark page. Turns/s of
 * eddy's `macrotask` and of each raw primitive; callbacks/s of eddy's queue against a hand-written batched dispatcher
 * at 1/10/100/1000 callbacks per turn; `loop()` with a trivial async step against microtask recursion, a macrotask
 * per iteration and a 10-iteration hybrid: ns per iteration and the worst timer delay during the run.
 */
import { expect, test } from '@playwright/test'
import type { SchedulerResult } from '../../demo/bench/api.ts'
import { forget, load, openBenchPage, rounds, save } from './report.ts'

/** Loop iterations: loop() and microtask recursion each run 8 pieces of half of these (40-50 ms each), which owe timers several turns. */
const ITERATIONS = 2_000_000

test.describe('scheduler benchmark', () => {
  const results = () => load<SchedulerResult['results']>('scheduler')
  const loopRun = (kind: string) => results().loops.find((l) => l.kind === kind)!

  test('measures turn rates, queue throughput and loops, side by side', async ({ page }) => {
    page.on('console', (m) => m.text().startsWith('[scheduler]') && console.log(m.text()))
    forget('scheduler')
    await openBenchPage(page)
    const result = await page.evaluate(
      ([rounds, iterations]) => window.eddyBench.scheduler.run({ rounds, ms: 200, iterations }),
      [rounds, ITERATIONS] as const,
    )
    save('scheduler', result.results, result.markdown)
  })

  test('macrotask keeps at least half the turn rate of its raw primitive', () => {
    expect(results().turnRatio.ratio).toBeGreaterThanOrEqual(0.5)
  })

  test('the queue keeps at least half the throughput of a hand-written dispatcher at every batch size', () => {
    expect(results().queue.map((q) => q.perTurn)).toEqual([1, 10, 100, 1000])
    for (const q of results().queue) expect(q.ratio, `${q.perTurn} per turn`).toBeGreaterThanOrEqual(0.5)
  })

  test('loop() lets timers in: its worst timer delay is under half the run time of one of its pieces', () => {
    // The loop runs in pieces of ITERATIONS / 2 (alternating with microtask recursion). A loop that never yielded
    // would delay a timer by a whole piece, as microtask recursion does.
    const pieceMs = (loopRun('loop').nsPerIteration * ITERATIONS) / 2e6
    expect(loopRun('loop').worstTimerDelayMs / pieceMs).toBeLessThanOrEqual(0.5)
  })

  test('loop() costs at most 3x microtask recursion per iteration', () => {
    expect(results().loopRatio).toBeLessThanOrEqual(3)
  })
})
