// Fixes of one day taken together: numbered microtask posts with a getter's bind(), a nested drain of many effects,
// a model field's own-write record with later writes and effects, checkbox groups under a deferred render.
import { afterEach, describe, expect, it } from 'vitest'
import { Signal, computed, configure, effect, flush, settled } from '@eddy/signal'
import { resetSchedule } from './reset-schedule.ts'

const real = globalThis.queueMicrotask
afterEach(() => {
  globalThis.queueMicrotask = real
  resetSchedule()
})
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('numbered microtask posts x outerRead settling after a getter bind()', () => {
  it('an at-once queueMicrotask stub: rows bound in a getter render at the read, and later writes render', async () => {
    globalThis.queueMicrotask = (cb: VoidFunction) => cb()
    configure({ schedule: 'microtask' })
    const s = new Signal('a')
    const els = [0, 1, 2].map(() => document.createElement('p'))
    const rows = computed(() => (els.forEach((el) => s.bind(el)), 3))
    expect(rows.value).toBe(3)
    expect(els.map((e) => e.textContent)).toEqual(['a', 'a', 'a'])
    s.value = 'b'
    expect(els.map((e) => e.textContent)).toEqual(['b', 'b', 'b'])
  })

  it('a manual flush() between a getter bind and its posted flush, then a write: one chain, all rendered', async () => {
    const s = new Signal(0)
    const el = document.createElement('p')
    const other = document.createElement('p')
    const c = computed(() => (s.bind(el), 1))
    c.value
    flush()
    expect(el.textContent).toBe('0')
    s.bind(other)
    s.value = 1
    await settled()
    expect([el.textContent, other.textContent]).toEqual(['1', '1'])
    let renders = 0
    const t = new Signal(0)
    t.bind(document.createElement('p'), { format: (v) => (renders++, v) })
    await settled()
    renders = 0
    for (let i = 1; i <= 50; i++) {
      await Promise.resolve()
      t.value = i
      if (i % 10 == 0) flush()
    }
    await tick()
    // one per microtask round (50), no second chain from the flush() calls
    expect(renders).toBeLessThanOrEqual(50)
  })
})

describe('drain cut past 10,000 slots, with a drain of the other queue nested in it', () => {
  it('12,000 bindings whose render writes a signal read by 12,000 effects: all run, later writes too', async () => {
    const s = new Signal(0)
    const fan = new Signal(0)
    const seen = new Array(12_000).fill(-1)
    const stops = seen.map((_, i) => effect(() => void (seen[i] = fan.value)))
    const els = seen.map(() => document.createElement('i'))
    // The first binding's format writes `fan`: its 12,000 effects drain (and are cut) inside the render drain.
    els.forEach((el, i) => s.bind(el, { format: (v) => (i == 0 && (fan.value = v as number), v) }))
    await settled()
    s.value = 7
    await settled()
    expect(els.every((e) => e.textContent == '7')).toBe(true)
    expect(seen.every((v) => v == 7)).toBe(true)
    s.value = 8
    await settled()
    expect(els.filter((e) => e.textContent != '8').length).toBe(0)
    expect(seen.filter((v) => v != 8).length).toBe(0)
    stops.forEach((f) => f())
  })
})

describe('model listener record x NOTIFIED fast path x checkbox groups', () => {
  const field = (type = 'text') => {
    const el = document.createElement('input')
    el.type = type
    document.body.append(el)
    return el
  }
  /** A schedule that renders only when the returned function is called (a macrotask's or a frame's render window). */
  const manual = () => {
    let pending: (() => void) | undefined
    configure({ schedule: (f) => void (pending = f) })
    return () => pending!()
  }
  /** A text field bound `{ model: 'change' }` to an empty signal, its first render done. */
  const changeField = (render: () => void) => {
    const s = new Signal('')
    const el = field()
    s.bind(el, { model: 'change' })
    render()
    return { s, el }
  }

  it("a 'change' field committed twice in one macrotask-scheduled render window keeps later keys", async () => {
    const render = manual()
    const { s, el } = changeField(render)
    el.value = 'ab'
    el.dispatchEvent(new Event('change'))
    el.value = 'abc'
    el.dispatchEvent(new Event('change'))
    el.value = 'abcd' // typed, not committed
    render()
    expect([s.value, el.value]).toEqual(['abc', 'abcd'])
    el.remove()
  })

  it('a program write between the field write and the render still renders', async () => {
    const render = manual()
    const { s, el } = changeField(render)
    el.value = 'x'
    el.dispatchEvent(new Event('change'))
    s.value = 'y'
    render()
    expect(el.value).toBe('y')
    el.remove()
  })

  it('checkbox group: two clicks before a deferred render; the array and the boxes agree', async () => {
    const render = manual()
    const picked = new Signal<string[]>([])
    const boxes = ['a', 'b', 'c'].map((v) => {
      const el = field('checkbox')
      el.value = v
      picked.bind(el, { model: 'change' })
      return el
    })
    render()
    boxes[0]!.click()
    boxes[2]!.click()
    render()
    expect(picked.value).toEqual(['a', 'c'])
    expect(boxes.map((b) => b.checked)).toEqual([true, false, true])
    picked.value = ['b']
    render()
    expect(boxes.map((b) => b.checked)).toEqual([false, true, false])
    boxes.forEach((b) => b.remove())
  })

  it('an effect run by the field write flushes and disposes itself: the field still renders later writes', async () => {
    const s = new Signal('')
    const el = field()
    s.bind(el, { model: 'input' })
    await settled()
    const stop = effect(() => {
      if (s.value == 'go') flush(), queueMicrotask(() => stop())
    })
    el.value = 'go'
    el.dispatchEvent(new Event('input'))
    await tick()
    s.value = 'later'
    await tick()
    expect(el.value).toBe('later')
    s.value = 'again'
    await tick()
    expect(el.value).toBe('again')
    el.remove()
  })
})
