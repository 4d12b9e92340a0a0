// The runtime half of the TypeScript user's trial (the type half: test/shipped-types.test.ts). The typed code that the
// trial's strict consumer project compiles without a cast, run for real in Chromium: generic components over
// Signal<T> / Computed<T>, every bind() target kind of the README, models on every field kind driven by real input,
// effects with cleanups, batch, untracked, configure and every scheduler export. Plus the run-time side of the type
// findings: what the types refused though the runtime accepts it (F1, F2, F3), and what they accepted though the
// runtime refuses it (F4), so that each type fix is backed by what really happens.
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Signal, batch, computed, configure, effect, flush, settled, untracked, type Binding, type Computed, type Dispose } from '@eddy/signal'
import { createQueue, loop, macrotask, microtask, monitor, probeTurnRate, strategy, yieldToMain, type Loop, type Monitor, type Queue } from '@eddy/scheduler'
import { sandbox } from '../dom.ts'

const box = sandbox()
afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
})

// Generic components, as a typed app writes them.
function Text<T>(src: Computed<T>, el: Node): Binding {
  return src.bind(el)
}
function Field<T extends string | number>(src: Signal<T>, el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): Binding {
  return src.bind(el, { model: 'input' })
}
function Label<T>(src: Signal<T> | Computed<T>, el: Node, fmt: (v: T) => string): Binding {
  return src.bind(el, { format: fmt })
}
const escape = (h: string): string => h.replace(/&/g, '&amp;').replace(/</g, '&lt;')

function mount(root: HTMLElement) {
  root.innerHTML = `
    <p class="full"></p><p class="label"></p><div class="bar"></div><div class="bio"></div>
    <input class="name"><input class="qty" type="number"><input class="agree" type="checkbox">
    <label><input type="radio" name="size" value="s">S</label><label><input type="radio" name="size" value="m">M</label>
    <select class="country"><option value="fr">France</option><option value="jp">Japan</option></select>
    <select class="extras" multiple><option value="gift">Gift</option><option value="card">Card</option><option value="bag">Bag</option></select>
    <textarea class="notes"></textarea>
    <input type="checkbox" class="tag" value="a"><input type="checkbox" class="tag" value="b"><input type="checkbox" class="tag" value="c">`
  const $ = <E extends Element>(s: string) => root.querySelector<E>(s)!
  return {
    full: $<HTMLParagraphElement>('.full'), label: $<HTMLParagraphElement>('.label'), bar: $<HTMLDivElement>('.bar'),
    bio: $<HTMLDivElement>('.bio'), name: $<HTMLInputElement>('.name'), qty: $<HTMLInputElement>('.qty'),
    agree: $<HTMLInputElement>('.agree'), radios: [...root.querySelectorAll<HTMLInputElement>('input[name=size]')],
    country: $<HTMLSelectElement>('.country'), extras: $<HTMLSelectElement>('.extras'), notes: $<HTMLTextAreaElement>('.notes'),
    tags: [...root.querySelectorAll<HTMLInputElement>('.tag')],
  }
}

describe('the typed app, run', () => {
  it('every bind() target kind renders what its type says', async () => {
    const ui = mount(box.root)
    const first = new Signal('Ada'), last = Signal('Lovelace')
    const full = computed(() => `${first.value} ${last.value}`)
    const progress = new Signal(40)
    const bio = new Signal('<em>hi</em> & <b>')
    const bs: Binding[] = [
      Text(full, ui.full),
      Label(progress, ui.label, (n) => n.toFixed(1)),
      progress.bind(ui.bar, 'title'),
      progress.bind(ui.bar, { attr: 'aria-valuenow' }),
      progress.bind(ui.bar, { class: 'done', format: (v) => v >= 100 }),
      progress.bind(ui.bar, { style: 'width', format: (v) => `${v}%` }),
      bio.bind(ui.bio, { html: true, sanitize: escape }),
    ]
    await settled()
    expect([ui.full.textContent, ui.label.textContent, ui.bar.title, ui.bar.getAttribute('aria-valuenow')]).toEqual(['Ada Lovelace', '40.0', '40', '40'])
    expect([ui.bar.classList.contains('done'), ui.bar.style.width, ui.bio.textContent]).toEqual([false, '40%', '<em>hi</em> & <b>'])
    batch(() => {
      first.value = 'Grace'
      last.value = 'Hopper'
      progress.value = 100
    })
    await settled()
    expect([ui.full.textContent, ui.bar.classList.contains('done'), ui.bar.style.width]).toEqual(['Grace Hopper', true, '100%'])
    for (const b of bs) b.dispose()
    expect(box.reported).toEqual([])
  })

  it('models on every field kind, driven by real input, keep the types the signals were declared with', async () => {
    const ui = mount(box.root)
    const name = new Signal('')
    const qty = new Signal(1)
    const agree = new Signal(false)
    const size = new Signal<'s' | 'm'>('m')
    const country = new Signal('fr')
    const extras = new Signal<string[]>([])
    const notes = new Signal('')
    const tags = new Signal<string[]>(['b'])
    Field(name, ui.name)
    Field(qty, ui.qty)
    agree.bind(ui.agree, { model: 'change' })
    for (const r of ui.radios) size.bind(r, { model: 'change' })
    country.bind(ui.country, { model: 'change' })
    extras.bind(ui.extras, { model: 'change' })
    notes.bind(ui.notes, { model: 'input' })
    for (const t of ui.tags) tags.bind(t, { model: 'change' })
    await settled()
    expect([ui.radios[1]!.checked, ui.tags.map((t) => t.checked)]).toEqual([true, [false, true, false]])
    await userEvent.type(ui.name, 'Ada')
    await userEvent.fill(ui.qty, '12')
    await userEvent.click(ui.agree)
    await userEvent.click(ui.radios[0]!)
    await userEvent.selectOptions(ui.country, 'jp')
    await userEvent.selectOptions(ui.extras, ['gift', 'bag'])
    await userEvent.type(ui.notes, 'hi')
    await userEvent.click(ui.tags[0]!)
    await userEvent.click(ui.tags[1]!)
    expect([name.value, qty.value, agree.value, size.value, country.value, extras.value, notes.value, tags.value]).toEqual(
      ['Ada', 12, true, 's', 'jp', ['gift', 'bag'], 'hi', ['a']],
    )
    expect(typeof qty.value).toBe('number')
    expect(box.reported).toEqual([])
  })

  it('effects with cleanups, untracked reads, batch and subscribe run as typed', () => {
    const count = new Signal(0), name = new Signal('a')
    const runs: string[] = []
    const stop: Dispose = effect(() => {
      const c = count.value
      const n = untracked(() => name.value)
      runs.push(`${c}${n}`)
      return () => runs.push(`-${c}`)
    })
    name.value = 'b' // untracked: no run
    const r: number = batch(() => {
      count.value = 1
      count.value = 2
      return count.value
    })
    const seen: number[] = []
    const off = count.subscribe((v) => seen.push(v))
    count.value = 3
    off()
    stop()
    expect([r, runs, seen]).toEqual([2, ['0a', '-0', '2b', '-2', '3b', '-3'], [2, 3]])
  })

  it('configure() with a createQueue() schedule, and every scheduler export', async () => {
    const renders: Queue = createQueue()
    configure({ schedule: (f) => renders.macrotask(f) })
    const p = box.root.appendChild(document.createElement('p'))
    const n = new Signal(1)
    n.bind(p)
    const order: string[] = []
    microtask(() => order.push('micro'))
    await Promise.resolve()
    expect(p.textContent).toBe('') // a macrotask schedule: not yet
    macrotask(() => order.push('macro'))
    await settled()
    expect(p.textContent).toBe('1')
    await yieldToMain()
    let i = 0
    const l: Loop = loop(() => ++i < 1000, { budgetMs: 5 })
    const m: Monitor = monitor({ maxLagMs: 100 })
    expect(await l.done).toBe(1000)
    const rate = await probeTurnRate({ durationMs: 20 })
    m.stop()
    expect([strategy, renders.strategy, order, rate > 0, typeof m.lag.p99, m.underPressure]).toEqual(['postTask', 'postTask', ['micro', 'macro'], true, 'number', false])
  })
})

describe('the runtime side of the type findings', () => {
  it('F1: every options bag takes an explicit undefined as "not given" (exactOptionalPropertyTypes refused it)', async () => {
    const p = box.root.appendChild(document.createElement('p'))
    const opt = {} as { format?: (v: number) => unknown; equals?: (a: number, b: number) => boolean; budgetMs?: number }
    const s = new Signal(1, { equals: opt.equals })
    s.bind(p, { attr: 'data-n', format: opt.format })
    configure({ schedule: undefined })
    const l = loop(() => false, { budgetMs: opt.budgetMs })
    const q = createQueue({ strategy: undefined, budgetMs: undefined })
    const m = monitor({ maxLagMs: undefined, maxUtilization: undefined })
    const rate = await probeTurnRate({ strategy: undefined, durationMs: 10 })
    m.stop()
    await settled()
    expect([p.getAttribute('data-n'), await l.done, q.strategy, rate > 0]).toEqual(['1', 1, strategy, true])
  })

  it('F2: a signal made with a named comparator is written like any other (the types made it a Signal<0>)', () => {
    const near = (x: number, y: number) => Math.abs(x - y) < 1e-9
    const c = new Signal(0, { equals: near }) // a Signal<number>: the type comes from the value alone
    c.value = 2
    c.value = 2 + 1e-12 // equal by `near`: a no-op
    expect(c.value).toBe(2)
  })

  it('F3: a computed is `instanceof Signal` (and the types narrow it so)', () => {
    const read = <T,>(v: T | Computed<T>): T => (v instanceof Signal ? v.value : v)
    expect([computed(() => 1) instanceof Signal, read(computed(() => 2)), read(3)]).toEqual([true, 2, 3])
  })

  it('F4: a detached dispose, which the types refuse, throws, and as a cleanup is reported', () => {
    const s = new Signal('a')
    const p = box.root.appendChild(document.createElement('p'))
    const { dispose } = s.bind(p) as { dispose(): void } // what plain JavaScript allows
    expect(() => dispose()).toThrow('bind: dispose() needs its binding: binding.dispose()')
    const stop = effect(() => {
      const inner = s.bind(p)
      return inner.dispose as () => void
    })
    stop() // runs the cleanup, called on nothing
    expect(box.msgs()).toEqual(['TypeError: bind: dispose() needs its binding: binding.dispose()'])
  })

  it('documented, not typed: the types check the signal, not the field (README "Types")', async () => {
    // A Signal<string> on a <select multiple> gets an array, a Signal<number> on a checkbox a boolean: the types
    // accept both (an element type cannot say which kind of <input> or <select> it is), and the README says so.
    const ui = mount(box.root)
    const one = new Signal('gift')
    const n = new Signal(0)
    one.bind(ui.extras, { model: 'change' })
    n.bind(ui.agree, { model: 'change' })
    await settled()
    await userEvent.selectOptions(ui.extras, ['card'])
    await userEvent.click(ui.agree)
    expect([one.value as unknown, n.value as unknown]).toEqual([['card'], true])
  })
})
