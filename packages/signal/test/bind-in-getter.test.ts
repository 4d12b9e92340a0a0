// Edges of two fixes: NOTIFIED only while a signal's lone binding is queued, and a top-level read that queued
// renders (a bind() in a getter) settles.
import { afterEach, describe, expect, it } from 'vitest'
import { Signal, batch, computed, effect, flush, settled } from '@eddy/signal'
import { resetSchedule } from './reset-schedule.ts'

afterEach(resetSchedule)
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('bind() in a getter read at top level', () => {
  it('a getter that throws after bind(): the binding renders, settled() resolves', async () => {
    const s = new Signal('a')
    const el = document.createElement('p')
    const c = computed(() => {
      s.bind(el)
      throw new Error('after bind')
    })
    expect(() => c.value).toThrow('after bind')
    await settled()
    expect(el.textContent).toBe('a')
    s.value = 'b'
    await tick()
    expect(el.textContent).toBe('b')
  })

  it('bind() in a batch in a getter, and in an effect created in a getter', async () => {
    const s = new Signal(1)
    const a = document.createElement('p')
    const b = document.createElement('p')
    let stop = () => {}
    const c = computed(() => {
      batch(() => s.bind(a))
      stop = effect(() => void s.bind(b, { format: (v) => `e${v}` }))
      return 1
    })
    c.value
    await settled()
    expect([a.textContent, b.textContent]).toEqual(['1', 'e1'])
    stop()
  })

  it('bind() then dispose() in a getter: nothing stuck, later bindings render', async () => {
    const s = new Signal(1)
    const c = computed(() => {
      s.bind(document.createElement('p')).dispose()
      return 1
    })
    c.value
    await settled()
    const el = document.createElement('p')
    s.bind(el)
    s.value = 2
    await tick()
    expect(el.textContent).toBe('2')
  })
})

describe('NOTIFIED with the microtask flush left posted', () => {
  it('write, flush(), write, flush(), write: each lands (the lone binding re-queued while a flush is posted)', async () => {
    const s = new Signal(0)
    const el = document.createElement('p')
    s.bind(el)
    await tick()
    for (let i = 1; i <= 5; i++) {
      s.value = i
      if (i % 2) flush()
      expect(i % 2 ? el.textContent : 'x').toBe(i % 2 ? String(i) : 'x')
    }
    await tick()
    expect(el.textContent).toBe('5')
    s.value = 6
    await tick()
    expect(el.textContent).toBe('6')
  })

  it('an effect that flushes and writes the bound signal again, then disposes itself', async () => {
    const s = new Signal(0)
    const el = document.createElement('p')
    s.bind(el)
    await tick()
    const stop = effect(() => {
      if (s.value == 1) {
        flush()
        s.value = 2
        flush()
        s.value = 3
        queueMicrotask(() => stop())
      }
    })
    s.value = 1
    await tick()
    expect(el.textContent).toBe('3')
    s.value = 4
    await tick()
    expect(el.textContent).toBe('4')
  })

  it('a binding disposed while queued, its sibling left alone on the signal', async () => {
    const s = new Signal(0)
    const a = document.createElement('p')
    const b = document.createElement('p')
    const ba = s.bind(a)
    s.bind(b)
    await tick()
    s.value = 1
    ba.dispose()
    s.value = 2
    await tick()
    expect(b.textContent).toBe('2')
    s.value = 3
    s.value = 4
    await tick()
    expect(b.textContent).toBe('4')
  })

  it('flush() inside a computed (deferred) while the microtask flush is posted', async () => {
    const s = new Signal(0)
    const el = document.createElement('p')
    s.bind(el)
    await tick()
    s.value = 1
    const c = computed(() => (flush(), s.value))
    c.value
    await tick()
    expect(el.textContent).toBe('1')
    s.value = 2
    await tick()
    expect(el.textContent).toBe('2')
  })

  it('a render that writes (format) during a manual flush() while a microtask flush is posted', async () => {
    const s = new Signal(0)
    const t = new Signal(0)
    const el = document.createElement('p')
    const tl = document.createElement('p')
    s.bind(el, { format: (v) => ((t.value = v * 10), v) })
    t.bind(tl)
    await tick()
    s.value = 1
    flush()
    expect(tl.textContent).toBe('10')
    s.value = 2
    await tick()
    expect([el.textContent, tl.textContent]).toEqual(['2', '20'])
  })

  it('a manual flush() that throws (no reportError) while the microtask flush is posted: later writes render', async () => {
    expect(typeof (globalThis as any).reportError).toBe('undefined')
    const s = new Signal(0)
    const el = document.createElement('p')
    let fail = false
    s.bind(el, { format: (v) => { if (fail) { fail = false; throw new Error('render') } return v } })
    await tick()
    s.value = 1
    fail = true
    expect(() => flush()).toThrow('render')
    s.value = 2
    await tick()
    expect(el.textContent).toBe('2')
    s.value = 3
    await tick()
    expect(el.textContent).toBe('3')
  })
})
