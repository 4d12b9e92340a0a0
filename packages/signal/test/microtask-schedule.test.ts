// The microtask schedule: one flush chain, whatever flush() calls or schedule changes come in between, and nothing stuck
// when a posted flush is lost (a stubbed or faked queueMicrotask). From a review of the fix for a doubled chain.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Signal, configure, flush, settled } from '@eddy/signal'
import { resetSchedule } from './reset-schedule.ts'
import { burstRenders } from './burst.ts'

afterEach(() => {
  vi.useRealTimers()
  resetSchedule()
})

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('the microtask schedule', () => {
  it('a write while queueMicrotask is stubbed (a harness, a polyfill): flush() and later writes render again', async () => {
    const s = new Signal(0)
    const el = document.createElement('p')
    s.bind(el)
    await settled()
    const real = globalThis.queueMicrotask
    globalThis.queueMicrotask = () => {}
    try {
      s.value = 1
    } finally {
      globalThis.queueMicrotask = real
    }
    flush()
    expect(el.textContent).toBe('1')
    s.value = 2
    await tick()
    expect(el.textContent).toBe('2')
  })

  it('fake timers that fake queueMicrotask, then real timers: renders resume', async () => {
    const s = new Signal(0)
    const el = document.createElement('p')
    s.bind(el)
    await settled()
    vi.useFakeTimers({ toFake: ['queueMicrotask'] })
    s.value = 1
    vi.useRealTimers()
    // the README: "or call flush()"
    flush()
    expect(el.textContent).toBe('1')
    s.value = 2
    await tick()
    expect(el.textContent).toBe('2')
  })

  it('a temporary synchronous schedule inside a burst of microtask writes does not double every later round', async () => {
    const burst = (toggle: boolean) =>
      burstRenders((w, k) => {
        if (toggle && w == 0 && k == 1) {
          configure({ schedule: (f) => f() })
          configure({ schedule: 'microtask' })
        }
      })
    const base = await burst(false)
    expect(base).toBe(100)
    expect(await burst(true)).toBeLessThanOrEqual(base + 2)
  })
})
