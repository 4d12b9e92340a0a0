// Fake timers the usual way (the scheduler README, "Testing with fake timers", from a user trial): static imports at
// the top, vi.useFakeTimers() in beforeEach. ES imports are hoisted, so eddy loads with the real timers and captures
// them (host.ts); only the app's own setTimeout is faked.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { searchBox, progressBar, pressureBanner, settled, macrotask, yieldToMain, strategy, configure, createQueue } from './app.ts'

const realPerformance = performance
/** Busy-waits `ms` of real time (a step's unit of work). */
const work = (ms: number) => { const end = realPerformance.now() + ms; while (realPerformance.now() < end); }
vi.useFakeTimers() // at the top of the file, "before" the imports, as many users write it: still runs after them

afterEach(() => {
  vi.useRealTimers()
  configure({ schedule: 'microtask' })
  document.body.innerHTML = ''
})

describe('fakes installed after eddy loaded (the common setup)', () => {
  beforeEach(() => vi.useFakeTimers())

  it('happy-dom: the scheduler picked setImmediate (the real one)', () => {
    expect(strategy).toBe('setImmediate')
  })

  it('debounced search box: advanceTimersByTime drives the app timer, settled() the render', async () => {
    const search = vi.fn(async (q: string) => [`${q}-1`, `${q}-2`])
    const { input } = searchBox(document.body, search)
    for (const text of ['e', 'ed', 'edd', 'eddy']) {
      input.value = text
      input.dispatchEvent(new Event('input'))
      vi.advanceTimersByTime(100)
    }
    await settled()
    expect(document.querySelector('#status')!.textContent).toBe('typing')
    vi.advanceTimersByTime(199)
    expect(search).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(search).toHaveBeenCalledTimes(1)
    expect(search).toHaveBeenCalledWith('eddy')
    await vi.waitFor(() => expect(document.querySelector('#results')!.textContent).toBe('eddy-1, eddy-2'))
    expect(document.querySelector('#status')!.textContent).toBe('2 results for eddy')
  })

  it('macrotask() is not driven by the fakes: runAllTimers does not run it, a real turn does', async () => {
    let ran = 0
    macrotask(() => ran++)
    vi.runAllTimers()
    expect(ran).toBe(0)
    await yieldToMain() // real setImmediate, posted after the macrotask's wake-up
    expect(ran).toBe(1)
  })

  it('a macrotask render schedule: settled() resolves on the real timers, fakes or not', async () => {
    const renders = createQueue()
    configure({ schedule: (f) => renders.macrotask(f) })
    const { query } = searchBox(document.body, async () => [])
    query.value = 'x'
    await settled()
    expect((document.querySelector('#q') as HTMLInputElement).value).toBe('x')
  })

  it('progress bar: loop() slices on the real clock and host, its renders count below its steps', async () => {
    let renders = 0
    // 200 steps of 0.25 ms: on a clock that did not move, the first slice would run them all.
    const { loop: l, done } = progressBar(document.body, 200, () => work(0.25))
    new MutationObserver((r) => (renders += r.length)).observe(document.querySelector('#pct')!, { childList: true, characterData: true, subtree: true })
    for (let i = 0; i < 5; i++) await Promise.resolve()
    expect(done.peek()).toBeGreaterThan(0)
    expect(done.peek()).toBeLessThan(200)
    expect(await l.done).toBe(200)
    await settled()
    await Promise.resolve()
    expect(document.querySelector('#pct')!.textContent).toBe('100%')
    expect(renders).toBeGreaterThan(0)
    expect(renders).toBeLessThan(200)
  })

  it('monitor(): spying on performance.now under the default fakes does not reach it (it holds the real object)', async () => {
    const { m } = pressureBanner(document.body, { maxLagMs: 100 })
    const spy = vi.spyOn(performance, 'now').mockImplementation(() => 1e9) // the fake performance, not eddy's
    try {
      // 300 ms of real time (6 samples), waited on eddy's own real host
      const t0 = realPerformance.now()
      let samples = 0
      let last = m.lag
      while (realPerformance.now() - t0 < 300) {
        await yieldToMain()
        if (m.lag !== last) (samples++, (last = m.lag))
      }
      expect(samples).toBeGreaterThan(0)
      expect(m.lag.max).toBeLessThan(100)
      expect(m.underPressure).toBe(false)
    } finally {
      spy.mockRestore()
      m.stop()
    }
  })
})

describe("fakes that leave 'performance' real: a spy on performance.now makes a stall", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }))

  it('monitor(): pressure, then the banner shows', async () => {
    const { m, banner } = pressureBanner(document.body, { maxLagMs: 100 })
    const real = performance.now.bind(performance)
    let offset = 0
    const spy = vi.spyOn(performance, 'now').mockImplementation(() => real() + offset)
    try {
      offset = 400 // the next real sample reads ~400 ms late
      await vi.waitFor(() => expect(m.underPressure).toBe(true), { timeout: 3000, interval: 20 })
      await vi.waitFor(() => expect(banner.hidden).toBe(false), { timeout: 3000, interval: 20 })
    } finally {
      spy.mockRestore()
      m.stop()
    }
  })
})
