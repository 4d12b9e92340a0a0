// User code that runs while the library is in the middle of its own work: getters run by a check, effect bodies
// and cleanups run by the drain, formats run by the flush. Whatever it does (write, dispose, create, flush), no
// update is lost, nothing runs after it is disposed, and nothing is left stuck.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Signal, computed, configure, effect, flush, untracked } from '@eddy/signal'

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
})

describe('a getter that writes a signal while it is checked', () => {
  it('should not leave an effect that read the signal before with the old value', () => {
    const s = new Signal(0)
    const t = new Signal(0)
    const c = computed(() => {
      t.value = s.value
      return 0
    })
    const seen: number[][] = []
    effect(() => void seen.push([t.value, c.value]))
    s.value = 1
    expect(seen).toEqual([
      [0, 0],
      [1, 0],
    ])
  })

  it('should not leave a computed on the way that read the signal before with the old value', () => {
    const s = new Signal(0)
    const t = new Signal(0)
    const c = computed(() => {
      t.value = s.value
      return 0
    })
    const d = computed(() => t.value + c.value)
    const seen: number[] = []
    effect(() => void seen.push(d.value))
    s.value = 1
    expect(d.value).toBe(1)
    expect(seen).toEqual([0, 1])
  })

  it('should not leave an unwatched computed that read the signal before with the old value', () => {
    const s = new Signal(0)
    const t = new Signal(0)
    const c = computed(() => {
      t.value = s.value
      return 0
    })
    const u = computed(() => t.value + c.value)
    expect(u.value).toBe(0)
    s.value = 1
    expect(u.value).toBe(1)
    expect(u.value).toBe(1)
  })

  it('should not leave what first reads a computed with its value from before its getter wrote a signal it read', () => {
    for (const reader of ['effect', 'binding']) {
      const s = new Signal(1)
      const echo = new Signal(0)
      // c reads echo, then b (echo is still 0), whose getter writes echo: c must run again
      const b = computed(() => (echo.value = s.value * 2))
      const c = computed(() => (echo.value === 0 ? b.value : echo.value * 10))
      const seen: number[] = []
      const el = document.createElement('p')
      if (reader === 'effect') effect(() => void seen.push(c.value))
      else c.bind(el)
      flush()
      expect(c.value).toBe(20)
      if (reader === 'effect') expect(seen).toEqual([2, 20])
      else expect(el.textContent).toBe('20')
      // c reads b again, which writes echo again
      s.value = 2
      echo.value = 0
      flush()
      expect(c.value).toBe(40)
      if (reader === 'effect') expect(seen).toEqual([2, 20, 40])
      else expect(el.textContent).toBe('40')
    }
  })

  it('should still cut off an effect when the signal it writes is read by none of them', () => {
    const s = new Signal(0)
    const recomputes = new Signal(0)
    const c = computed(() => {
      untracked(() => recomputes.value++)
      return s.value > 10
    })
    let runs = 0
    effect(() => {
      c.value
      runs++
    })
    s.value = 1
    s.value = 2
    expect(recomputes.peek()).toBe(3)
    expect(runs).toBe(1)
  })
})

describe('flush() called by a getter', () => {
  it('should not render a computed that depends on the one being checked (a false "Cycle detected", cached)', async () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    const s = new Signal(0)
    const other = new Signal(1)
    const b = computed(() => {
      const v = s.value
      flush()
      return v
    })
    const c = computed(() => b.value * 2)
    const x = computed(() => other.value + c.value)
    const el = document.createElement('p')
    x.bind(el)
    effect(() => void c.value)
    flush()
    expect(el.textContent).toBe('1')
    s.value = 1
    s.value = 2
    await Promise.resolve()
    expect(reported).toEqual([])
    expect(x.value).toBe(5)
    expect(el.textContent).toBe('5')
  })

  it('should render at the next microtask, even with a schedule that flushes at once', async () => {
    configure({ schedule: (f) => f() })
    const s = new Signal(0)
    const shown = new Signal('a')
    const el = document.createElement('p')
    shown.bind(el)
    const c = computed(() => {
      shown.value = `b${s.value}`
      flush()
      return s.value
    })
    expect(c.value).toBe(0)
    await Promise.resolve()
    expect(el.textContent).toBe('b0')
    shown.value = 'c'
    expect(el.textContent).toBe('c')
  })
})
