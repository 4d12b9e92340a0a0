// The settings-page trial: every form control bound with { model }, driven with real input (userEvent through
// Playwright/CDP: keys, clicks, select-all + delete, Ctrl+Z, copy/paste), synthetic events, autofill-like 'change'
// events and programmatic writes, under every schedule configure() offers. After every step each signal must agree
// with its field (agrees(): the README's reading of numbers), and typing in the middle of a text must not move the caret.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Signal, configure, flush, settled } from '@eddy/signal'
import { rng, schedules } from '../dom.ts'
import { disagreements, mountSettings, type Settings } from './settings-form.ts'

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

const mount = () => mountSettings(document.body.appendChild(document.createElement('div')))
const settle = async () => {
  await settled()
  // a macrotask schedule's flush: settled() waits for it; one more turn for the animation frame's
  await new Promise((r) => setTimeout(r, 0))
  await settled()
}
const fire = (el: Element, type: string) => el.dispatchEvent(new Event(type, { bubbles: true }))
const key = (k: string) => userEvent.keyboard(k)

describe.each(Object.entries(schedules))('settings page (schedule %s)', (_, schedule) => {
  it('renders every signal into its field, with the types the README promises', async () => {
    configure({ schedule })
    const app = mount()
    await settle()
    expect(disagreements(app)).toEqual([])
    const { f } = app
    expect(f('nick').value).toBe('ada')
    expect(f<HTMLTextAreaElement>('bio').value).toBe('line 1\nline 2')
    expect(f('size').valueAsNumber).toBe(12)
    expect(f('volume').value).toBe('40')
    expect(f('birthday').valueAsDate?.toISOString().slice(0, 10)).toBe('1815-12-10')
    expect(f('alarm').value).toBe('07:30')
    expect(f('accent').value).toBe('#3366ff')
    expect(app.form.querySelector<HTMLInputElement>('[value=fr]')!.checked).toBe(true)
    expect(f<HTMLSelectElement>('tz').value).toBe('cet')
    expect(f('volumeOut').textContent).toBe('40 %')
    expect(app.form.querySelector('progress')!.value).toBe(40)
    expect(app.form.querySelector('meter')!.value).toBe(40)
    expect(f('locked').value).toBe('fixed')
    expect(f('ro').value).toBe('read only')
  })

  it('real input into every control writes its signal, with the signal\'s type', async () => {
    configure({ schedule })
    const app = mount()
    const { f, s, form } = app
    await settle()
    await userEvent.fill(f('nick'), 'grace')
    await userEvent.fill(f('pw'), 's3cret')
    await userEvent.fill(f('q'), 'llama')
    await userEvent.fill(f('site'), 'https://eddy.dev/')
    await userEvent.fill(f('phone'), '+81 3')
    await userEvent.fill(f('mail'), 'grace@navy.mil')
    await userEvent.fill(f<HTMLTextAreaElement>('bio'), 'a\nb')
    await userEvent.fill(f('size'), '250')
    await userEvent.fill(f('birthday'), '1906-12-09')
    await userEvent.fill(f('alarm'), '06:15')
    await userEvent.click(f('dark'))
    await userEvent.click(form.querySelector<HTMLInputElement>('[value=ja]')!)
    await userEvent.selectOptions(f<HTMLSelectElement>('tz'), 'jst')
    await userEvent.selectOptions(f<HTMLSelectElement>('tags'), ['a', 'c'])
    // the range: keyboard on the focused slider
    f('volume').focus()
    await key('{ArrowRight}{ArrowRight}{ArrowRight}')
    // the color picker has no keyboard text entry: a picked color arrives as input + change
    f('accent').value = '#ff8800'
    fire(f('accent'), 'input')
    fire(f('accent'), 'change')
    await settle()
    expect({ ...Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.value])) }).toEqual({
      nick: 'grace', pw: 's3cret', q: 'llama', site: 'https://eddy.dev/', phone: '+81 3', mail: 'grace@navy.mil',
      bio: 'a\nb', size: 250, volume: 43, birthday: '1906-12-09', alarm: '06:15', accent: '#ff8800', dark: true,
      lang: 'ja', tz: 'jst', tags: ['a', 'c'], locked: 'fixed', ro: 'read only',
    })
    expect(typeof s.size.value).toBe('number')
    expect(f('volumeOut').textContent).toBe('43 %')
    expect(form.querySelector('progress')!.value).toBe(43)
    expect(disagreements(app)).toEqual([])
  })

  it('disabled and readonly fields: the user cannot change them, a write still renders', async () => {
    configure({ schedule })
    const app = mount()
    const { f, s } = app
    await settle()
    await userEvent.click(f('ro'))
    await key('xyz{Backspace}')
    await userEvent.click(f('locked'), { force: true }).catch(() => {})
    await key('xyz')
    expect(f('ro').value).toBe('read only')
    expect(f('locked').value).toBe('fixed')
    expect([s.ro.value, s.locked.value]).toEqual(['read only', 'fixed'])
    s.ro.value = 'changed by code'
    s.locked.value = 'also'
    await settle()
    expect([f('ro').value, f('locked').value]).toEqual(['changed by code', 'also'])
  })

  it('random real keys, select-all + delete, Ctrl+Z, paste, synthetic and programmatic writes: signals and fields always agree, the caret never jumps', async () => {
    configure({ schedule })
    const app = mount()
    const { f, s } = app
    await settle()
    const random = rng(schedule === 'microtask' ? 1 : schedule === 'animationFrame' ? 2 : typeof schedule == 'function' ? 3 : 4)
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
    const textual = ['nick', 'pw', 'q', 'site', 'phone', 'bio'] as const // selection API, model 'input'
    const typed = [...textual, 'mail', 'size'] as const
    const words = ['x', 'hello', 'abc def', '42', 'ünïcødé', '']
    const failures: string[] = []
    let caretChecks = 0
    let steps = 0
    for (let i = 0; i < 70; i++) {
      const action = pick(['key', 'key', 'key', 'selectAllDelete', 'undo', 'paste', 'write', 'synthetic', 'click'] as const)
      const k = pick(typed)
      const el = f(k)
      if (action === 'key') {
        await userEvent.click(el)
        const chars = k === 'size' ? '0123456789.-' : k === 'mail' ? 'ab@.c' : 'abc XYZ-é.'
        const ch = pick([...chars])
        if ((textual as readonly string[]).includes(k)) {
          const at = Math.floor(random() * (el.value.length + 1))
          el.setSelectionRange(at, at)
          await key(ch === ' ' ? ' ' : ch)
          await settle()
          caretChecks++
          if (el.selectionStart !== at + 1) failures.push(`step ${i}: caret in ${k} at ${el.selectionStart}, expected ${at + 1}`)
        } else await key(ch)
      } else if (action === 'selectAllDelete') {
        await userEvent.click(el)
        await key('{Control>}a{/Control}{Backspace}')
      } else if (action === 'undo') {
        await userEvent.click(el)
        await key('{Control>}z{/Control}')
      } else if (action === 'paste') {
        await userEvent.click(el)
        await key('{Control>}a{/Control}')
        await userEvent.copy()
        await key('{End}')
        await userEvent.paste()
      } else if (action === 'write') {
        if (k === 'size') s.size.value = Math.floor(random() * 1000)
        else if (k === 'mail') s.mail.value = pick(['a@b.c', 'me@x.org', ''])
        else (s[k] as Signal<string>).value = pick(words)
      } else if (action === 'synthetic') {
        el.value = k === 'size' ? String(Math.floor(random() * 1000)) : k === 'mail' ? 'syn@th.etic' : pick(words)
        fire(el, app.events[k])
      } else {
        const target = pick(['dark', 'en', 'fr', 'ja'])
        await userEvent.click(app.form.querySelector<HTMLInputElement>(target === 'dark' ? '[name=dark]' : `[value=${target}]`)!)
      }
      // 'change' fields commit when the focus leaves them
      await userEvent.click(f('elsewhere'))
      await settle()
      steps++
      const bad = disagreements(app)
      if (bad.length) failures.push(`step ${i} (${action} ${k}): ${bad.join('; ')}`)
    }
    expect(failures).toEqual([])
    expect(steps).toBe(70)
    expect(caretChecks).toBeGreaterThan(5)
    expect(app.f('volumeOut').textContent).toBe(`${s.volume.value} %`)
  }, 60_000)

  it('synthetic events without real input: every kind of field writes back on its own event only', async () => {
    configure({ schedule })
    const app = mount()
    const { f, s, form } = app
    await settle()
    const set = (k: keyof Settings['s'], v: string) => ((f(k).value = v), fire(f(k), app.events[k]))
    set('nick', 'n2'); set('size', '7'); set('volume', '99'); set('birthday', '2000-01-01'); set('alarm', '23:59')
    set('accent', '#000000'); set('mail', 'x@y.z')
    f('dark').checked = true; fire(f('dark'), 'change')
    const ja = form.querySelector<HTMLInputElement>('[value=ja]')!
    ja.checked = true; fire(ja, 'change')
    f<HTMLSelectElement>('tz').value = 'utc'; fire(f('tz'), 'change')
    expect([s.nick.value, s.size.value, s.volume.value, s.birthday.value, s.alarm.value, s.accent.value, s.mail.value, s.dark.value, s.lang.value, s.tz.value])
      .toEqual(['n2', 7, 99, '2000-01-01', '23:59', '#000000', 'x@y.z', true, 'ja', 'utc'])
    // the other event writes nothing: an 'input' on a 'change' field
    f('mail').value = 'not@yet.x'; fire(f('mail'), 'input')
    expect(s.mail.value).toBe('x@y.z')
    await settle()
    expect(disagreements(app)).toEqual(['mail: signal "x@y.z", field "not@yet.x"'])
    fire(f('mail'), 'change')
    expect(s.mail.value).toBe('not@yet.x')
    await settle()
    expect(disagreements(app)).toEqual([])
  })
})

describe('events a model does not listen to', () => {
  // As designed (the README: the model's event writes): an autofill or password manager that fires only 'change'
  // leaves an { model: 'input' } signal behind until the next input; a script's el.value = fires nothing.
  it("an autofill-like 'change' without 'input' and a script's el.value = leave an 'input' model behind until the next input", async () => {
    const app = mount()
    await settle()
    app.f('nick').value = 'autofilled'
    fire(app.f('nick'), 'change')
    app.f('pw').value = 'typed by a script'
    await settle()
    expect(disagreements(app)).toEqual(['nick: signal "ada", field "autofilled"', 'pw: signal "hunter2", field "typed by a script"'])
    await userEvent.click(app.f('nick'))
    await key('{End}!')
    expect(app.s.nick.value).toBe('autofilled!')
  })
})

describe('one-way targets of a settings page', () => {
  it('<output>, <progress> and <meter> follow the range as the user drags it (one DOM write per flush)', async () => {
    const app = mount()
    await settle()
    const range = app.f('volume')
    range.focus()
    await key('{End}')
    await settle()
    expect(app.s.volume.value).toBe(100)
    expect(app.f('volumeOut').textContent).toBe('100 %')
    expect(app.form.querySelector('meter')!.value).toBe(100)
    await key('{Home}{ArrowRight}')
    await settle()
    expect(app.s.volume.value).toBe(1)
    expect(app.form.querySelector('progress')!.position).toBeCloseTo(0.01)
  })

  it('a number field writes a number: typing and select-all + delete give 0, partial entries NaN (as the README says)', async () => {
    const app = mount()
    await settle()
    const size = app.f('size')
    await userEvent.click(size)
    await key('{Control>}a{/Control}{Backspace}')
    expect(app.s.size.value).toBe(0)
    await key('-')
    expect(app.s.size.value).toBeNaN()
    await key('3')
    expect(app.s.size.value).toBe(-3)
    await key('{ArrowUp}')
    expect(app.s.size.value).toBe(0) // min=0: the spinner clamps, and the signal follows
    expect(size.valueAsNumber).toBe(0)
  })
})
