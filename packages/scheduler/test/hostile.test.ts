// Re-entrant and hostile use: callbacks that cancel, queue, throw or yield during a drain; cancel functions reused;
// odd options; loop steps and monitors used the wrong way round. What a user expects: nothing lost, nothing run
// twice, nothing run after its cancel, errors reported, bad input a TypeError naming the argument.
import { describe, expect, it, vi } from 'vitest'
import { load, microtasks } from './fake-host.ts'

describe('queue under re-entrant use', () => {
  it('should survive a callback that cancels itself, an earlier and a later one, and queues more', async () => {
    const { host, mod } = await load('setImmediate')
    const c: (() => void)[] = []
    c.push(mod.macrotask(() => host.log.push('a')))
    c.push(mod.macrotask(() => { host.log.push('b'); c[1](); c[0](); c[2](); c.push(mod.macrotask(() => host.log.push('e'))) }))
    c.push(mod.macrotask(() => host.log.push('c')))
    c.push(mod.macrotask(() => host.log.push('d')))
    host.wake()
    for (const cancel of c.slice(0, 4)) cancel()
    host.wake()
    expect(host.log.filter((e) => !e.includes(':'))).toEqual(['a', 'b', 'd', 'e'])
    expect(host.pending()).toBe(0)
  })

  it('should report Errors and non-Errors thrown by callbacks and keep draining', async () => {
    const { host, mod } = await load('setImmediate')
    for (const v of [new Error('e'), 'str', undefined, null, 0]) mod.macrotask(() => { throw v })
    mod.macrotask(() => host.log.push('after'))
    host.wake()
    expect(host.reported).toEqual([new Error('e'), 'str', undefined, null, 0])
    expect(host.log.at(-1)).toBe('after')
  })

  it('should run yieldToMain(), macrotask() and loop() called during a drain later, exactly once', async () => {
    const { host, mod } = await load('setImmediate')
    let resumed = 0
    let steps = 0
    let ran = 0
    mod.macrotask(() => {
      mod.yieldToMain().then(() => resumed++)
      mod.loop(() => ++steps < 3)
      mod.macrotask(() => ran++)
    })
    host.wake()
    // Not in the drain that queued them (a loop's first slice starts in a microtask; its first yield, a later turn).
    expect([resumed, steps, ran]).toEqual([0, 0, 0])
    await microtasks()
    expect([resumed, ran]).toEqual([0, 0])
    while (host.pending()) { host.wake(); await microtasks() }
    expect([resumed, steps, ran]).toEqual([1, 3, 1])
  })
})

describe('time slices when callbacks or steps suddenly get slower', () => {
  it('should not let a few fast callbacks stretch a drain of slow ones far past budgetMs', async () => {
    const { host, mod } = await load('setImmediate')
    const q = mod.createQueue({ budgetMs: 5 })
    let ran = 0
    for (let i = 0; i < 1000; i++) q.macrotask(() => host.block(ran++ < 16 ? 0.001 : 1))
    const start = host.clock
    host.wake()
    // 16 fast callbacks, then 1 ms each: the learned first look and the extrapolation allow some overrun, not seconds.
    expect(host.clock - start).toBeLessThan(40)
    while (host.pending()) host.wake()
    expect(ran).toBe(1000)
  })

  it('should keep a loop slice near its budget when the first step is fast and later ones are slow', async () => {
    const { host, mod } = await load('setImmediate')
    let n = 0
    const l = mod.loop(() => { host.block(n++ === 0 ? 0.001 : 1) }, { budgetMs: 5 })
    const start = host.clock
    await microtasks()
    // A 5 ms budget, 1 ms steps: the slice may overrun a little, not by seconds.
    expect(host.clock - start).toBeLessThan(20)
    l.stop()
  })

  it('should overrun a slice by at most 64 slow steps or callbacks after thousands of fast ones', async () => {
    // The gap between clock reads grows with the steps a slice has run: 20,000 fast ones then 1 ms ones ran 0.2-3 s
    // past a 5 ms budget (a user trial, Node). It is capped at 64 steps.
    const { host, mod } = await load('setImmediate')
    let n = 0
    const l = mod.loop(() => { host.block(n++ < 20_000 ? 0.0001 : 1) }, { budgetMs: 5 })
    const start = host.clock
    await microtasks()
    expect(n).toBeGreaterThan(20_000)
    expect(host.clock - start).toBeLessThanOrEqual(5 + 64)
    l.stop()
    while (host.pending()) host.wake()
    await l.done
    const q = mod.createQueue({ budgetMs: 5 })
    let k = 0
    for (let i = 0; i < 21_000; i++) q.macrotask(() => host.block(k++ < 20_000 ? 0.0001 : 1))
    const at = host.clock
    host.wake()
    expect(k).toBeGreaterThan(20_000)
    expect(host.clock - at).toBeLessThanOrEqual(5 + 64)
  })

  it('should end a slice within budgetMs plus one step when steps turn up to twice as slow (it looks half the remaining budget ahead)', async () => {
    // The slicer reads the clock again after the steps that, at the rate seen so far, take half the remaining
    // budget: steps up to twice that slow still reach the next read within the budget (the last one may end past it).
    for (const at of [5, 10, 20, 30, 40]) {
      const { host, mod } = await load('setImmediate')
      let n = 0
      const l = mod.loop(() => { host.block(n++ < at ? 0.1 : 0.2) }, { budgetMs: 5 })
      const start = host.clock
      await microtasks()
      expect(host.clock - start, `loop, 0.2 ms steps from step ${at}`).toBeLessThanOrEqual(5.2 + 1e-9)
      l.stop()
      // The queue slices its drain the same way (a new queue reads the clock after its first callback).
      const q = mod.createQueue({ budgetMs: 5 })
      let k = 0
      for (let i = 0; i < 200; i++) q.macrotask(() => host.block(k++ < at ? 0.1 : 0.2))
      const t = host.clock
      host.wake()
      // + the fake host's 10 us per task
      expect(host.clock - t, `queue, 0.2 ms callbacks from callback ${at}`).toBeLessThanOrEqual(5.2 + 0.01 + 1e-9)
      expect(k).toBeLessThan(200)
    }
  })
})

describe('probeTurnRate() durations', () => {
  it('should chain wake-ups for 250 ms by default', async () => {
    const { host, mod } = await load('setImmediate')
    const start = host.clock
    const rate = mod.probeTurnRate()
    let turns = 0
    // 1 ms per turn: 0.99 ms of work and the fake host's 10 us.
    while (host.pending() && turns < 10_000) { host.block(0.99); host.wake(); turns++ }
    expect(await rate).toBeCloseTo(1000, 0)
    expect(host.clock - start).toBeGreaterThanOrEqual(250)
    expect(host.clock - start).toBeLessThan(252)
  })

  it('should resolve a finite rate for durationMs 0 on a clock that has not moved yet, chaining until it does', async () => {
    const { host, mod } = await load('setImmediate')
    const start = host.clock
    const rate = mod.probeTurnRate({ durationMs: 0 })
    // A coarse clock (Chromium's moves in 100 us steps): the first turns see no time pass.
    for (let i = 0; i < 3 && host.pending(); i++) { host.wake(); host.clock = start }
    expect(host.pending()).toBe(1)
    while (host.pending()) host.wake()
    const r = await rate
    expect(Number.isFinite(r)).toBe(true)
    // 5 turns: 4 at the frozen clock, then one 10 us later.
    expect(r).toBeCloseTo(5 * 1000 / 0.01, -2)
  })
})

describe('bad options', () => {
  it('should name the argument, the value and its type for a string, a symbol or a boxed number (a strategy: its type), never a TypeError of its own', async () => {
    const { mod } = await load('setImmediate')
    expect(() => mod.createQueue({ budgetMs: '5' as never })).toThrow('bad budgetMs: 5 (string)')
    expect(() => mod.createQueue({ budgetMs: Symbol('x') as never })).toThrow('bad budgetMs: Symbol(x) (symbol)')
    expect(() => mod.loop(() => {}, { budgetMs: Object(5) })).toThrow('bad budgetMs: 5 (object)')
    expect(() => mod.probeTurnRate({ durationMs: '10' as never })).toThrow('bad durationMs: 10 (string)')
    expect(() => mod.monitor({ maxLagMs: Symbol() as never })).toThrow('bad maxLagMs: Symbol() (symbol)')
    // A strategy is a string: an array or a String object named the same was a key of that name, and was taken.
    expect(() => mod.createQueue({ strategy: Symbol('s') as never })).toThrow('bad strategy: symbol')
    expect(() => mod.createQueue({ strategy: ['setImmediate'] as never })).toThrow('bad strategy: object')
    expect(() => mod.probeTurnRate({ strategy: Object('setImmediate') })).toThrow('bad strategy: object')
  })

  it('should accept budgetMs Infinity: a queue that never cuts a drain, a loop that never yields', async () => {
    const { host, mod } = await load('setImmediate')
    const q = mod.createQueue({ budgetMs: Infinity })
    let ran = 0
    for (let i = 0; i < 100; i++) q.macrotask(() => { ran++; host.block(1) })
    host.wake()
    expect(ran).toBe(100)
    expect(host.pending()).toBe(0)
    let n = 0
    expect(await mod.loop(() => { host.block(1); return ++n < 100 }, { budgetMs: Infinity }).done).toBe(100)
    expect(host.pending()).toBe(0)
  })
})

describe('a host with no macrotask primitive (an audio worklet: no timers, no channels)', () => {
  it('should import, say so in strategy, run microtasks, and fail each call that needs a macrotask with a TypeError', async () => {
    for (const name of ['scheduler', 'setImmediate', 'MessageChannel', 'window', 'setTimeout']) vi.stubGlobal(name, undefined)
    vi.resetModules()
    let mod: typeof import('@eddy/scheduler')
    try {
      mod = await import('@eddy/scheduler')
    } finally {
      vi.unstubAllGlobals()
    }
    expect(mod.strategy).toBeUndefined()
    let ran = false
    mod.microtask(() => (ran = true))
    await Promise.resolve()
    expect(ran).toBe(true)
    expect(() => mod.macrotask(() => {})).toThrow(TypeError)
    expect(() => mod.monitor()).toThrow(TypeError)
    expect(() => mod.createQueue()).toThrow('bad strategy: undefined')
    expect(() => mod.probeTurnRate()).toThrow('bad strategy: undefined')
    await expect(mod.yieldToMain()).rejects.toThrow(TypeError)
    // A loop that ends within its first slice needs no macrotask; one that has to yield rejects its done.
    await expect(mod.loop(() => false).done).resolves.toBe(1)
    await expect(mod.loop(() => {}, { budgetMs: 0 }).done).rejects.toThrow(TypeError)
  })
})

describe('loop() hostile steps', () => {
  it('should keep stop() idempotent, ignore it after done, and reject done for a step that throws after stop()', async () => {
    const { mod } = await load('setImmediate')
    const a = mod.loop(() => { a.stop(); a.stop(); throw 'late' })
    await expect(a.done).rejects.toBe('late')
    a.stop()
    expect(a.iterations).toBe(1)
    let n = 0
    const b = mod.loop(() => ++n < 3)
    expect(await b.done).toBe(3)
    b.stop()
    expect(b.iterations).toBe(3)
  })

  it('should treat non-promise return values (numbers, objects, null) as "go on"', async () => {
    const { mod } = await load('setImmediate')
    const values = [0, '', null, undefined, {}, NaN, true]
    let i = 0
    expect(await mod.loop(() => (i < values.length ? values[i++] : false)).done).toBe(values.length + 1)
  })
})
describe('monitor() hostile use', () => {
  it('should deliver no event decided before stop() and not yet delivered (pressure)', async () => {
    const { host, mod } = await load('setImmediate')
    const m = mod.monitor({ maxLagMs: 100 })
    let calls = 0
    m.on('pressure', () => calls++)
    host.advance(50)
    host.block(200)
    // The late timer fires: pressure is decided and its listeners queued for the next turn.
    host.wake()
    expect(m.underPressure).toBe(true)
    m.stop()
    m.stop()
    while (host.pending()) host.wake()
    expect(calls).toBe(0)
  })

  it('should let a listener remove itself and another, add one, and throw, during an event', async () => {
    const { host, mod } = await load('setImmediate')
    const m = mod.monitor({ maxLagMs: 100 })
    const log: string[] = []
    let offB = () => {}
    const offA = m.on('pressure', () => { log.push('a'); offA(); offB(); m.on('pressure', () => log.push('late')); throw new Error('x') })
    offB = m.on('pressure', () => log.push('b'))
    m.on('pressure', () => log.push('c'))
    host.advance(50)
    host.block(200)
    host.advance(60)
    expect(log).toEqual(['a', 'c'])
    expect(host.reported).toHaveLength(1)
    m.stop()
  })
})

describe('more hostile use', () => {
  it('should keep using the natives captured at load when setImmediate, MessageChannel or postMessage are patched or deleted later', async () => {
    for (const kind of ['setImmediate', 'messageChannel', 'postMessage'] as const) {
      const { host, mod } = await load(kind)
      const boom = () => { throw new Error(`patched ${kind}`) }
      vi.stubGlobal('setImmediate', boom)
      vi.stubGlobal('MessageChannel', boom)
      vi.stubGlobal('postMessage', boom)
      vi.stubGlobal('addEventListener', boom)
      let ran = 0
      try {
        mod.macrotask(() => ran++)
        mod.createQueue().macrotask(() => ran++)
      } finally {
        vi.unstubAllGlobals()
      }
      vi.stubGlobal('setImmediate', undefined)
      vi.stubGlobal('MessageChannel', undefined)
      vi.stubGlobal('postMessage', undefined)
      try {
        mod.macrotask(() => ran++)
        mod.createQueue().macrotask(() => ran++)
      } finally {
        vi.unstubAllGlobals()
      }
      while (host.pending()) host.wake()
      expect(ran, kind).toBe(4)
    }
  })

  it('should ignore a replay of its private postMessage key by other code: no error, nothing run twice', async () => {
    const { host, mod } = await load('postMessage')
    let ran = 0
    mod.macrotask(() => ran++)
    const key = host.messages[0]
    // Another listener on window sees the key and posts it back (a message relay, a hostile script).
    expect(() => host.message(key, globalThis)).not.toThrow()
    while (host.pending()) host.wake()
    expect(() => host.message(key, globalThis)).not.toThrow()
    expect(ran).toBe(1)
    mod.macrotask(() => ran++)
    while (host.pending()) host.wake()
    expect(ran).toBe(2)
  })

  it('should not call the step of a loop stopped before it started, and count iterations exactly', async () => {
    const { mod } = await load('setImmediate')
    let calls = 0
    const l = mod.loop(() => { calls++ })
    l.stop()
    expect(await l.done).toBe(0)
    expect(calls).toBe(0)
    expect(l.iterations).toBe(0)
    let n = 0
    const seen: number[] = []
    const m = mod.loop(async () => { seen.push(m.iterations); await null; return ++n < 50 })
    expect(await m.done).toBe(50)
    expect(m.iterations).toBe(50)
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
  })

  it('should reject done when a step returns a value whose then getter throws', async () => {
    const { mod } = await load('setImmediate')
    const l = mod.loop(() => ({ get then() { throw new Error('getter') } }))
    await expect(l.done).rejects.toThrow('getter')
  })

  it('should leave nothing scheduled after monitors started and stopped repeatedly', async () => {
    const { host, mod } = await load('setImmediate')
    for (let i = 0; i < 20; i++) { const m = mod.monitor(); m.stop(); m.stop() }
    // Only the 1 ms turn-rate probes of the first ticks may still run; then nothing.
    for (let i = 0; i < 10_000 && host.pending(); i++) host.wake()
    expect(host.pending()).toBe(0)
  })

  it('should take out-of-range monitor options as documented (maxUtilization above 1: never by utilization)', async () => {
    const { host, mod } = await load('setImmediate')
    const m = mod.monitor({ maxLagMs: Infinity, maxUtilization: 5 })
    for (let i = 0; i < 40; i++) { host.block(60); host.advance(50) }
    expect(m.utilization).toBeGreaterThan(0.5)
    expect(m.underPressure).toBe(false)
    m.stop()
    expect(() => mod.monitor({ maxUtilization: -0.1 })).toThrow('bad maxUtilization: -0.1')
    expect(() => mod.monitor({ maxLagMs: NaN })).toThrow('bad maxLagMs: NaN')
  })

  it('should throw a TypeError for options that are not an object, instead of using the defaults', async () => {
    const { mod } = await load('setImmediate')
    expect(() => mod.createQueue('setTimeout' as never)).toThrow(/^bad options: string$/)
    expect(() => mod.createQueue(null as never)).toThrow(/^bad options: null$/)
    expect(() => mod.loop(() => {}, 0 as never)).toThrow(/^bad options: number$/)
    // Falsy ones too name their type (an empty string read as "bad options: ").
    expect(() => mod.createQueue('' as never)).toThrow(/^bad options: string$/)
    expect(() => mod.monitor(false as never)).toThrow(/^bad options: boolean$/)
    expect(() => mod.monitor(100 as never)).toThrow(/^bad options: number$/)
    expect(() => mod.probeTurnRate('postTask' as never)).toThrow(/^bad options: string$/)
    // undefined is no options; an array or a class instance is an object like any other
    expect(mod.createQueue(undefined).strategy).toBe('setImmediate')
    expect(mod.createQueue([] as never).strategy).toBe('setImmediate')
  })

  it('should refuse an infinite probeTurnRate duration, which would never resolve', async () => {
    const { mod } = await load('setImmediate')
    expect(() => mod.probeTurnRate({ durationMs: Infinity })).toThrow(/^bad durationMs: Infinity$/)
  })

  it('should throw a TypeError naming a bad probeTurnRate argument', async () => {
    const { mod } = await load('setImmediate')
    expect(() => mod.probeTurnRate({ durationMs: -1 })).toThrow('bad durationMs: -1')
    expect(() => mod.probeTurnRate({ durationMs: NaN })).toThrow('bad durationMs: NaN')
    expect(() => mod.probeTurnRate({ strategy: 'nope' as never })).toThrow('bad strategy: nope')
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty']) {
      expect(() => mod.probeTurnRate({ strategy: name as never }), name).toThrow(`bad strategy: ${name}`)
    }
  })
})
