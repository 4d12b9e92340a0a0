// A sign-up form with validation computed from several inputs, as a user of the README would write it: one
// signal per field bound with { model }, computed errors, error texts, aria-invalid, an `invalid` class shown once
// a field was touched (blur), the submit button's `disabled` property, a payload made with JSON.stringify of the
// signals, and a draft autosaved by a debounced effect. Driven with real DOM events.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Signal, batch, computed, configure, effect, flush, settled, type Binding } from '@eddy/signal'
import { schedules } from '../dom.ts'

function mountSignup(root: HTMLElement, opts: { save?: (json: string) => void; submit?: (json: string) => void } = {}) {
  root.innerHTML = `
    <form novalidate>
      <input name="name"><small class="err-name"></small>
      <input name="email" type="email"><small class="err-email"></small>
      <input name="age" type="number"><small class="err-age"></small>
      <input name="password" type="password"><input name="confirm" type="password"><small class="err-confirm"></small>
      <select name="country"><option value="">Choose…</option><option value="fr">France</option><option value="jp">Japan</option></select>
      <fieldset><input type="radio" name="plan" value="1"><input type="radio" name="plan" value="2"><input type="radio" name="plan" value="3"></fieldset>
      <textarea name="bio"></textarea><span class="bio-left"></span>
      <input type="checkbox" name="terms">
      <p class="summary"></p>
      <button type="submit">Sign up</button>
    </form>`
  const form = root.querySelector('form')!
  const field = <E extends Element = HTMLInputElement>(name: string) => form.querySelector<E>(`[name=${name}]`)!

  const name = new Signal('')
  const email = new Signal('')
  const age = new Signal(NaN) // a number: the field's text is read with Number(); NaN while empty/partial
  const password = new Signal('')
  const confirm = new Signal('')
  const country = new Signal('')
  const plan = new Signal(1) // radios bound to a number
  const bio = new Signal('')
  const terms = new Signal(false)
  const touched = new Signal<ReadonlySet<string>>(new Set())

  const errors = computed(() => {
    const e: Record<string, string> = {}
    if (!name.value.trim()) e.name = 'Required'
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.value)) e.email = 'Enter a valid e-mail'
    if (Number.isNaN(age.value)) e.age = 'Required'
    else if (age.value < 18) e.age = 'You must be 18 or older'
    if (password.value.length < 8) e.confirm = 'At least 8 characters'
    else if (password.value !== confirm.value) e.confirm = 'Passwords differ'
    if (!country.value) e.country = 'Choose a country'
    if (bio.value.length > 40) e.bio = 'Too long'
    if (!terms.value) e.terms = 'Accept the terms'
    return e
  })
  const valid = computed(() => Object.keys(errors.value).length === 0)

  const bindings: Binding[] = [
    name.bind(field('name'), { model: 'input' }),
    email.bind(field('email'), { model: 'input' }),
    age.bind(field('age'), { model: 'input' }),
    password.bind(field('password'), { model: 'input' }),
    confirm.bind(field('confirm'), { model: 'input' }),
    country.bind(field('country'), { model: 'change' }),
    bio.bind(field('bio'), { model: 'input' }),
    terms.bind(field('terms'), { model: 'change' }),
    computed(() => !valid.value).bind(form.querySelector('button')!, 'disabled'),
    bio.bind(form.querySelector('.bio-left')!, { format: (b) => `${40 - b.length} left` }),
    computed(() => `${Object.keys(errors.value).length} problem(s)`).bind(form.querySelector('.summary')!),
  ]
  for (const r of form.querySelectorAll('[name=plan]')) bindings.push(plan.bind(r, { model: 'change' }))
  // Per-field error UI: the message once touched, aria-invalid as 'true'/'false', a class.
  for (const key of ['name', 'email', 'age', 'confirm']) {
    const shown = computed(() => (touched.value.has(key) ? errors.value[key] ?? '' : ''))
    bindings.push(shown.bind(form.querySelector(`.err-${key}`)!))
    bindings.push(shown.bind(field(key), { attr: 'aria-invalid', format: (m) => (m ? 'true' : 'false') }))
    bindings.push(shown.bind(field(key), { class: 'invalid' }))
    field(key).addEventListener('blur', () => (touched.value = new Set(touched.peek()).add(key)))
  }

  const payload = () => JSON.stringify({ name, email, age, country, plan, bio, terms })
  // Autosave, debounced with the effect's cleanup.
  const stopSave = effect(() => {
    const json = payload() // tracked: JSON.stringify reads .value
    const id = setTimeout(() => opts.save?.(json), 300)
    return () => clearTimeout(id)
  })
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    touched.value = new Set(['name', 'email', 'age', 'confirm'])
    if (valid.peek()) opts.submit?.(payload())
  })
  return {
    form,
    field,
    signals: { name, email, age, password, confirm, country, plan, bio, terms },
    errors,
    valid,
    destroy() {
      stopSave()
      bindings.forEach((b) => b.dispose())
    },
  }
}

const type = (input: HTMLInputElement | HTMLTextAreaElement, text: string) => {
  input.focus()
  input.value = text
  input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: text }))
}
const choose = (select: HTMLSelectElement, value: string) => {
  select.value = value
  select.dispatchEvent(new Event('input', { bubbles: true }))
  select.dispatchEvent(new Event('change', { bubbles: true }))
}

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.useRealTimers()
  document.body.replaceChildren()
})

describe.each(Object.entries(schedules))('sign-up form, schedule %s', (_, schedule) => {
  beforeEach(() => configure({ schedule }))

  it('starts invalid, shows no message before a field is touched, and disables submit', async () => {
    const app = mountSignup(document.body.appendChild(document.createElement('div')))
    await settled()
    expect(app.form.querySelector('button')!.disabled).toBe(true)
    expect(app.form.querySelector('.err-name')!.textContent).toBe('')
    expect(app.field('name').getAttribute('aria-invalid')).toBe('false')
    expect(app.form.querySelector('.summary')!.textContent).toBe('6 problem(s)')
    // the initial plan (the number 1) checks the radio valued "1"
    expect([...app.form.querySelectorAll<HTMLInputElement>('[name=plan]')].map((r) => r.checked)).toEqual([true, false, false])
    expect(app.field('age').value).toBe('') // NaN renders as an empty number field
    app.destroy()
  })

  it('blur marks a field touched: message, aria-invalid and class appear, then go when fixed', async () => {
    const app = mountSignup(document.body.appendChild(document.createElement('div')))
    const email = app.field('email')
    type(email, 'ada@')
    email.blur()
    await settled()
    expect(app.form.querySelector('.err-email')!.textContent).toBe('Enter a valid e-mail')
    expect(email.getAttribute('aria-invalid')).toBe('true')
    expect(email.classList.contains('invalid')).toBe(true)
    type(email, 'ada@example.org')
    await settled()
    expect(app.form.querySelector('.err-email')!.textContent).toBe('')
    expect(email.getAttribute('aria-invalid')).toBe('false')
    expect(email.classList.contains('invalid')).toBe(false)
    app.destroy()
  })

  it('age: a number field writes numbers; a partial or empty entry reads as NaN or 0, per the README', async () => {
    const app = mountSignup(document.body.appendChild(document.createElement('div')))
    const age = app.field('age')
    type(age, '17')
    expect(app.signals.age.value).toBe(17)
    age.blur()
    await settled()
    expect(app.form.querySelector('.err-age')!.textContent).toBe('You must be 18 or older')
    type(age, '42')
    await settled()
    expect(app.form.querySelector('.err-age')!.textContent).toBe('')
    // Clearing the field: the README says an empty field reads as 0 (so "Required" never shows again)
    type(age, '')
    expect(app.signals.age.value).toBe(0)
    await settled()
    expect(app.form.querySelector('.err-age')!.textContent).toBe('You must be 18 or older')
    app.destroy()
  })

  it('password/confirm: an error computed from two fields', async () => {
    const app = mountSignup(document.body.appendChild(document.createElement('div')))
    type(app.field('password'), 'correct horse')
    type(app.field('confirm'), 'correct hors')
    app.field('confirm').blur()
    await settled()
    expect(app.form.querySelector('.err-confirm')!.textContent).toBe('Passwords differ')
    type(app.field('confirm'), 'correct horse')
    await settled()
    expect(app.form.querySelector('.err-confirm')!.textContent).toBe('')
    app.destroy()
  })

  it('filled in with real events, it submits a JSON payload of the signals', async () => {
    const submitted: string[] = []
    const app = mountSignup(document.body.appendChild(document.createElement('div')), { submit: (j) => submitted.push(j) })
    const button = app.form.querySelector('button')!
    type(app.field('name'), 'Ada')
    type(app.field('email'), 'ada@example.org')
    type(app.field('age'), '36')
    type(app.field('password'), 'analytical')
    type(app.field('confirm'), 'analytical')
    choose(app.field<HTMLSelectElement>('country'), 'fr')
    app.form.querySelector<HTMLInputElement>('[name=plan][value="3"]')!.click()
    type(app.field<HTMLTextAreaElement>('bio'), 'First programmer.')
    app.field('terms').click()
    await settled()
    expect(app.errors.value).toEqual({})
    expect(button.disabled).toBe(false)
    expect(app.form.querySelector('.bio-left')!.textContent).toBe(`${40 - 'First programmer.'.length} left`)
    button.click()
    expect(submitted).toHaveLength(1)
    expect(JSON.parse(submitted[0]!)).toEqual({
      name: 'Ada',
      email: 'ada@example.org',
      age: 36,
      country: 'fr',
      plan: 3,
      bio: 'First programmer.',
      terms: true,
    })
    // the signals drive the fields too: prefilling from a saved draft in one batch
    batch(() => {
      app.signals.name.value = 'Grace'
      app.signals.plan.value = 2
      app.signals.country.value = 'jp'
      app.signals.terms.value = false
    })
    await settled()
    expect(app.field('name').value).toBe('Grace')
    expect(app.field<HTMLSelectElement>('country').value).toBe('jp')
    expect(app.form.querySelector<HTMLInputElement>('[name=plan][value="2"]')!.checked).toBe(true)
    expect(app.field('terms').checked).toBe(false)
    expect(button.disabled).toBe(true)
    app.destroy()
  })

  it('autosaves once, 300 ms after the last keystroke (effect cleanup as debounce)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const saved: string[] = []
    const app = mountSignup(document.body.appendChild(document.createElement('div')), { save: (j) => saved.push(j) })
    vi.advanceTimersByTime(300)
    expect(saved).toHaveLength(1) // the first run
    for (const text of ['A', 'Ad', 'Ada']) {
      type(app.field('name'), text)
      vi.advanceTimersByTime(100)
    }
    expect(saved).toHaveLength(1)
    vi.advanceTimersByTime(300)
    expect(saved).toHaveLength(2)
    expect(JSON.parse(saved[1]!).name).toBe('Ada')
    // a password keystroke is not in the payload: no save
    type(app.field('password'), 'secret')
    vi.advanceTimersByTime(1000)
    expect(saved).toHaveLength(2)
    app.destroy()
  })

  it('the IME: typing Japanese into the name writes once, at compositionend', async () => {
    const app = mountSignup(document.body.appendChild(document.createElement('div')))
    const nameField = app.field('name')
    const writes: string[] = []
    const off = app.signals.name.subscribe((v) => writes.push(v))
    nameField.dispatchEvent(new CompositionEvent('compositionstart'))
    for (const partial of ['a', 'あ', 'あい']) {
      nameField.value = partial
      nameField.dispatchEvent(new InputEvent('input', { isComposing: true }))
    }
    nameField.value = '愛'
    nameField.dispatchEvent(new CompositionEvent('compositionend', { data: '愛' }))
    nameField.dispatchEvent(new InputEvent('input', { isComposing: false })) // Chromium's order: input after compositionend
    expect(writes).toEqual(['', '愛'])
    off()
    app.destroy()
  })
})
