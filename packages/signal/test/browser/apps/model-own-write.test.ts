// A model field's own write is skipped at its render (keys typed after a 'change' stay), and checkbox groups on a
// Signal<string[]>: a review's cases. The first four failed on the first version of the skip (undefined taken for a
// record, a select whose options re-rendered, a record left by an equal write).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Signal, batch, computed, configure, flush, settled } from '@eddy/signal'

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

const input = (type = 'text') => {
  const el = document.body.appendChild(document.createElement('input'))
  el.type = type
  return el
}

describe("a field's own write is not rendered back, and nothing else is skipped", () => {
  // `_wrote` starts as undefined and is reset to undefined by every render, and "none" is also undefined: a value
  // of undefined always reads as "this field wrote it", so it is never rendered. Before 50b53ef it rendered as ''.
  it('a record without the field (undefined) blanks a field that showed the previous record', async () => {
    const el = input()
    const alice = new Signal<string>('Alice')
    const b = alice.bind(el, { model: 'input' })
    await settled()
    b.dispose()
    const rec = JSON.parse('{"id":2}') // the next record, from the server, has no name
    const name = new Signal<string>(rec.name)
    name.bind(el, { model: 'input' })
    await settled()
    expect(el.value).toBe('') // observed 'Alice': the new record shows (and will save) the old record's name
  })

  it('writing undefined after the user typed clears the field', async () => {
    const el = input()
    const note = new Signal<any>('')
    note.bind(el, { model: 'input' })
    await settled()
    await userEvent.type(el, 'hello')
    note.value = undefined // "clear the draft"
    await settled()
    expect(el.value).toBe('') // observed 'hello'
  })

  // The skip assumes the field still shows what it wrote. A <select>'s options re-rendered in the same flush
  // (here by an { html } binding whose options depend on the value) reset its selection; its model render, which
  // used to select the value again, now skips it.
  it("a <select> whose options re-render with its value: the pick's own render selects it again", async () => {
    const sel = document.body.appendChild(document.createElement('select'))
    const pick = new Signal('a')
    const options = computed(() => ['a', 'b', 'c'].map((v) => `<option value=${v}>${v}${v == pick.value ? ' ✓' : ''}</option>`).join(''))
    options.bind(sel, { html: true, sanitize: (h) => h })
    pick.bind(sel, { model: 'change' })
    await settled()
    expect(sel.value).toBe('a')
    await userEvent.selectOptions(sel, 'b')
    await settled()
    expect(pick.value).toBe('b')
    expect(sel.value).toBe('b') // observed 'a': the select shows 'a' while the signal holds 'b'
  })

  // A no-op write (the field committed the value the signal already held) queues no render, so `_wrote` is never
  // cleared; a later render of that same value, whatever wrote it, is skipped. Low severity: needs the signal to
  // leave the value and come back within one flush while the field shows uncommitted text.
  it("a field's equal no-op write leaves no record: a later program write of that value renders", async () => {
    configure({ schedule: 'animationFrame' })
    const el = input()
    const name = new Signal('abc')
    name.bind(el, { model: 'change' })
    await settled()
    el.dispatchEvent(new Event('change')) // the README's form.reset() recipe, with the default equal to the signal
    await userEvent.click(el)
    await userEvent.keyboard('{End}d') // not committed
    batch(() => {
      name.value = '' // a "reload" that clears, then sets the record
      name.value = 'abc'
    })
    await settled()
    expect(el.value).toBe('abc') // observed 'abcd' (before 50b53ef: 'abc', as after any program write)
  })

  // The model render does not watch a checkbox's `value` (as it does not watch a select's options): a reused row
  // whose value changes keeps the old check, and a click then edits the wrong entry.
})

describe('own writes: cases that held in review', () => {
  it("two 'change' fields on one signal (throttled): one's own commit renders into the other, its keys stay", async () => {
    let pending: (() => void) | undefined
    configure({ schedule: (f) => void (pending = f) })
    const [a, b] = [input(), input()]
    const s = new Signal('')
    s.bind(a, { model: 'change' })
    s.bind(b, { model: 'change' })
    pending!()
    await userEvent.click(a)
    await userEvent.keyboard('ab{Enter}cd')
    pending!()
    expect([a.value, b.value, s.value]).toEqual(['abcd', 'ab', 'ab'])
  })

  it("'input' fields on one signal under animationFrame: the other follows, and a program write of the typed text's predecessor renders", async () => {
    configure({ schedule: 'animationFrame' })
    const [a, b] = [input(), input()]
    const s = new Signal('')
    s.bind(a, { model: 'input' })
    s.bind(b, { model: 'input' })
    await settled()
    await userEvent.type(a, 'xyz')
    await settled()
    expect(b.value).toBe('xyz')
    s.value = 'xy' // undo
    await settled()
    expect([a.value, b.value]).toEqual(['xy', 'xy'])
    s.value = 'xyz' // redo: equal to a's last own write, which its render has cleared
    await settled()
    expect([a.value, b.value]).toEqual(['xyz', 'xyz'])
  })

  it('Enter then a program reset to another value, before the render: the reset wins', async () => {
    let pending: (() => void) | undefined
    configure({ schedule: (f) => void (pending = f) })
    const el = input()
    const s = new Signal('')
    s.bind(el, { model: 'change' })
    pending!()
    await userEvent.click(el)
    await userEvent.keyboard('ab{Enter}cd')
    s.value = ''
    pending!()
    expect(el.value).toBe('')
  })

  it('a number field: NaN from a partial entry, then a program 0 renders; equals option ignoring case', async () => {
    const el = input('number')
    const n = new Signal(5)
    n.bind(el, { model: 'input' })
    await settled()
    await userEvent.clear(el)
    await userEvent.type(el, '-')
    expect(n.value).toBeNaN()
    n.value = 7
    await settled()
    expect(el.value).toBe('7')
    const t = input()
    const ci = new Signal('Abc', { equals: (a, b) => a.toLowerCase() == b.toLowerCase() })
    ci.bind(t, { model: 'input' })
    await settled()
    await userEvent.clear(t)
    await userEvent.type(t, 'ABC') // intermediate writes change it; 'ABC' lands
    ci.value = 'x'
    await settled()
    expect(t.value).toBe('x')
  })

  it('checkbox groups: missing values share "on", duplicates removed together, boolean/array switch', async () => {
    document.body.innerHTML = `<input type=checkbox><input type=checkbox><input type=checkbox value=a>`
    const [x, y, a] = [...document.querySelectorAll('input')]
    const s = new Signal<boolean | string[]>(['a', 'a'])
    for (const b of [x, y, a]) s.bind(b!, { model: 'change' })
    await settled()
    expect([x, y, a].map((b) => b!.checked)).toEqual([false, false, true])
    await userEvent.click(a!)
    expect(s.value).toEqual([])
    await userEvent.click(x!)
    await settled()
    expect(s.value).toEqual(['on'])
    expect([x, y].map((b) => b!.checked)).toEqual([true, true]) // as Vue: same value, same state
    s.value = false
    await settled()
    await userEvent.click(a!)
    expect(s.value).toBe(true)
  })
})
