// @eddy/scheduler and @eddy/signal, from their built dist, on the server runtimes users also pick: Deno 2 and Bun 1,
// side by side with Node, each in a child process. See fixtures/ for what each run does. Not part of `npm test`: the
// CI machines have neither binary. Run with `npm run test:runtimes` (scheduler README, "Deno and Bun").
import { describe, expect, it } from 'vitest'
import { logs, run, runtimes, type Run } from './run.ts'

const exited = (r: Run) => {
  // Killed by run()'s timeout means it did not exit by itself.
  expect(r.signal, `killed: it did not exit by itself\n${r.stderr}`).toBe(null)
  expect(r.code, r.stderr).toBe(0)
}

describe.each(runtimes)('%s', (rt) => {
  it('detects setImmediate, throws TypeError for missing strategies, keeps FIFO for the others', async () => {
    const r = await run(rt, 'detect.mjs', '', 30_000)
    // Deno keeps the process alive after a messageChannel queue (differences.runtime.ts): only Node and Bun exit.
    if (rt != 'deno') exited(r)
    const { strategy, queues, rates } = r.report
    expect(strategy).toBe('setImmediate')
    expect(queues.postTask.error).toBe('TypeError: bad strategy: postTask')
    expect(queues.postMessage.error).toBe('TypeError: bad strategy: postMessage')
    for (const name of ['setImmediate', 'messageChannel', 'setTimeout']) expect(queues[name]).toEqual({ strategy: name, fifo: true })
    // The detected strategy is far faster than a clamped timer (ratio, not absolute).
    expect(rates.setImmediate / rates.setTimeout).toBeGreaterThan(50)
    console.log(`[${rt}] turn rates /s`, JSON.stringify(rates))
  }, 40_000)

  it.each(['macrotask', 'cancelled', 'yieldToMain', 'setTimeoutQueue', 'loopDone', 'loopPendingStep', 'monitorStopped', 'monitorRunning'])(
    'exits by itself with nothing queued: %s', async (c) => {
      const r = await run(rt, 'exit.mjs', c, 8_000)
      exited(r)
      expect(r.report).toMatchObject({ case: c, done: true })
    }, 10_000)


  it('setImmediate is a real macrotask; yieldToMain and loop() let timers in', async () => {
    const r = await run(rt, 'interleave.mjs', '', 30_000)
    if (rt != 'deno') exited(r) // Deno: its messageChannel queue keeps it alive (differences.runtime.ts)
    const { setImmediate, setTimeout, messageChannel, yieldToMain, loop } = r.report
    // 100 callbacks of 1 ms at a 2 ms budget: timer, setImmediate and I/O get in after a slice or two, not at the end.
    for (const q of [setImmediate, setTimeout]) for (const k of ['timer', 'immediate', 'io']) expect(q[k]).toBeLessThan(20)
    // The README's Node claim ("Node delivers up to ~1,000 port messages in one turn"): the whole backlog runs first.
    // Bun does the same; Deno lets setImmediate and I/O in, but not the timer.
    // (The fs.stat callback may come before the first message, so only the timer and setImmediate are asserted.)
    expect(messageChannel.timer).toBe(100)
    if (rt == 'deno') expect(messageChannel.immediate).toBeLessThan(20)
    else expect(messageChannel.immediate).toBe(100)
    expect(yieldToMain.timers).toBeGreaterThanOrEqual(25) // a 0 ms timer between (almost) every pair of yields
    expect(loop.steps).toBeGreaterThan(100)
    expect(loop.worstTimerGapMs).toBeLessThan(5 + 10 + 20) // budget + 10 ms target, with 20 ms of shared-machine noise
    console.log(`[${rt}] interleave`, JSON.stringify(r.report))
  }, 40_000)

  it('monitor(): a 200 ms block reads lag >= 150 and fires pressure; utilization is measured or sampled', async () => {
    const r = await run(rt, 'monitor.mjs', '', 30_000)
    exited(r)
    const m = r.report
    expect(m.afterBlock.lagMax).toBeGreaterThanOrEqual(150)
    expect(m.afterBlock.underPressure).toBe(true)
    expect(m.events.map((e: any) => e[0])).toEqual(['pressure'])
    expect(m.idle).toBeLessThan(0.05)
    // Saturated for ~2.5 of the 5 s window: Node's eventLoopUtilization reads about half; the sampled estimate less,
    // but clearly above idle.
    expect(m.afterTasks).toBeGreaterThan(0.3)
    expect(m.afterLoop).toBeGreaterThan(0.1)
    expect(m.longTasks).toBe(0)
    expect(m.hasELU).toBe(rt == 'node' ? 'function' : 'undefined')
    console.log(`[${rt}] monitor`, JSON.stringify(m))
  }, 40_000)

  it('a throwing macrotask callback or step: uncaught without a handler (exit 1), the others run with one', async () => {
    const thrown = await run(rt, 'errors.mjs', 'throw')
    expect(thrown.code).toBe(1)
    expect(thrown.stderr).toContain('boom')
    expect(logs(thrown)[0]).toBe('a')
    const handled = await run(rt, 'errors.mjs', 'throw-handled')
    exited(handled)
    expect(logs(handled)).toEqual(rt == 'node' ? ['a', 'c', 'handled boom', 'later'] : rt == 'deno' ? ['a', 'handled Uncaught Error: boom', 'c', 'later'] : ['a', 'handled boom', 'c', 'later'])
    const loop = await run(rt, 'errors.mjs', 'loop')
    expect(loop.code).toBe(1)
    expect(loop.stderr).toContain('step')
    const loopHandled = await run(rt, 'errors.mjs', 'loop-handled')
    exited(loopHandled)
    expect(logs(loopHandled)).toEqual(['handled step', 'later'])
  }, 40_000)

  it('@eddy/signal with no DOM: computed, effect, batch, subscribe, flush, settled', async () => {
    const r = await run(rt, 'signal.mjs')
    exited(r)
    expect(r.report).toMatchObject({
      log: ['effect 3', 'sub 3', 'effect 30', 'sub 30', 'effect 120'], sum: 100, json: '{"sum":100}', bindNoDom: 'TypeError',
    })
  })

  it('the HTTP server: 200s, a stall, 503s under pressure, relief about 5 s later, 200s again, then exits', async () => {
    const r = await run(rt, 'server.mjs', '', 20_000)
    exited(r)
    const s = r.report
    expect(s.before).toEqual(Array(10).fill(200))
    expect(s.body).toBe('200:99900000')
    expect(s.pressured).toBe(true)
    expect(s.during).toEqual(Array(5).fill(503))
    expect(s.after).toEqual(Array(5).fill(200))
    expect(s.events.map((e: any) => e[0])).toEqual(['pressure', 'relief'])
    // "one stall over maxLagMs holds the pressure for about 5 s"
    expect(s.events[1][1] - s.events[0][1]).toBeGreaterThan(4000)
    expect(s.writes).toBe(15)
  }, 30_000)
})

// Deno: see differences.runtime.ts.
it.each(['node', 'bun'] as const)('%s exits by itself after a messageChannel queue', async (rt) => {
  exited(await run(rt, 'exit.mjs', 'messageChannel', 8_000))
}, 10_000)
