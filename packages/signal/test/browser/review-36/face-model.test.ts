// Review of b1716d3: { model } on a form-associated custom element. What held.
import { afterEach, describe, expect, it } from 'vitest'
import { Signal, flush } from '@eddy/signal'
import { catchReports, blankFrame } from './helpers.ts'
import { CheckFace, RadioFace, TextFace, define } from './face.ts'

const cleanups: (() => void)[] = []
afterEach(() => {
  cleanups.splice(0).forEach((f) => f())
  document.body.replaceChildren()
})
function make<T extends HTMLElement>(cls: new () => T, attrs = ''): T {
  const box = document.createElement('div')
  const name = define(class extends (cls as unknown as typeof HTMLElement) {})
  box.innerHTML = `<form><${name} ${attrs}></${name}></form>`
  document.body.append(box)
  return box.querySelector('form')!.firstElementChild as T
}

describe('a text-like FACE (shadow <input>)', () => {
  it("'input' model: renders, hears the composed input of its inner field, and its form value follows", () => {
    const el = make(TextFace, 'name="city"')
    const city = new Signal('Lyon')
    city.bind(el, { model: 'input' })
    flush()
    expect(el.value).toBe('Lyon')
    el.typeText('Paris')
    expect(city.value).toBe('Paris')
    expect(new FormData(el.closest('form')!).get('city')).toBe('Paris')
    city.value = 'Nice'
    flush()
    expect(el.input.value).toBe('Nice')
  })

  it("'change' model: writes at the change it re-dispatches, not at each keystroke", () => {
    const el = make(TextFace)
    const s = new Signal('a')
    s.bind(el, { model: 'change' })
    flush()
    el.typeText('ab')
    expect(s.value).toBe('a')
    el.input.dispatchEvent(new Event('change', { bubbles: true }))
    expect(s.value).toBe('ab')
  })

  it('IME: composing inputs (isComposing, composed from the shadow root) write nothing and block renders; compositionend writes', () => {
    const el = make(TextFace)
    const s = new Signal('')
    s.bind(el, { model: 'input' })
    flush()
    el.input.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true, composed: true }))
    el.typeText('に', { isComposing: true })
    expect(s.value).toBe('')
    s.value = 'other' // a render during the composition leaves the field alone
    flush()
    expect(el.value).toBe('に')
    el.typeText('日本', { isComposing: true })
    el.input.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, composed: true, data: '日本' }))
    expect(s.value).toBe('日本')
  })

  it("Signal<number> with a 'number' FACE: '-' (badInput from ElementInternals) reads NaN and is not rewritten", () => {
    const el = make(TextFace, 'type="number"')
    el.input.type = 'number'
    const n = new Signal(3)
    n.bind(el, { model: 'input' })
    flush()
    expect(el.value).toBe('3')
    el.typeText('12')
    expect(n.value).toBe(12)
    // A real partial entry: Chromium's number input reports '' with badInput for '-'; simulated by the validity the
    // element reports through its internals.
    el.input.value = ''
    el.internals.setValidity({ badInput: true }, 'partial', el.input)
    el.dispatchEvent(new InputEvent('input', { bubbles: true })) // the host's own event (its sync() would reset validity)
    expect(n.value).toBeNaN()
    flush()
    expect(el.internals.validity.badInput).toBe(true) // not rewritten (el.value = 'NaN' would clear it)
  })

  it('form reset: the change its formResetCallback dispatches writes back (README claim)', () => {
    const el = make(TextFace, 'value="def"')
    const s = new Signal('typed')
    s.bind(el, { model: 'change' })
    flush()
    el.closest('form')!.reset()
    expect(s.value).toBe('def')
  })

  it('dispose() removes its listeners: later input, change and composition events write nothing', () => {
    const el = make(TextFace)
    const s = new Signal('x')
    const b = s.bind(el, { model: 'input' })
    flush()
    b.dispose()
    el.typeText('y')
    el.input.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, composed: true }))
    el.input.dispatchEvent(new Event('change', { bubbles: true }))
    expect(s.value).toBe('x')
    s.value = 'z'
    flush()
    expect(el.value).toBe('y')
  })
})

describe('FACEs with a type getter take the native path of that type', () => {
  it("type 'checkbox' (md-checkbox-like): a boolean follows `checked`", () => {
    const el = make(CheckFace)
    const on = new Signal(true)
    on.bind(el, { model: 'change' })
    flush()
    expect(el.checked).toBe(true)
    el.click()
    expect(on.value).toBe(false)
  })

  it("type 'checkbox': a checkbox group on one Signal<string[]>", () => {
    const box = document.createElement('div')
    const name = define(class extends CheckFace {})
    box.innerHTML = `<${name} value="a"></${name}><${name} value="b"></${name}>`
    document.body.append(box)
    const [a, b] = box.children as unknown as CheckFace[]
    const picked = new Signal<string[]>(['b'])
    picked.bind(a!, { model: 'change' })
    picked.bind(b!, { model: 'change' })
    flush()
    expect([a!.checked, b!.checked]).toEqual([false, true])
    a!.click()
    expect(picked.value).toEqual(['b', 'a'])
  })

  it("type 'radio' (md-radio-like): the checked one's value is written, the signal checks one", () => {
    const box = document.createElement('div')
    const name = define(class extends RadioFace {})
    box.innerHTML = `<${name} value="s"></${name}><${name} value="m"></${name}>`
    document.body.append(box)
    const [s, m] = box.children as unknown as RadioFace[]
    const size = new Signal('m')
    size.bind(s!, { model: 'change' })
    size.bind(m!, { model: 'change' })
    flush()
    expect([s!.checked, m!.checked]).toEqual([false, true])
    s!.click()
    expect(size.value).toBe('s')
  })
})

describe('what it accepts and refuses', () => {
  it('a FACE defined in another realm (an iframe\'s registry) is accepted', async () => {
    const { win, doc } = await blankFrame()
    cleanups.push(() => win.frameElement?.remove())
    const Cls = new win.Function('return class extends HTMLElement { static formAssociated = true; value = "" }')()
    win.customElements.define('r36-far', Cls)
    const el = doc.createElement('r36-far') as HTMLElement & { value: string }
    doc.body.append(el)
    const s = new Signal('far')
    s.bind(el, { model: 'input' })
    flush()
    expect(el.value).toBe('far')
  })

  it('a plain custom element, and a div, are refused; a FACE subclass is accepted', () => {
    class Plain extends HTMLElement {}
    const plain = document.createElement(define(Plain))
    expect(() => new Signal('').bind(plain, { model: 'input' })).toThrow('bind: model needs a form field, got R36-FACE-')
    expect(() => new Signal('').bind(document.createElement('div'), { model: 'input' })).toThrow(/model needs a form field, got DIV/)
    class Sub extends TextFace {}
    const sub = document.createElement(define(Sub)) as Sub
    expect(() => new Signal('').bind(sub, { model: 'input' })).not.toThrow()
  })

  it("a Signal<number> gets a number from the FACE's text (README: 'a Signal<number> gets a number')", () => {
    const el = make(TextFace)
    const n = new Signal(0)
    n.bind(el, { model: 'input' })
    flush()
    el.typeText('42.5')
    expect(n.value).toBe(42.5)
  })

  it('an element not yet upgraded is refused (bind before customElements.define), accepted once defined', async () => {
    const name = 'r36-late-' + Math.random().toString(36).slice(2)
    const el = document.createElement(name) as TextFace
    document.body.append(el)
    expect(() => new Signal('a').bind(el, { model: 'input' })).toThrow(`bind: model needs a form field, got ${name.toUpperCase()}`)
    customElements.define(name, class extends TextFace {})
    await customElements.whenDefined(name)
    const r = catchReports()
    cleanups.push(r.restore)
    new Signal('a').bind(el, { model: 'input' })
    flush()
    expect(r.errors).toEqual([])
    expect(el.value).toBe('a')
  })
})
