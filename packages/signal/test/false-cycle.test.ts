// Effects and renders triggered in the middle of a read (a retry that returns, announced as a write; a getter that
// writes a signal) wait until the outermost read is done: run then, one that reads the computed being evaluated or
// checked got a false "Cycle detected", and a computed between them cached it.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Signal, computed, configure, effect, flush } from '@eddy/signal'

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
})

const message = (e: unknown) => (e as Error).message

describe('effects triggered in the middle of a read', () => {
  it('should not give a false "Cycle detected" to an effect a retry runs while the computed above it is running', () => {
    let ready = false
    const r = computed(() => {
      if (!ready) throw new Error('not ready') // before any read: retried at the next read
      return 1
    })
    const y = computed(() => r.value + 1) // read first once r returns: r's retry runs in y's getter
    const zero = new Signal(0)
    const m = computed(() => zero.value + y.value) // between the effect and y: reads a source first
    const seen: unknown[] = []
    effect(() => {
      try {
        if (r.value) seen.push(m.value)
      } catch (e) {
        seen.push(message(e))
      }
    })
    expect(seen).toEqual(['not ready'])
    ready = true
    expect(y.value).toBe(2)
    expect(seen).toEqual(['not ready', 2])
    expect(m.value).toBe(2)
  })

  it('should not render a binding with a false "Cycle detected" when a retry returns in a top-level check (a schedule that flushes at once)', () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    configure({ schedule: (f) => f() })
    const t = new Signal(0)
    const other = new Signal(0)
    let ready = false
    const r = computed(() => {
      if (!ready) throw new Error('not ready')
      return 1
    })
    const mid = computed(() => t.value + r.value) // checked, not recomputed: the check itself retries r
    const top = computed(() => mid.value + 1)
    const zero = new Signal(0)
    const m = computed(() => zero.value + top.value)
    const w = computed(() => {
      try {
        return r.value ? m.value : 0
      } catch (e) {
        return message(e)
      }
    })
    const el = document.createElement('p')
    w.bind(el)
    expect(el.textContent).toBe('not ready')
    expect(() => top.value).toThrow('not ready')
    ready = true
    other.value = 1 // moves the global version: the unwatched top is checked at its next read
    expect(top.value).toBe(2)
    expect(el.textContent).toBe('2')
    expect(m.value).toBe(2)
    expect(reported).toEqual([])
  })

  it('should not give a false "Cycle detected" to an effect a getter\'s write runs', () => {
    const s = new Signal(0)
    const echo = new Signal(0)
    const c = computed(() => (echo.value = s.value) + 1) // writes a signal: should not, but may
    const zero = new Signal(0)
    const m = computed(() => zero.value + c.value)
    const seen: unknown[] = []
    effect(() => {
      try {
        if (echo.value) seen.push(m.value)
      } catch (e) {
        seen.push(message(e))
      }
    })
    s.value = 1
    expect(c.value).toBe(2)
    expect(seen).toEqual([2])
    expect(m.value).toBe(2)
  })

  it('should run them once the read is done: it returns its value, and an effect that writes a source of it is seen at the next read', () => {
    const s = new Signal(1)
    const echo = new Signal(0)
    const c = computed(() => {
      echo.value = s.value
      return s.value * 10 // read again: an effect run in the middle of the read would have written it
    })
    const order: string[] = []
    effect(() => {
      if (echo.value !== 1) return
      order.push('effect')
      s.value = 2
    })
    expect(c.value).toBe(10) // the effect ran once c's function had returned
    expect(order).toEqual(['effect'])
    expect(c.value).toBe(20)
    expect(echo.value).toBe(2)
  })
})

it('a top-level read that writes nothing does not call the schedule (one that threw is not retried by reads)', () => {
  vi.stubGlobal('reportError', undefined)
  let calls = 0
  configure({
    schedule: () => {
      calls++
      throw new Error('no frame')
    },
  })
  const b = new Signal(0)
  expect(() => b.bind(document.createElement('p'))).toThrow('no frame')
  const t = new Signal(0)
  const c = computed(() => t.value * 2)
  const before = calls
  t.value = 1 // no subscribers: nothing settles
  expect(c.value).toBe(2) // a stale read that writes nothing
  expect(calls).toBe(before)
  configure({ schedule: 'microtask' })
  flush()
})
