/**
 * The scheduler in Chromium, side by side in every round, medians over the rounds:
 * turns/s of eddy's `macrotask` and of each raw primitive; callbacks/s of eddy's queue against a hand-written
 * batched dispatcher at 1/10/100/1000 callbacks per turn; loop() against microtask recursion, a macrotask per
 * iteration and a 10-iteration hybrid: ns per iteration and the worst delay of a 10 ms timer during the run.
 */
import { expect, test } from '@playwright/test'
import type { LoopKind, QueueImpl, TurnKind } from '../../demo/bench/api.ts'
import { environment, fmt, markdownTable, median, openBenchPage, ratio, rounds, save } from './report.ts'

const TURN_MS = 200
const QUEUE_MS = 200
const LOOP_MS = 300
const PER_TURN = [1, 10, 100, 1000]
const turnLabels: Record<TurnKind, string> = {
  macrotask: 'eddy `macrotask`',
  postTask: 'scheduler.postTask',
  messageChannel: 'MessageChannel',
  postMessage: 'window.postMessage',
  setTimeout: 'setTimeout(0)',
}
const loopLabels: Record<LoopKind, string> = {
  loop: 'eddy `loop()`, 5 ms budget, sync step',
  loopAsync: 'eddy `loop()`, 5 ms budget, async step',
  microtask: 'microtask recursion (`await` per iteration)',
  macrotask: 'a macrotask per iteration',
  hybrid10: 'hybrid: a macrotask every 10 iterations',
}

test.describe.serial('scheduler benchmark', () => {
  const turnRate = {} as Record<TurnKind, number>
  const queueRate = {} as Record<QueueImpl, Record<number, number>>
  const loopCost = {} as Record<LoopKind, { ns: number; worstMs: number }>
  let primitive: TurnKind = 'messageChannel'

  test('measures turn rates, queue throughput and loops, side by side', async ({ page }) => {
    await openBenchPage(page)
    const { turnKinds, queueImpls, loopKinds, strategy } = await page.evaluate(() => ({
      turnKinds: window.eddyBench.scheduler.turnKinds(),
      queueImpls: window.eddyBench.scheduler.queueImpls(),
      loopKinds: window.eddyBench.scheduler.loopKinds(),
      strategy: window.eddyBench.scheduler.strategy,
    }))
    primitive = strategy === 'setImmediate' ? 'messageChannel' : (strategy as TurnKind)
    const turns = new Map<TurnKind, number[]>(turnKinds.map((k) => [k, []]))
    const queues = new Map<string, number[]>()
    const loops = new Map<LoopKind, { ns: number[]; worst: number[] }>(loopKinds.map((k) => [k, { ns: [], worst: [] }]))
    const rotate = <T>(xs: T[], r: number) => xs.map((_, i) => xs[(i + Math.max(r, 0)) % xs.length]!)

    for (let round = -1; round < rounds; round++) {
      const keep = round >= 0 // round -1 warms up the JIT and is dropped
      for (const kind of rotate(turnKinds, round)) {
        const run = await page.evaluate(([k, ms]) => window.eddyBench.scheduler.turns(k, ms), [kind, TURN_MS] as const)
        expect(run.turns, `${kind} turns`).toBeGreaterThan(0)
        if (keep) turns.get(kind)!.push(run.perSecond)
      }
      for (const perTurn of PER_TURN) {
        for (const impl of rotate(queueImpls, round)) {
          const run = await page.evaluate(
            ([i, n, ms]) => window.eddyBench.scheduler.queue(i, n, ms),
            [impl, perTurn, QUEUE_MS] as const,
          )
          expect(run.callbacks % perTurn, `${impl} ran whole batches`).toBe(0)
          const key = `${impl}:${perTurn}`
          if (keep) queues.set(key, [...(queues.get(key) ?? []), run.perSecond])
        }
      }
      for (const kind of rotate(loopKinds, round)) {
        const run = await page.evaluate(([k, ms]) => window.eddyBench.scheduler.loop(k, ms), [kind, LOOP_MS] as const)
        expect(run.iterations, `${kind} iterations`).toBeGreaterThan(0)
        if (keep) {
          loops.get(kind)!.ns.push(run.nsPerIteration)
          loops.get(kind)!.worst.push(run.worstTimerDelayMs)
        }
      }
    }

    for (const [k, v] of turns) turnRate[k] = median(v)
    for (const impl of queueImpls) {
      queueRate[impl] = Object.fromEntries(PER_TURN.map((n) => [n, median(queues.get(`${impl}:${n}`)!)]))
    }
    for (const [k, v] of loops) loopCost[k] = { ns: median(v.ns), worstMs: median(v.worst) }

    const md = [
      `### Scheduler (median of ${rounds} rounds; ${environment(page)}; eddy's strategy here: \`${strategy}\`)`,
      '',
      `Turns per second, a chain of ${TURN_MS} ms:`,
      '',
      markdownTable(
        ['primitive', 'turns / s', `vs raw ${primitive}`],
        turnKinds.map((k) => [turnLabels[k], fmt(turnRate[k], 0), ratio(turnRate[k] / turnRate[primitive])]),
      ),
      '',
      `Callbacks per second, batches queued at once, ${QUEUE_MS} ms per measurement (the hand-written dispatcher ` +
        `posts with the same primitive as eddy):`,
      '',
      markdownTable(
        ['callbacks / turn', 'eddy `macrotask`', 'hand-written dispatcher', 'eddy / hand-written'],
        PER_TURN.map((n) => [
          fmt(n, 0),
          fmt(queueRate.macrotask[n]!, 0),
          fmt(queueRate.handWritten[n]!, 0),
          ratio(queueRate.macrotask[n]! / queueRate.handWritten[n]!),
        ]),
      ),
      '',
      `Loops of a trivial step for ${LOOP_MS} ms, with a 10 ms setTimeout chain alongside (median of the worst delay per run):`,
      '',
      markdownTable(
        ['loop', 'ns / iteration', 'vs microtask recursion', 'worst timer delay (ms)'],
        loopKinds.map((k) => [
          loopLabels[k],
          fmt(loopCost[k].ns),
          ratio(loopCost[k].ns / loopCost.microtask.ns),
          fmt(loopCost[k].worstMs),
        ]),
      ),
    ].join('\n')
    save(
      'scheduler',
      {
        rounds,
        strategy,
        turnsPerSecond: turnRate,
        queueCallbacksPerSecond: queueRate,
        loop: loopCost,
        samples: { turns: Object.fromEntries(turns), queues: Object.fromEntries(queues), loops: Object.fromEntries(loops) },
      },
      md,
    )
  })

  test('macrotask keeps at least half the turn rate of its raw primitive', () => {
    expect(turnRate.macrotask / turnRate[primitive]).toBeGreaterThanOrEqual(0.5)
  })

  test('the queue keeps at least half the throughput of a hand-written dispatcher at every batch size', () => {
    for (const n of PER_TURN) {
      expect(queueRate.macrotask[n]! / queueRate.handWritten[n]!, `${n} per turn`).toBeGreaterThanOrEqual(0.5)
    }
  })

  test('loop() lets timers in: its worst timer delay is under half that of microtask recursion', () => {
    expect(loopCost.loop.worstMs / loopCost.microtask.worstMs).toBeLessThanOrEqual(0.5)
    expect(loopCost.loopAsync.worstMs / loopCost.microtask.worstMs).toBeLessThanOrEqual(0.5)
  })

  test('loop() with an async step costs at most 3x microtask recursion per iteration', () => {
    expect(loopCost.loopAsync.ns / loopCost.microtask.ns).toBeLessThanOrEqual(3)
  })
})
