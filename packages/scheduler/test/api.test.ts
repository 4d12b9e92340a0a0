import { describe, expect, it } from 'vitest'
import { createQueue, loop, macrotask, microtask, monitor, probeTurnRate, strategy, yieldToMain } from '@eddy/scheduler'

const block = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); }

describe('strategy', () => {
  it('should pick setImmediate in happy-dom (Node underneath)', () => {
    expect(strategy).toBe('setImmediate')
  })
})

describe('macrotask()', () => {
  it('should run callbacks in a later turn, FIFO, after microtasks', async () => {
    const log: string[] = []
    macrotask(() => log.push('a'))
    macrotask(() => log.push('b'))
    microtask(() => log.push('micro'))
    log.push('sync')
    await yieldToMain()
    expect(log).toEqual(['sync', 'micro', 'a', 'b'])
  })

  it('should not run a cancelled callback', async () => {
    const log: number[] = []
    const cancel = macrotask(() => log.push(1))
    macrotask(() => log.push(2))
    cancel()
    await yieldToMain()
    expect(log).toEqual([2])
  })

  it('should throw a TypeError naming fn for a non-function', () => {
    expect(() => macrotask(42 as never)).toThrow(/bad fn: number/)
  })
})

describe('createQueue()', () => {
  it('should run on every strategy the host has', async () => {
    // happy-dom has a window: postMessage too, whose events come from happy-dom's window object, not globalThis
    // (the source check once compared with globalThis, and such a queue ran nothing, silently).
    for (const name of ['setImmediate', 'messageChannel', 'postMessage', 'setTimeout'] as const) {
      const q = createQueue({ strategy: name })
      expect(q.strategy).toBe(name)
      const ran = await Promise.race([
        new Promise((resolve) => q.macrotask(() => resolve(true))),
        new Promise((resolve) => setTimeout(() => resolve(false), 500)),
      ])
      expect(ran, name).toBe(true)
    }
  })

  it('should throw a TypeError naming an unknown or missing strategy', () => {
    expect(() => createQueue({ strategy: 'warp' as never })).toThrow(/bad strategy: warp/)
    expect(() => createQueue({ strategy: 'postTask' })).toThrow(/bad strategy: postTask/)
    expect(() => createQueue({ budgetMs: -1 })).toThrow(/budgetMs/)
  })
})

describe('loop()', () => {
  it('should run async steps until stop() and count them', async () => {
    const l = loop(async () => {})
    await new Promise((r) => setTimeout(r, 20))
    l.stop()
    const n = await l.done
    expect(n).toBe(l.iterations)
    expect(n).toBeGreaterThan(100)
  })

  it('should end when a step returns false and reject done when a step throws', async () => {
    let i = 0
    expect(await loop(() => ++i < 10).done).toBe(10)
    await expect(loop(() => { throw new Error('boom') }).done).rejects.toThrow('boom')
  })
})

describe('probeTurnRate()', () => {
  it('should report a positive rate', async () => {
    expect(await probeTurnRate({ durationMs: 20 })).toBeGreaterThan(0)
  })
})

describe('monitor()', () => {
  it('should report a 200 ms block as lag and go under pressure', async () => {
    const m = monitor({ maxLagMs: 100 })
    let pressured = 0
    m.on('pressure', () => pressured++)
    await new Promise((r) => setTimeout(r, 120))
    block(200)
    await new Promise((r) => setTimeout(r, 120))
    m.stop()
    expect(m.lag.max).toBeGreaterThanOrEqual(150)
    expect(m.underPressure).toBe(true)
    expect(pressured).toBe(1)
  })
})
