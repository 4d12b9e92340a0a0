// A settings page, as a user of the README would write it: every form control bound two-way with { model }, and
// <output>, <progress> and <meter> as one-way targets. Shared by settings-form.test.ts and forms-findings.test.ts.
import { Signal, computed, type Binding } from '@eddy/signal'

export function mountSettings(root: HTMLElement) {
  root.innerHTML = `
    <form>
      <input name="nick" value="">
      <input name="pw" type="password">
      <input name="q" type="search">
      <input name="site" type="url">
      <input name="phone" type="tel">
      <input name="mail" type="email">
      <textarea name="bio"></textarea>
      <input name="size" type="number" min="0" max="1000">
      <input name="volume" type="range" min="0" max="100" step="1">
      <output name="volumeOut"></output>
      <progress max="100"></progress><meter min="0" max="100"></meter>
      <input name="birthday" type="date">
      <input name="alarm" type="time">
      <input name="accent" type="color">
      <input name="dark" type="checkbox">
      <label><input type="radio" name="lang" value="en">en</label>
      <label><input type="radio" name="lang" value="fr">fr</label>
      <label><input type="radio" name="lang" value="ja">ja</label>
      <select name="tz"><option value="utc">UTC</option><option value="cet">CET</option><option value="jst">JST</option></select>
      <select name="tags" multiple><option value="a">A</option><option value="b">B</option><option value="c">C</option></select>
      <input name="locked" disabled>
      <input name="ro" readonly>
      <button type="button" name="elsewhere">elsewhere</button>
    </form>`
  const form = root.querySelector('form')!
  const f = <E extends Element = HTMLInputElement>(name: string) => form.querySelector<E>(`[name=${name}]`)!

  const s = {
    nick: new Signal('ada'),
    pw: new Signal('hunter2'),
    q: new Signal(''),
    site: new Signal('https://example.org/'),
    phone: new Signal('+33 1 23'),
    mail: new Signal('ada@example.org'),
    bio: new Signal('line 1\nline 2'),
    size: new Signal(12),
    volume: new Signal(40),
    birthday: new Signal('1815-12-10'),
    alarm: new Signal('07:30'),
    accent: new Signal('#3366ff'),
    dark: new Signal(false),
    lang: new Signal('fr'),
    tz: new Signal('cet'),
    tags: new Signal<string[]>(['b']),
    locked: new Signal('fixed'),
    ro: new Signal('read only'),
  }
  // The event each field's model listens to (as a settings page would pick them).
  const events: Record<keyof typeof s, 'input' | 'change'> = {
    nick: 'input', pw: 'input', q: 'input', site: 'input', phone: 'input', mail: 'change', bio: 'input', size: 'input',
    volume: 'input', birthday: 'change', alarm: 'change', accent: 'input', dark: 'change', lang: 'change', tz: 'change',
    tags: 'change', locked: 'input', ro: 'input',
  }
  const bindings: Binding[] = []
  for (const key of Object.keys(s) as (keyof typeof s)[]) {
    for (const el of form.querySelectorAll(`[name=${key}]`)) bindings.push((s[key] as Signal<any>).bind(el, { model: events[key] }))
  }
  const percent = computed(() => `${s.volume.value} %`)
  bindings.push(percent.bind(f('volumeOut')))
  bindings.push(s.volume.bind(form.querySelector('progress')!, 'value'))
  bindings.push(s.volume.bind(form.querySelector('meter')!, 'value'))
  return { form, f, s, events, destroy: () => bindings.forEach((b) => b.dispose()) }
}

export type Settings = ReturnType<typeof mountSettings>

/** What the README's rules say the field shows for the signal's value (numbers read with Number(), '' as 0). */
export function agrees(app: Settings, key: keyof Settings['s']): boolean {
  const v = app.s[key].peek() as unknown
  const els = [...app.form.querySelectorAll<HTMLInputElement>(`[name=${key}]`)]
  const el = els[0]!
  if (el.type == 'radio') return els.every((r) => r.checked === (r.value === v))
  if (el.type == 'checkbox') return el.checked === v
  if (el.type == 'select-multiple')
    return JSON.stringify([...(el as unknown as HTMLSelectElement).selectedOptions].map((o) => o.value)) === JSON.stringify(v)
  if (typeof v == 'number') {
    if (el.validity.badInput) return Number.isNaN(v)
    if (el.value === '') return v === 0 || Number.isNaN(v)
    return Object.is(Number(el.value), v)
  }
  return el.value === v
}

export function disagreements(app: Settings): string[] {
  return (Object.keys(app.s) as (keyof Settings['s'])[])
    .filter((k) => !agrees(app, k))
    .map((k) => {
      const el = app.f(k)
      return `${k}: signal ${JSON.stringify(app.s[k].peek())}, field ${JSON.stringify(el.type == 'checkbox' || el.type == 'radio' ? el.checked : el.value)}`
    })
}
