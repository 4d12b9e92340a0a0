// Fakes installed BEFORE eddy loads (the scheduler README, "Testing with fake timers", from a user trial): eddy then
// captures the fakes (setImmediate, setTimeout, and, with Vitest's default toFake, performance). Each test loads a
// fresh copy of the app and of eddy with vi.resetModules() + a dynamic import.
import { afterEach, describe, expect, it, vi } from 'vitest'

type App = typeof import('./app.ts')
const realPerformance = performance
const realSetTimeout = setTimeout
/** Busy-waits `ms` of real time (the app's "unit of work"). */
const work = (ms: number) => { const end = realPerformance.now() + ms; while (realPerformance.now() < end); }
/** Real time passes: resolves after `ms`, on the real timer. */
const realSleep = (ms: number) => new Promise((r) => realSetTimeout(r, ms))

async function load(toFake?: Parameters<typeof vi.useFakeTimers>[0]): Promise<App> {
  vi.useFakeTimers(toFake)
  vi.resetModules()
  return import('./app.ts')
}

afterEach(() => {
  vi.useRealTimers()
  document.body.innerHTML = ''
})

describe('default fakes (Vitest 4: setTimeout, setImmediate, Date, performance, rAF...; not queueMicrotask)', () => {
  it('the scheduler captured the fake setImmediate: macrotask and yieldToMain wait for the fake clock', async () => {
    const app = await load()
    expect(app.strategy).toBe('setImmediate')
    let ran = 0
    app.macrotask(() => ran++)
    let resumed = false
    app.yieldToMain().then(() => (resumed = true))
    await Promise.resolve()
    expect(ran).toBe(0)
    vi.advanceTimersByTime(0)
    await Promise.resolve()
    expect([ran, resumed]).toEqual([1, true])
  })

  it('debounced search box and bindings work as with real timers', async () => {
    const app = await load()
    const search = vi.fn(async (q: string) => [q.toUpperCase()])
    const { input } = app.searchBox(document.body, search)
    input.value = 'eddy'
    input.dispatchEvent(new Event('input'))
    await vi.advanceTimersByTimeAsync(300)
    await app.settled()
    expect(search).toHaveBeenCalledTimes(1)
    expect(document.querySelector('#results')!.textContent).toBe('EDDY')
  })

  it("performance faked too (the default): loop()'s clock never moves, so a slice never ends (README: leave it out)", async () => {
    const app = await load()
    const { loop: l, done } = app.progressBar(document.body, 200, () => work(0.25), 5)
    // Let the first slice run (it starts in a microtask); a slice that yields waits for the fake setImmediate.
    for (let i = 0; i < 5; i++) await Promise.resolve()
    // 200 steps of 0.25 ms, 10 budgets, ran in one slice: a loop stopped by a timer would spin for ever.
    expect(done.peek()).toBe(200)
    expect(await l.done).toBe(200)
  })

  it('the same bar with performance left real: loop() slices, and advancing the fake clock drives it', async () => {
    const app = await load({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'Date'] })
    const { loop: l, done } = app.progressBar(document.body, 200, () => work(0.25), 5)
    for (let i = 0; i < 5; i++) await Promise.resolve()
    const firstSlice = done.peek()
    expect(firstSlice).toBeLessThan(200)
    await vi.runAllTimersAsync()
    expect(await l.done).toBe(200)
    await app.settled()
    expect(document.querySelector('#pct')!.textContent).toBe('100%')
  })

  it('monitor(): fake timers fire on time, so no lag ever shows; a spy on performance.now makes a stall', async () => {
    const app = await load()
    const { m, banner } = app.pressureBanner(document.body, { maxLagMs: 100 })
    vi.advanceTimersByTime(10_000)
    expect(m.lag.max).toBe(0)
    expect(m.underPressure).toBe(false)
    const fakeNow = performance.now.bind(performance)
    let offset = 0
    vi.spyOn(performance, 'now').mockImplementation(() => fakeNow() + offset)
    offset = 250
    vi.advanceTimersByTime(50) // one sample, 250 ms late
    expect(m.lag.max).toBeGreaterThanOrEqual(250)
    expect(m.underPressure).toBe(true)
    // Listeners run in the next turn: a fake setImmediate posted from inside a fake timer is due 1 ms later (sinon
    // gives a 0 ms timer added during a tick 1 ms), so advancing 0 ms runs nothing yet.
    vi.advanceTimersByTime(0)
    await app.settled()
    expect(banner.hidden).toBe(true)
    vi.advanceTimersByTime(1)
    await app.settled()
    expect(banner.hidden).toBe(false)
    m.stop()
  })

  it('monitor(): vi.runAllTimers() with a monitor running throws (its sampling timer re-arms for ever)', async () => {
    const app = await load()
    const { m } = app.pressureBanner(document.body)
    expect(() => vi.runAllTimers()).toThrow(/Aborting after running \d+ timers/)
    m.stop()
    expect(() => vi.runAllTimers()).not.toThrow()
  })

  it("'animationFrame' schedule: the README's recipe (let the microtask run, then advanceTimersToNextFrame) renders", async () => {
    const app = await load()
    app.configure({ schedule: 'animationFrame' })
    const { query, input } = app.searchBox(document.body, async () => [])
    query.value = 'raf'
    const done = app.settled()
    await Promise.resolve()
    vi.advanceTimersToNextFrame()
    await done
    expect(input.value).toBe('raf')
  })

  it('after vi.useRealTimers(), the loaded copy keeps the dead fakes: a macrotask never runs until the module is reloaded', async () => {
    const app = await load()
    vi.useRealTimers()
    let ran = 0
    app.macrotask(() => ran++)
    await realSleep(50)
    expect(ran).toBe(0) // captured at load: the fake setImmediate of an uninstalled clock
    vi.resetModules()
    const fresh: App = await import('./app.ts')
    fresh.macrotask(() => ran++)
    await realSleep(50)
    expect(ran).toBe(1)
  })
})

describe("toFake with 'queueMicrotask' before import", () => {
  it('settled() waits for vi.runAllTicks()', async () => {
    const app = await load({ toFake: ['setTimeout', 'clearTimeout', 'queueMicrotask'] })
    const { query, input } = app.searchBox(document.body, async () => [])
    query.value = 'tick'
    let settled = false
    app.settled().then(() => (settled = true))
    await realSleep(10)
    expect(settled).toBe(false)
    vi.runAllTicks()
    await Promise.resolve()
    expect(settled).toBe(true)
    expect(input.value).toBe('tick')
  })
})
