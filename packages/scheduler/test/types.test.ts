// Checks of the public types (tsc --noEmit runs over tests): each @ts-expect-error must stay an error. At run time,
// each line that is a type error must also throw or do nothing, and the typed values must be what they say.
import { describe, expect, it } from 'vitest'
import { createQueue, loop, macrotask, monitor, probeTurnRate, strategy, type Lag, type Loop, type Monitor, type Queue, type Strategy } from '@eddy/scheduler'

describe('public types', () => {
  it('should pin the shapes of every export', async () => {
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
    // The values behind the types: a loop stopped before its first step ran none; the monitor's first sample, taken
    // at once, is not late; a probe counts turns.
    expect(await n).toBe(0)
    expect(tuple).toEqual([0, 0, 0])
    // A rate: finite (a probe that never ended, or ended at once, would not be) and positive.
    const turns = await rate
    expect(Number.isFinite(turns) && turns > 0).toBe(true)
  })
})
