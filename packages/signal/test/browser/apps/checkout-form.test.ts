// A multi-step checkout form, as a demanding user of the README would write it: every kind of form control bound
// with { model }, one-way targets (attr, aria-*, disabled, class, style+format, html+sanitize), computed validation,
// a submit button disabled by a computed. Driven with synthetic events and with real input (userEvent, CDP IME).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cdp, userEvent } from 'vitest/browser'
import { Signal, batch, computed, configure, effect, flush, settled, type Binding } from '@eddy/signal'
import { observe, schedules } from '../dom.ts'

// A naive sanitizer (a user would pass DOMPurify): drops <script>, <iframe> and on* attributes.
function sanitize(html: string): string {
  const t = document.createElement('template')
  t.innerHTML = html
  for (const el of t.content.querySelectorAll('script,iframe,object')) el.remove()
  for (const el of t.content.querySelectorAll('*'))
    for (const a of [...el.attributes]) if (/^on/i.test(a.name)) el.removeAttribute(a.name)
  return t.innerHTML
}

function mountCheckout(root: HTMLElement) {
  root.innerHTML = `
    <form novalidate>
      <ol class="steps"><li data-step="0">Contact</li><li data-step="1">Shipping</li><li data-step="2">Payment</li></ol>
      <section data-step="0">
        <input name="name" autocomplete="off"><small class="err-name"></small>
        <input name="email" type="email"><small class="err-email"></small>
        <input name="qty" type="number" min="1" max="10">
        <input name="tip" type="range" min="0" max="20" step="1"><output class="tip"></output>
        <div class="bar"><div class="fill"></div></div>
      </section>
      <section data-step="1">
        <input name="date" type="date">
        <label><input type="radio" name="ship" value="std">Standard</label>
        <label><input type="radio" name="ship" value="express">Express</label>
        <label><input type="radio" name="ship" value="pickup">Pickup</label>
        <select name="country"><option value="">Choose…</option><option value="fr">France</option><option value="jp">Japan</option></select>
        <select name="extras" multiple><option value="gift">Gift wrap</option><option value="card">Card</option><option value="bag">Bag</option></select>
        <textarea name="notes"></textarea>
        <div class="preview"></div>
      </section>
      <section data-step="2">
        <input type="checkbox" name="terms">
        <div class="summary"></div>
      </section>
      <button type="button" class="back">Back</button>
      <button type="button" class="next">Next</button>
      <button type="submit" class="submit">Pay</button>
    </form>`
  const form = root.querySelector('form')!
  const q = <E extends Element = HTMLInputElement>(sel: string) => form.querySelector<E>(sel)!

  const step = new Signal(0)
  const name = new Signal('')
  const email = new Signal('')
  const qty = new Signal(1)
  const tip = new Signal(10)
  const date = new Signal('')
  const ship = new Signal('std')
  const country = new Signal('')
  const extras = new Signal<string[]>([])
  const notes = new Signal('')
  const terms = new Signal(false)

  const errors = computed(() => {
    const e: Record<string, string> = {}
    if (!name.value.trim()) e.name = 'Required'
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.value)) e.email = 'Invalid e-mail'
    if (!(qty.value >= 1 && qty.value <= 10)) e.qty = '1 to 10'
    if (!date.value && ship.value !== 'pickup') e.date = 'Pick a date'
    if (!country.value) e.country = 'Choose a country'
    if (notes.value.length > 100) e.notes = 'Too long'
    if (!terms.value) e.terms = 'Accept the terms'
    return e
  })
  const stepFields = [['name', 'email', 'qty'], ['date', 'country', 'notes'], ['terms']]
  const stepValid = computed(() => stepFields[step.value]!.every((k) => !(k in errors.value)))
  const valid = computed(() => Object.keys(errors.value).length === 0)
  const total = computed(() => qty.value * 20 + tip.value + (ship.value === 'express' ? 15 : 0) + extras.value.length * 2)

  const bindings: Binding[] = [
    name.bind(q('[name=name]'), { model: 'input' }),
    email.bind(q('[name=email]'), { model: 'input' }),
    qty.bind(q('[name=qty]'), { model: 'input' }),
    tip.bind(q('[name=tip]'), { model: 'input' }),
    tip.bind(q('output.tip'), { format: (v) => `${v} €` }),
    tip.bind(q('.fill'), { style: 'width', format: (v) => `${(v / 20) * 100}%` }),
    tip.bind(q('.bar'), { attr: 'aria-valuenow' }),
    tip.bind(q('.bar'), { style: '--tip' }),
    date.bind(q('[name=date]'), { model: 'change' }),
    country.bind(q('[name=country]'), { model: 'change' }),
    extras.bind(q('[name=extras]'), { model: 'change' }),
    notes.bind(q('[name=notes]'), { model: 'input' }),
    notes.bind(q('.preview'), { html: true, sanitize }),
    terms.bind(q('[name=terms]'), { model: 'change' }),
    computed(() => `Total: ${total.value} €`).bind(q('.summary')),
    computed(() => !valid.value).bind(q('.submit'), 'disabled'),
    computed(() => !stepValid.value).bind(q('.next'), { attr: 'aria-disabled' }),
    computed(() => !stepValid.value).bind(q('.next'), 'disabled'),
    computed(() => step.value === 0).bind(q('.back'), { attr: 'disabled' }),
  ]
  for (const r of form.querySelectorAll('[name=ship]')) bindings.push(ship.bind(r, { model: 'change' }))
  for (const s of form.querySelectorAll<HTMLElement>('section')) {
    const n = +s.dataset.step!
    bindings.push(computed(() => step.value !== n).bind(s, 'hidden'))
  }
  for (const li of form.querySelectorAll<HTMLElement>('.steps li')) {
    const n = +li.dataset.step!
    bindings.push(step.bind(li, { class: 'current', format: (v) => v === n }))
    bindings.push(step.bind(li, { attr: 'aria-current', format: (v) => (v === n ? 'step' : null) }))
  }
  for (const key of ['name', 'email']) {
    const msg = computed(() => errors.value[key] ?? '')
    bindings.push(msg.bind(q(`.err-${key}`)))
    bindings.push(msg.bind(q(`[name=${key}]`), { attr: 'aria-invalid', format: (m) => !!m }))
    bindings.push(msg.bind(q(`[name=${key}]`), { class: 'invalid' }))
  }
  q('.next').addEventListener('click', () => (step.value = Math.min(2, step.peek() + 1)))
  q('.back').addEventListener('click', () => (step.value = Math.max(0, step.peek() - 1)))
  const submitted: string[] = []
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    if (valid.peek()) submitted.push(JSON.stringify({ name, email, qty, tip, date, ship, country, extras, notes, terms }))
  })
  return {
    form,
    q,
    s: { step, name, email, qty, tip, date, ship, country, extras, notes, terms },
    errors,
    valid,
    total,
    submitted,
    destroy: () => bindings.forEach((b) => b.dispose()),
  }
}

const fire = (el: Element, type: string) => el.dispatchEvent(new Event(type, { bubbles: true }))
const typeInto = (el: HTMLInputElement | HTMLTextAreaElement, text: string) => {
  el.value = text
  el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: text }))
}

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

describe('checkout form (Chromium)', () => {
  it.each(Object.entries(schedules))('renders the initial state, walks the steps, and submits once valid (schedule %s)', async (_, schedule) => {
    configure({ schedule })
    const app = mountCheckout(document.body.appendChild(document.createElement('div')))
    await settled()
    const { q, s } = app
    expect(q('.submit').disabled).toBe(true)
    expect(q('.next').disabled).toBe(true)
    expect(q('.next').getAttribute('aria-disabled')).toBe('true')
    expect(q('.back').hasAttribute('disabled')).toBe(true)
    expect(q('[name=qty]').value).toBe('1')
    expect(q('[name=tip]').value).toBe('10')
    expect(q('output.tip').textContent).toBe('10 €')
    expect(q<HTMLElement>('.fill').style.width).toBe('50%')
    expect(q('.bar').getAttribute('aria-valuenow')).toBe('10')
    expect(q<HTMLElement>('.bar').style.getPropertyValue('--tip')).toBe('10')
    expect(q('.err-name').textContent).toBe('Required')
    expect(q('[name=name]').getAttribute('aria-invalid')).toBe('true')
    expect(q('[name=name]').classList.contains('invalid')).toBe(true)
    expect(q<HTMLInputElement>('[value=std]').checked).toBe(true)
    expect(q('.steps li[data-step="0"]').getAttribute('aria-current')).toBe('step')
    expect(q('.steps li[data-step="1"]').hasAttribute('aria-current')).toBe(false)
    expect(q<HTMLElement>('section[data-step="1"]').hidden).toBe(true)
    expect(q('.summary').textContent).toBe('Total: 30 €') // 1 x 20 + 10

    await userEvent.type(q('[name=name]'), 'Ada')
    await userEvent.type(q('[name=email]'), 'ada@example.org')
    expect(s.name.value).toBe('Ada')
    expect(s.email.value).toBe('ada@example.org')
    await settled()
    expect(q('[name=name]').getAttribute('aria-invalid')).toBe('false')
    expect(q('.err-name').textContent).toBe('')
    expect(q('.next').disabled).toBe(false)
    await userEvent.click(q('.next'))
    await settled()
    expect(q<HTMLElement>('section[data-step="0"]').hidden).toBe(true)
    expect(q<HTMLElement>('section[data-step="1"]').hidden).toBe(false)
    expect(q('.back').hasAttribute('disabled')).toBe(false)

    await userEvent.fill(q('[name=date]'), '2030-05-17')
    expect(s.date.value).toBe('2030-05-17')
    await userEvent.selectOptions(q<HTMLSelectElement>('[name=country]'), 'jp')
    expect(s.country.value).toBe('jp')
    await userEvent.selectOptions(q<HTMLSelectElement>('[name=extras]'), ['gift', 'bag'])
    expect(s.extras.value).toEqual(['gift', 'bag'])
    await userEvent.click(q('[value=express]'))
    expect(s.ship.value).toBe('express')
    await userEvent.type(q<HTMLTextAreaElement>('[name=notes]'), 'Ring <b>twice</b><img src=x onerror="window.__pwned=1">')
    await settled()
    expect(q('.preview').innerHTML).toBe('Ring <b>twice</b><img src="x">')
    expect((window as any).__pwned).toBeUndefined()
    expect(q('.summary').textContent).toBe('Total: 49 €') // 20 + 10 + 15 + 2*2
    await userEvent.click(q('.next'))
    await settled()
    expect(q('.submit').disabled).toBe(true)
    await userEvent.click(q('[name=terms]'))
    expect(s.terms.value).toBe(true)
    await settled()
    expect(q('.submit').disabled).toBe(false)
    await userEvent.click(q('.submit'))
    expect(app.submitted).toHaveLength(1)
    expect(JSON.parse(app.submitted[0]!)).toMatchObject({ name: 'Ada', qty: 1, ship: 'express', extras: ['gift', 'bag'], terms: true })
    app.destroy()
  })

  it.each(Object.entries(schedules))('keeps model and DOM in step both ways for every control kind, synthetic events (schedule %s)', async (_, schedule) => {
    configure({ schedule })
    const { q, s, form } = mountCheckout(document.body.appendChild(document.createElement('div')))
    await settled()
    // programmatic -> DOM
    batch(() => {
      s.name.value = 'Grace'
      s.email.value = 'g@h.io'
      s.qty.value = 3
      s.tip.value = 7
      s.date.value = '2031-01-02'
      s.ship.value = 'pickup'
      s.country.value = 'fr'
      s.extras.value = ['card']
      s.notes.value = 'a\nb'
      s.terms.value = true
    })
    await settled()
    expect(q('[name=name]').value).toBe('Grace')
    expect(q('[name=email]').value).toBe('g@h.io')
    expect(q('[name=qty]').value).toBe('3')
    expect(q('[name=tip]').value).toBe('7')
    expect(q('[name=date]').value).toBe('2031-01-02')
    expect([...form.querySelectorAll<HTMLInputElement>('[name=ship]')].map((r) => r.checked)).toEqual([false, false, true])
    expect(q<HTMLSelectElement>('[name=country]').value).toBe('fr')
    expect([...q<HTMLSelectElement>('[name=extras]').selectedOptions].map((o) => o.value)).toEqual(['card'])
    expect(q<HTMLTextAreaElement>('[name=notes]').value).toBe('a\nb')
    expect(q('[name=terms]').checked).toBe(true)
    // DOM -> model
    typeInto(q('[name=qty]'), '4')
    expect(s.qty.value).toBe(4)
    q('[name=tip]').value = '12'
    fire(q('[name=tip]'), 'input')
    expect(s.tip.value).toBe(12)
    q('[name=date]').value = '2032-12-31'
    fire(q('[name=date]'), 'change')
    expect(s.date.value).toBe('2032-12-31')
    q<HTMLInputElement>('[value=std]').click()
    expect(s.ship.value).toBe('std')
    const extras = q<HTMLSelectElement>('[name=extras]')
    for (const o of extras.options) o.selected = o.value !== 'card'
    fire(extras, 'change')
    expect(s.extras.value).toEqual(['gift', 'bag'])
    q('[name=terms]').click()
    expect(s.terms.value).toBe(false)
    await settled()
    expect(q('.summary').textContent).toBe(`Total: ${4 * 20 + 12 + 4} €`)
  })

  it('reads number fields as the README says: "" as 0, "1e3" as 1000 left as typed, "-0" as -0, partial entries as NaN', async () => {
    const { q, s } = mountCheckout(document.body.appendChild(document.createElement('div')))
    await settled()
    const field = q('[name=qty]')
    await userEvent.clear(field)
    expect(field.value).toBe('')
    expect(s.qty.value).toBe(0)
    await userEvent.type(field, '1e3')
    expect(s.qty.value).toBe(1000)
    await settled()
    expect(field.value).toBe('1e3') // reads as the number already: not rewritten
    await userEvent.clear(field)
    await userEvent.type(field, '-0')
    expect(Object.is(s.qty.value, -0)).toBe(true)
    await settled()
    expect(field.value).toBe('-0')
    await userEvent.clear(field)
    await userEvent.type(field, '-')
    expect(s.qty.value).toBeNaN()
    await settled()
    expect(field.value).toBe('') // the browser reports '-' as '' (badInput)
    expect(field.validity.badInput).toBe(true) // still shows '-' to the user
    await userEvent.type(field, '5')
    expect(s.qty.value).toBe(-5)
    // programmatic NaN shows an empty field
    s.qty.value = NaN
    await settled()
    expect(field.value).toBe('')
    // Then the user types: the signal follows.
    await userEvent.type(field, '7')
    expect(s.qty.value).toBe(7)
  })

  it('does not rewrite a number field the user is typing into when the value reads the same ("1.", "0.50", "007")', async () => {
    const { q, s } = mountCheckout(document.body.appendChild(document.createElement('div')))
    await settled()
    const field = q('[name=qty]')
    const writes: string[] = []
    const desc = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!
    Object.defineProperty(field, 'value', {
      configurable: true,
      get() {
        return desc.get!.call(this)
      },
      set(v) {
        writes.push(v)
        desc.set!.call(this, v)
      },
    })
    await userEvent.clear(field)
    for (const ch of '0.50') {
      await userEvent.keyboard(ch)
      await settled()
    }
    expect(s.qty.value).toBe(0.5)
    await userEvent.clear(field)
    for (const ch of '007') {
      await userEvent.keyboard(ch)
      await settled()
    }
    expect(s.qty.value).toBe(7)
    expect(writes.filter((w) => w !== '')).toEqual([])
    delete (field as any).value
  })

  // LIMITATION (not promised by the README, which promises it for numbers only): a render that re-formats a string the
  // user is typing sets `el.value`, and Chromium puts the caret at the end. Pinned as it is.
  it('moves the caret to the end when a subscriber re-formats the value the user types (upper-casing)', async () => {
    const root = document.body.appendChild(document.createElement('div'))
    root.innerHTML = '<input name="code">'
    const input = root.querySelector('input')!
    const code = new Signal('')
    code.subscribe((v) => (code.value = v.toUpperCase()))
    code.bind(input, { model: 'input' })
    await userEvent.type(input, 'abcd')
    await settled()
    expect(input.value).toBe('ABCD')
    expect(code.value).toBe('ABCD')
    // Caret after 'AB', then type 'x' there.
    input.setSelectionRange(2, 2)
    await userEvent.keyboard('x')
    expect(code.value).toBe('ABXCD')
    await settled()
    expect(input.value).toBe('ABXCD')
    // A user expects the caret after the X they typed (position 3); a plain `el.value = ...` puts it at the end.
    expect(input.selectionStart).toBe(5)
  })

  it('lets a programmatic write win while the user types, and the user continues from it', async () => {
    const { q, s } = mountCheckout(document.body.appendChild(document.createElement('div')))
    await settled()
    const field = q('[name=name]')
    await userEvent.type(field, 'Ad')
    s.name.value = 'Lovelace' // e.g. an autofill from a lookup that resolved
    await settled()
    expect(field.value).toBe('Lovelace')
    await userEvent.keyboard('!')
    expect(s.name.value).toBe('Lovelace!')
    await settled()
    expect(field.value).toBe('Lovelace!')
  })

  it('writes an IME composition once, when it ends, and a normalizing subscriber does not cut it off', async () => {
    const root = document.body.appendChild(document.createElement('div'))
    root.innerHTML = '<input name="city"><textarea></textarea>'
    const input = root.querySelector('input')!
    const city = new Signal('')
    const seen: string[] = []
    city.subscribe((v) => {
      seen.push(v)
      city.value = v.trim()
    })
    city.bind(input, { model: 'input' })
    await settled()
    input.focus()
    const session = cdp()
    await userEvent.keyboard('Tokyo ')
    expect(city.value).toBe('Tokyo')
    await settled()
    // The trailing space the user typed is gone (the subscriber trimmed it): expected by the app's own rule.
    expect(input.value).toBe('Tokyo')
    await session.send('Input.imeSetComposition', { text: 'と', selectionStart: 1, selectionEnd: 1 })
    await session.send('Input.imeSetComposition', { text: 'とう', selectionStart: 2, selectionEnd: 2 })
    await settled()
    expect(input.value).toBe('Tokyoとう')
    expect(city.value).toBe('Tokyo')
    await session.send('Input.insertText', { text: '東' })
    expect(city.value).toBe('Tokyo東')
    await settled()
    expect(input.value).toBe('Tokyo東')
    // Same in a textarea.
    const ta = root.querySelector('textarea')!
    const note = new Signal('')
    note.bind(ta, { model: 'input' })
    ta.focus()
    await session.send('Input.imeSetComposition', { text: 'に', selectionStart: 1, selectionEnd: 1 })
    expect(note.value).toBe('')
    await session.send('Input.insertText', { text: '日' })
    expect(note.value).toBe('日')
  })

  // With a schedule that renders later than the microtask checkpoint ('animationFrame', a macrotask), the render of a
  // commit can land while the NEXT composition is active: Korean IMEs commit a syllable and start the next one in the
  // same keystroke. The render found the field showing more than the signal (the composing text is not written yet,
  // by design), wrote the signal's text over it and cancelled the composition; a model's render now leaves a field
  // alone while it composes. A schedule whose flush is held until we call it stands for "the frame had not come yet".
  it('does not overwrite a composition that started while a render was pending (schedule later than a microtask)', async () => {
    let held: (() => void) | undefined
    configure({ schedule: (f) => void (held = f) })
    const input = document.body.appendChild(document.createElement('input'))
    const city = new Signal('')
    city.bind(input, { model: 'input' })
    flush()
    input.focus()
    const starts: string[] = []
    input.addEventListener('compositionstart', () => starts.push(input.value))
    const session = cdp()
    await session.send('Input.imeSetComposition', { text: 'と', selectionStart: 1, selectionEnd: 1 })
    await session.send('Input.insertText', { text: '東' })
    expect(city.value).toBe('東')
    await session.send('Input.imeSetComposition', { text: 'き', selectionStart: 1, selectionEnd: 1 })
    expect(input.value).toBe('東き')
    held!() // the frame comes while 'き' is being composed
    expect(input.value).toBe('東き') // was '東': the composing text was wiped
    await session.send('Input.imeSetComposition', { text: 'きょ', selectionStart: 2, selectionEnd: 2 })
    await session.send('Input.insertText', { text: '京' })
    flush()
    expect(starts).toHaveLength(2) // was 3: the IME had to start over after the render cancelled its composition
    expect(city.value).toBe('東京')
  })

  // The same with the real schedules and real input: a commit and the next composition sent back to back through
  // CDP (as a fast typist, or a Korean IME, which commits a syllable and starts the next one in one keystroke).
  // Measured before the fix: 'microtask' 0/20 wiped; 'animationFrame' 14-19/20, a macrotask 8-20/20, setTimeout 12-16/20.
  it.each(Object.entries(schedules))('keeps the next composition when a commit renders later (schedule %s)', async (_, schedule) => {
    configure({ schedule })
    let wiped = 0
    for (let i = 0; i < 10; i++) {
      const input = document.body.appendChild(document.createElement('input'))
      const s = new Signal('')
      const b = s.bind(input, { model: 'input' })
      flush()
      input.focus()
      const session = cdp()
      await session.send('Input.imeSetComposition', { text: 'と', selectionStart: 1, selectionEnd: 1 })
      await Promise.all([
        session.send('Input.insertText', { text: '東' }),
        session.send('Input.imeSetComposition', { text: 'き', selectionStart: 1, selectionEnd: 1 }),
      ])
      await new Promise((r) => setTimeout(r, 40))
      if (input.value !== '東き') wiped++
      await session.send('Input.insertText', { text: '' })
      b.dispose()
      input.remove()
    }
    expect(wiped).toBe(0)
  })

  // A write made while the user composes waits for the composition's end, whose text then replaces it (the user's
  // last word wins, as with Vue's v-model); and a field removed mid-composition, which gets no 'compositionend', is
  // rendered again once it is back (losing focus cleared its mark; see also ../ime.test.ts).
  it('leaves a composing field alone until the composition ends, and renders a field removed mid-composition once it is back', async () => {
    const session = cdp()
    const input = document.body.appendChild(document.createElement('input'))
    const city = new Signal('')
    const b = city.bind(input, { model: 'input' })
    flush()
    input.focus()
    await session.send('Input.imeSetComposition', { text: 'と', selectionStart: 1, selectionEnd: 1 })
    city.value = 'Kyoto'
    await settled()
    expect(input.value).toBe('と')
    await session.send('Input.insertText', { text: '東' })
    expect([city.value, input.value]).toEqual(['東', '東'])
    city.value = 'Kyoto'
    await settled()
    expect(input.value).toBe('Kyoto')
    await session.send('Input.imeSetComposition', { text: 'お', selectionStart: 1, selectionEnd: 1 })
    input.remove()
    document.body.append(input)
    city.value = 'Osaka'
    await settled()
    expect(input.value).toBe('Osaka') // was 'Kyotoお' for good: the mark of the cut-off composition stayed
    b.dispose()
    input.remove()
  })

  it('refuses { model } on a contenteditable element (the README: a form field), and binds it one-way as text', async () => {
    const div = document.body.appendChild(document.createElement('div'))
    div.contentEditable = 'true'
    const s = new Signal('<b>x</b>')
    expect(() => s.bind(div, { model: 'input' })).toThrow(new TypeError('bind: model needs a form field, got DIV'))
    s.bind(div)
    await settled()
    expect(div.innerHTML).toBe('&lt;b&gt;x&lt;/b&gt;')
  })

  it('writes nothing to the DOM for a flush in which nothing changed', async () => {
    const app = mountCheckout(document.body.appendChild(document.createElement('div')))
    await settled()
    const rec = observe(app.form)
    // Writes that end where they began.
    batch(() => {
      app.s.tip.value = 11
      app.s.tip.value = 10
      app.s.extras.value = []
      app.s.name.value = 'x'
      app.s.name.value = ''
    })
    await settled()
    expect(rec.stop()).toEqual([])
  })

  // LIMITATION (the README says nothing of form.reset()): reset restores the fields without an input or change event,
  // so the model keeps the old values, and writing the value it already holds is a no-op: the field stays stale.
  it('does not follow form.reset(): the model keeps the old values and a write of the same value leaves the field stale', async () => {
    const app = mountCheckout(document.body.appendChild(document.createElement('div')))
    await settled()
    await userEvent.type(app.q('[name=name]'), 'Ada')
    expect(app.s.name.value).toBe('Ada')
    app.form.reset()
    expect(app.q('[name=name]').value).toBe('')
    // No input/change event fires on reset: the model keeps 'Ada' while the field shows ''.
    expect(app.s.name.value).toBe('Ada')
    app.s.name.value = 'Ada'
    await settled()
    expect(app.q('[name=name]').value).toBe('')
    // The workaround: after the reset, tell every bound field its value changed.
    app.form.addEventListener('reset', () =>
      setTimeout(() => { for (const el of app.form.elements) for (const t of ['input', 'change']) el.dispatchEvent(new Event(t)) }),
    )
    await userEvent.type(app.q('[name=name]'), 'Bob')
    app.form.reset()
    await new Promise((r) => setTimeout(r, 10))
    expect(app.s.name.value).toBe('')
  })

  it('keeps a range field and its signal in step when the value is out of range', async () => {
    const { q, s } = mountCheckout(document.body.appendChild(document.createElement('div')))
    await settled()
    s.tip.value = 50 // max is 20
    await settled()
    expect(q('[name=tip]').value).toBe('20') // clamped by the browser
    expect(s.tip.value).toBe(50) // the model says 50: the two disagree
  })

  it('handles the submit button disabled by a computed: a click while disabled submits nothing', async () => {
    const app = mountCheckout(document.body.appendChild(document.createElement('div')))
    await settled()
    app.q('.submit').click()
    expect(app.submitted).toEqual([])
    // The computed, disabled and an effect agree after each write.
    const log: boolean[] = []
    effect(() => void log.push(app.valid.value))
    batch(() => {
      Object.assign(app.s.name, { value: 'A' })
      app.s.email.value = 'a@b.cd'
      app.s.date.value = '2030-01-01'
      app.s.country.value = 'fr'
      app.s.terms.value = true
    })
    expect(log).toEqual([false, true])
    await settled()
    expect(app.q('.submit').disabled).toBe(false)
  })
})
