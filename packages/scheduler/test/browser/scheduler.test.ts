// Real event loop, real Chromium: what happy-dom cannot show (its postMessage is a setTimeout, its rAF unpaced).
import { describe, expect, it } from 'vitest'
import { createQueue, loop, macrotask, monitor, probeTurnRate, strategy, type Strategy } from '@eddy/scheduler'

const block = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const browserStrategies: Strategy[] = ['postTask', 'messageChannel', 'postMessage', 'setTimeout']

/** Counts animation frames while `run` runs. */
async function framesDuring(run: () => Promise<unknown>) {
  let frames = 0
  let counting = true
  const frame = () => { if (counting) { frames++; requestAnimationFrame(frame) } }
  // Let the frame loop settle first, so only frames during `run` count.
  await new Promise((r) => requestAnimationFrame(r))
  requestAnimationFrame(frame)
  frames = 0
  await run()
  counting = false
  return frames
}

/**
 * Runs `run(step)`, which must call `step()` from each unit of work (0.05 ms busy), and counts the slices the work
 * ran in and the fires of a 1 ms interval meanwhile (clamped to 4 ms: due again before any 5 ms slice ends). A step
 * that finds no slice open starts one; the microtask it queues closes it once the slice's task has ended.
 */
async function timerFiresPerSlice(run: (step: () => void) => Promise<unknown>) {
  let slices = 0
  let inSlice = false
  let fires = 0
  const timer = setInterval(() => fires++, 1)
  await run(() => {
    if (!inSlice) (inSlice = true), slices++, queueMicrotask(() => { inSlice = false })
    block(0.05)
  })
  clearInterval(timer)
  return { fires, slices }
}

describe('strategy (Chromium main thread)', () => {
  it('should be postTask, and every browser strategy should be available to createQueue', () => {
    expect(strategy).toBe('postTask')
    for (const name of browserStrategies) expect(createQueue({ strategy: name }).strategy).toBe(name)
    expect(() => createQueue({ strategy: 'setImmediate' })).toThrow(TypeError)
  })
})

describe('macrotask() on the real loop', () => {
  for (const name of browserStrategies) {
    it(`should run callbacks FIFO and after the current task's microtasks (${name})`, async () => {
      const q = createQueue({ strategy: name })
      const log: string[] = []
      for (let i = 0; i < 50; i++) q.macrotask(() => log.push(`t${i}`))
      queueMicrotask(() => log.push('micro'))
      await new Promise<void>((resolve) => q.macrotask(() => {
        log.push('enqueue-during-drain')
        queueMicrotask(() => log.push('micro-during-drain'))
        q.macrotask(() => { log.push('late'); resolve() })
      }))
      expect(log).toEqual(['micro', ...Array.from({ length: 50 }, (_, i) => `t${i}`), 'enqueue-during-drain', 'micro-during-drain', 'late'])
    })
  }

  it('should report a throwing callback through the native reportError and run the rest, on every strategy', async () => {
    for (const name of browserStrategies) {
      const errors: unknown[] = []
      const onError = (e: ErrorEvent) => { errors.push(e.error); e.preventDefault() }
      addEventListener('error', onError)
      try {
        const q = createQueue({ strategy: name })
        const ran: string[] = []
        const boom = new Error(`expected: ${name}`)
        await new Promise<void>((resolve) => {
          q.macrotask(() => ran.push('a'))
          q.macrotask(() => { throw boom })
          q.macrotask(() => { ran.push('c'); resolve() })
        })
        expect(ran, name).toEqual(['a', 'c'])
        expect(errors, name).toEqual([boom])
      } finally {
        removeEventListener('error', onError)
      }
    }
  })

  it('should ignore foreign window messages on the postMessage strategy', async () => {
    const q = createQueue({ strategy: 'postMessage' })
    // One round trip first: the package's message listener exists before `watch`, so `watch` sees each message
    // once the package has handled it.
    await new Promise<void>((resolve) => q.macrotask(resolve))
    let runs = 0
    const seen: number[] = []
    const watch = (e: MessageEvent) => { if (e.data === 'not ours' || e.data?.eddy) seen.push(runs) }
    addEventListener('message', watch)
    try {
      // The foreign messages arrive first, while the callback waits: accepted, either would run it early.
      window.postMessage('not ours', '*')
      window.postMessage({ eddy: true }, '*')
      q.macrotask(() => runs++)
      await sleep(20)
      expect(seen).toEqual([0, 0])
      expect(runs).toBe(1)
    } finally {
      removeEventListener('message', watch)
    }
  })

  it('should not run a callback for its postMessage key posted by another window (an iframe)', async () => {
    const q = createQueue({ strategy: 'postMessage' })
    // Learn the private key: a listener on this window sees our own messages.
    let key: unknown
    const learn = (e: MessageEvent) => { if (e.source === window && typeof e.data == 'number') key ??= e.data }
    addEventListener('message', learn)
    await new Promise<void>((resolve) => q.macrotask(resolve))
    await sleep(20)
    removeEventListener('message', learn)
    expect(key).toEqual(expect.any(Number))
    const frame = document.createElement('iframe')
    document.body.append(frame)
    try {
      let ran = 0
      const seen: string[] = []
      // Registered after the package's listener: sees each message once the package has handled it.
      const watch = (e: MessageEvent) => { if (e.data === key) seen.push(`${e.source === window ? 'own' : 'iframe'}:${ran}`) }
      addEventListener('message', watch)
      // The iframe's message is posted first; ours second. Accepted, it would run the callback one message early.
      ;(frame.contentWindow as any).eval(`parent.postMessage(${key}, '*')`)
      await new Promise<void>((resolve) => q.macrotask(() => { ran++; resolve() }))
      await sleep(20)
      removeEventListener('message', watch)
      expect(seen).toEqual(['iframe:0', 'own:1'])
    } finally {
      frame.remove()
    }
  })

  it('should throw nothing and run nothing twice when another listener replays its postMessage key', async () => {
    const q = createQueue({ strategy: 'postMessage' })
    const errors: unknown[] = []
    const onError = (e: ErrorEvent) => { errors.push(e.error); e.preventDefault() }
    // A relay that posts every number it sees back to this window, once each (as a message bridge might).
    const seen = new Set<unknown>()
    const relay = (e: MessageEvent) => { if (typeof e.data == 'number' && !seen.has(e.data)) { seen.add(e.data); postMessage(e.data, '*') } }
    addEventListener('error', onError)
    addEventListener('message', relay)
    try {
      let ran = 0
      let replayed = 0
      for (let round = 0; round < 3; round++) {
        seen.clear()
        await new Promise<void>((resolve) => { q.macrotask(() => ran++); q.macrotask(resolve) })
        await sleep(20)
        replayed += seen.size
      }
      // The relay did replay the package's messages (the key is a number), or nothing here was tested.
      expect(replayed).toBeGreaterThanOrEqual(3)
      expect(ran).toBe(3)
      expect(errors).toEqual([])
    } finally {
      removeEventListener('message', relay)
      removeEventListener('error', onError)
    }
  })

  it('should let a timer in while a macrotask keeps re-queuing itself (each batch is its own turn)', async () => {
    // A chain of macrotasks, each queuing the next, stops at the timer or after 2 s: a chain that starved timers
    // (one drain running everything queued meanwhile, or a microtask chain) would reach the 2 s cut-off instead.
    // The timer is set from inside the chain, after 10 turns of it.
    let fired = false
    const start = performance.now()
    let turns = 0
    await new Promise<void>((resolve) => {
      const next = () => {
        if (++turns == 10) setTimeout(() => (fired = true), 0)
        fired || performance.now() - start > 2000 ? resolve() : macrotask(next)
      }
      macrotask(next)
    })
    expect(fired).toBe(true)
    expect(turns).toBeGreaterThan(10)
  })

  it('should let a timer that came due during a drain slice fire before the next slice of a long backlog', async () => {
    // As loop(): Chromium queues a due timer behind the re-post made at the slice's end, unless that re-post hops.
    let left = 4000
    const { fires, slices } = await timerFiresPerSlice((step) => new Promise<void>((resolve) => {
      for (let i = left; i > 0; i--) macrotask(() => { step(); if (!--left) resolve() })
    }))
    expect(slices).toBeGreaterThan(20)
    expect(fires / slices, `${fires} timer fires in ${slices} slices`).toBeGreaterThanOrEqual(0.75)
  })

  it('should measure turn rates: postTask and messageChannel far faster than setTimeout(0)', async () => {
    const fast = await probeTurnRate({ strategy: 'messageChannel', durationMs: 200 })
    const slow = await probeTurnRate({ strategy: 'setTimeout', durationMs: 200 })
    expect(fast / slow).toBeGreaterThan(10)
  })
})

// Before the loop tests: their deliberate stalls would otherwise reach a new monitor as late long-animation-frame reports.
describe('monitor() on the real loop', () => {
  it('should report a 200 ms block at its true length (long-animation-frame) and go under pressure', async () => {
    const m = monitor({ maxLagMs: 100 })
    let pressure = 0
    m.on('pressure', () => pressure++)
    // Read, so that the turn rate gets probed (only while it is read).
    expect(m.turnsPerSecond).toBe(0)
    await sleep(300)
    block(200)
    await sleep(300)
    m.stop()
    expect(m.lag.max).toBeGreaterThanOrEqual(200)
    expect(m.longTasks).toBeGreaterThanOrEqual(1)
    expect(m.underPressure).toBe(true)
    expect(pressure).toBe(1)
    // Measured (a 1 ms burst of turns once a second), but not its speed: a burst that overlaps the 200 ms block rightly
    // reads a low rate (85/s seen in CI), so only a missing or broken reading fails here.
    expect(m.turnsPerSecond).toBeGreaterThan(0)
    expect(Number.isFinite(m.turnsPerSecond)).toBe(true)
  })

  it('should count a 200 ms block once, at its true length, in an animating page inside an iframe (this one)', async () => {
    // Vitest runs this file in a same-origin iframe: there, while requestAnimationFrame runs, Chromium reports the
    // block as a longtask and no long-animation-frame, which alone was observed (longTasks stayed 0). Both kinds are
    // now observed, and a stall reported as both counts once.
    expect(window.parent).not.toBe(window)
    let animating = true
    const frame = () => animating && requestAnimationFrame(frame)
    requestAnimationFrame(frame)
    const m = monitor()
    await sleep(130)
    block(200)
    await sleep(400)
    animating = false
    m.stop()
    // At least: a loaded machine can add a long task of its own (that a stall reported as both kinds counts once is
    // checked on the fake host).
    expect(m.longTasks).toBeGreaterThanOrEqual(1)
    expect(m.lag.max).toBeGreaterThanOrEqual(200)
  })

  it('should read a 50%-busy periodic load (50 ms of work every 100 ms) as about half busy, not saturated', async () => {
    // Each late timer fired at the end of a 50 ms task, and its successor, 50 ms later, at the start of the next one:
    // every sample found the loop busy, utilization read 1.00 and 'pressure' fired for a loop idle half the time.
    // Pressure by utilization only: on a loaded machine a 50 ms task can make a timer over 100 ms late (maxLagMs). The
    // bounds leave room for a loaded machine, whose own delays make timers late and read busy (it read 0.85-0.9 twice
    // under load): the bug read 1.00.
    const m = monitor({ maxUtilization: 0.97, maxLagMs: 1e9 })
    let pressure = 0
    m.on('pressure', () => pressure++)
    const load = setInterval(() => block(50), 100)
    await sleep(5300) // past the 5 s window, so utilization is no longer diluted by the monitor's youth
    clearInterval(load)
    m.stop()
    expect(m.utilization).toBeGreaterThan(0.2)
    expect(m.utilization).toBeLessThan(0.95)
    expect(pressure).toBe(0)
  }, 15_000)

  it('should see >= 150 ms from timer drift alone, wherever the block falls in the 50 ms sampling period', async () => {
    // A fresh monitor per phase; timer drift is what workers and Node have (no long-task reports there).
    for (const phase of [0, 13, 27, 41]) {
      const m = monitor()
      await sleep(120 + phase)
      block(200)
      await sleep(80)
      const samples = m.lag.max
      m.stop()
      expect(samples, `phase ${phase}`).toBeGreaterThanOrEqual(150)
    }
  })
})

describe('loop() vs microtask recursion', () => {
  it('should let >= 30 animation frames run during a 1 s loop(), and none during a 1 s microtask recursion', async () => {
    // Up to 3 tries: other processes on the 2 cores can hold the compositor back for a second; a loop that starves
    // the page draws no frame in any of them.
    let cooperative = 0
    for (let i = 0; i < 3 && cooperative < 30; i++) {
      cooperative = await framesDuring(async () => {
        const l = loop(() => { block(0.02) }, { budgetMs: 5 })
        await sleep(1000)
        l.stop()
        await l.done
      })
    }
    const starving = await framesDuring(() => new Promise<void>((resolve) => {
      const end = performance.now() + 1000
      const step = () => (performance.now() < end ? queueMicrotask(step) : resolve())
      queueMicrotask(step)
    }))
    expect(cooperative).toBeGreaterThanOrEqual(30)
    expect(starving).toBe(0)
  })

  it('should let timers keep firing (vs idle, side by side), where a microtask recursion lets none', async () => {
    // This machine is shared and noisy (idle 10 ms intervals can gap 50 ms), so this compares counts measured
    // back to back; the benchmark reports the worst timer delay.
    const fires = async (run: () => Promise<unknown>) => {
      let n = 0
      const timer = setInterval(() => n++, 10)
      await run()
      clearInterval(timer)
      return n
    }
    const idle = await fires(() => sleep(500))
    const cooperative = await fires(async () => {
      const l = loop(async () => {}, { budgetMs: 5 })
      await sleep(500)
      l.stop()
      expect(await l.done).toBeGreaterThan(1000)
    })
    const starving = await fires(() => new Promise<void>((resolve) => {
      const end = performance.now() + 500
      const step = (): void => { performance.now() < end ? void Promise.resolve().then(step) : resolve() }
      step()
    }))
    // Loose on purpose (a loaded 2-core machine stretches every slice); the contrast is with the recursion's 0-1.
    expect(cooperative).toBeGreaterThanOrEqual(Math.max(5, idle * 0.25))
    expect(starving).toBeLessThanOrEqual(1)
  })

  it('should let a timer that came due during a slice fire before the next slice, not every other slice', async () => {
    // Chromium moves a due timer into its task queue only when it picks the next task: behind the yield the slice
    // just posted. One hop, the next slice ran first, and a timer waited two slices (~10 ms at a 5 ms budget).
    const { fires, slices } = await timerFiresPerSlice(async (step) => {
      const l = loop(() => { step() }, { budgetMs: 5 })
      await sleep(500)
      l.stop()
      await l.done
    })
    expect(slices).toBeGreaterThan(20)
    // One fire per slice; one hop read about half.
    expect(fires / slices, `${fires} timer fires in ${slices} slices`).toBeGreaterThanOrEqual(0.75)
  })
})

describe('in a Web Worker', () => {
  it('should detect a strategy, run FIFO, loop cooperatively and monitor a block', async () => {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })
    const report = await new Promise<any>((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data)
      worker.onerror = (e) => reject(new Error(e.message))
      worker.postMessage('go')
    })
    worker.terminate()
    const seen = JSON.stringify(report)
    expect(report.strategy, seen).toBe('postTask')
    expect(report.order, seen).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(report.strategies, seen).toEqual({ postTask: true, setImmediate: false, messageChannel: true, postMessage: false, setTimeout: true })
    expect(report.iterations, seen).toBeGreaterThan(1000)
    // Timers keep firing while the loop runs (compared with the same worker idle, measured just before).
    expect(report.timers, seen).toBeGreaterThanOrEqual(Math.max(3, report.idleTimers * 0.25))
    expect(report.lagMax, seen).toBeGreaterThanOrEqual(150)
  })
})
