// Compile-only checks of the public types (tsc --noEmit runs over tests): each @ts-expect-error must stay an error.
import { describe, expect, it } from 'vitest'
import { createQueue, loop, macrotask, monitor, probeTurnRate, strategy, type Lag, type Loop, type Monitor, type Queue, type Strategy } from '@eddy/scheduler'

describe('public types', () => {
  it('should pin the shapes of every export', () => {
    const cancel: () => void = macrotask(() => {})
    cancel()
    const s: Strategy = strategy
    const q: Queue = createQueue({ strategy: s, budgetMs: 5 })
    // @ts-expect-error an unknown strategy name is a type error
    expect(() => createQueue({ strategy: 'requestIdleCallback' })).toThrow(TypeError)
    // @ts-expect-error strategy is read-only
    q.strategy = 'setTimeout'
    const l: Loop = loop(async () => {})
    const n: Promise<number> = l.done
    // @ts-expect-error iterations is read-only (and a getter at runtime)
    expect(() => { l.iterations = 3 }).toThrow(TypeError)
    l.stop()
    const m: Monitor = monitor({ maxLagMs: 50, maxUtilization: 0.8 })
    const lag: Lag = m.lag
    const tuple: [number, number, number] = [lag.p50, lag.p99, lag.max]
    // @ts-expect-error only 'pressure' and 'relief' are events
    expect(() => m.on('spike', () => {})).toThrow(TypeError)
    const off: () => void = m.on('relief', () => {})
    off()
    // @ts-expect-error underPressure is read-only
    m.underPressure = true
    m.stop()
    const rate: Promise<number> = probeTurnRate({ durationMs: 1 })
    expect([typeof n.then, tuple.length, typeof rate.then]).toEqual(['function', 3, 'function'])
  })
})
