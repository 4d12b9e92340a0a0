// Trial F: a collaborative record editor (./collab-editor.ts) under each schedule, driven with real key events
// (userEvent) and Chromium IME (CDP) while a simulated server pushes remote edits through a createQueue() channel.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Signal, batch, configure, effect, flush, settled } from '@eddy/signal'
import { createQueue } from '@eddy/scheduler'
import { observe, rng, commit, compose } from '../dom.ts'
import { collectUntil } from '../../../../../scripts/gc.ts'
import { KEYS, formHtml, openEditor, record, type Editor, type Key, type Value } from './collab-editor.ts'

const renderQueue = createQueue()
const schedules = {
  microtask: 'microtask',
  animationFrame: 'animationFrame',
  'macrotask (own createQueue)': (f: () => void) => void renderQueue.macrotask(f),
} as const

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** let the queued remote edits and the renders they caused land */
const quiesce = async (ed: Editor) => {
  for (let i = 0; i < 100 && ed.pending(); i++) await sleep(5)
  await settled()
}

function mount() {
  const root = document.body.appendChild(document.createElement('div'))
  root.innerHTML = formHtml()
  return root
}

/** Counts writes of a property on one element (value, checked, disabled...). */
function spyProp(el: Element, prop: string) {
  let proto = Object.getPrototypeOf(el)
  while (proto && !Object.getOwnPropertyDescriptor(proto, prop)) proto = Object.getPrototypeOf(proto)
  const d = Object.getOwnPropertyDescriptor(proto, prop)!
  const writes: unknown[] = []
  Object.defineProperty(el, prop, { configurable: true, get() { return d.get!.call(this) }, set(v) { writes.push(v); d.set!.call(this, v) } })
  return writes
}

/** A server that pushes `perTick` remote edits every few ms, to the given keys, until stopped. */
function server(ed: Editor, keys: Key[], perTick = 5, user = 'bob', seed = 1) {
  const r = rng(seed)
  let n = 0
  const id = setInterval(() => {
    for (let i = 0; i < perTick; i++) {
      const k = keys[Math.floor(r() * keys.length)]!
      const v: Value = k === 'qty' ? n : k === 'done' ? n % 2 === 0 : k === 'status' ? ['draft', 'review', 'final'][n % 3]! : `${user}-${k}-${n}`
      ed.push({ user, edits: { [k]: v }, at: k })
      n++
    }
  }, 4)
  return { stop: () => clearInterval(id), count: () => n }
}

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

describe.each(Object.entries(schedules))('collab editor, schedule %s', (_, schedule) => {
  it('keeps the text the user types while remote bursts update the other fields', async () => {
    configure({ schedule })
    const ed = openEditor(mount(), record('r1'), { onConflict: 'mark' })
    await settled()
    const title = ed.el('title')
    title.focus()
    title.setSelectionRange(title.value.length, title.value.length)
    const srv = server(ed, ['body', 'qty', 'status', 'done', 'author'], 5)
    await userEvent.keyboard(' is being edited by me')
    srv.stop()
    await quiesce(ed)
    expect(srv.count()).toBeGreaterThan(0)
    expect(title.value).toBe('Title r1 is being edited by me')
    expect(ed.fields.title.local.value).toBe('Title r1 is being edited by me')
    expect(title.selectionStart).toBe(title.value.length)
    // every other field shows the last remote value
    for (const k of ['body', 'qty', 'status', 'author'] as Key[]) expect(ed.el(k).value).toBe(String(ed.fields[k].local.value))
    expect(ed.el('done').checked).toBe(ed.fields.done.local.value)
    // caret in the middle: typing there while the server keeps writing the other fields
    title.setSelectionRange(5, 5) // after 'Title'
    const srv2 = server(ed, ['body', 'qty', 'author'], 5, 'carol', 2)
    await userEvent.keyboard('XYZ')
    srv2.stop()
    await quiesce(ed)
    expect(title.value).toBe('TitleXYZ r1 is being edited by me')
    expect([title.selectionStart, title.selectionEnd]).toEqual([8, 8])
    ed.dispose()
  })

  it('a remote write to the field being typed in: field and signal agree, caret at the end (README)', async () => {
    configure({ schedule })
    const ed = openEditor(mount(), record('r1'), { onConflict: 'overwrite' })
    await settled()
    const title = ed.el('title')
    title.focus()
    title.setSelectionRange(2, 2)
    await userEvent.keyboard('ab')
    ed.push({ user: 'bob', edits: { title: 'Remote title' } })
    await quiesce(ed)
    expect(title.value).toBe('Remote title')
    expect(title.selectionStart).toBe('Remote title'.length) // the README: the browser puts the caret at the end
    expect(ed.fields.title.conflict.value).toBe(true)
    expect(title.classList.contains('conflict')).toBe(true)
    // interleaved: keystrokes and remote writes of the same field
    const srv = server(ed, ['title'], 1)
    await userEvent.keyboard('0123456789')
    srv.stop()
    await quiesce(ed)
    expect(title.value).toBe(ed.fields.title.local.value)
    ed.dispose()
  })

  it('IME in the textarea (model input): a remote write meanwhile is not shown, the composition wins, other fields render', async () => {
    configure({ schedule })
    const ed = openEditor(mount(), record('r1', { body: 'Hello ' }), { onConflict: 'overwrite' })
    await settled()
    const body = ed.el('body') as unknown as HTMLTextAreaElement
    body.focus()
    body.setSelectionRange(6, 6)
    const writes = spyProp(body, 'value')
    await compose('と')
    await compose('とう')
    ed.push({ user: 'bob', edits: { body: 'REMOTE BODY', title: 'Remote title', qty: 7 } })
    await quiesce(ed)
    await sleep(40)
    expect(body.value).toBe('Hello とう')
    expect(writes).toEqual([])
    expect(ed.fields.body.local.value).toBe('REMOTE BODY') // "stays there, not shown"
    expect(ed.el('title').value).toBe('Remote title')
    expect(ed.el('qty').value).toBe('7')
    await commit('東')
    expect(ed.fields.body.local.value).toBe('Hello 東') // "the composition's text then replaces it"
    await settled()
    expect(body.value).toBe('Hello 東')
    // a remote write after the composition renders
    ed.push({ user: 'bob', edits: { body: 'after' } })
    await quiesce(ed)
    expect(body.value).toBe('after')
    ed.dispose()
  })

  it('IME in a { model: "change" } text field: a remote write meanwhile does not cut the composition', async () => {
    configure({ schedule })
    const ed = openEditor(mount(), record('r1', { author: 'Ada' }), { onConflict: 'overwrite' })
    await settled()
    const author = ed.el('author')
    author.focus()
    author.setSelectionRange(3, 3)
    await compose('ら')
    ed.push({ user: 'bob', edits: { author: 'Grace' } })
    await quiesce(ed)
    await sleep(40)
    const during = author.value
    await commit('ラ')
    author.blur()
    // the README: "Nor is anything rendered into the field while it composes, whatever the schedule"
    expect({ during, after: author.value }).toEqual({ during: 'Adaら', after: 'Adaラ' })
    ed.dispose()
  })

  it('undo/redo restore DOM and signals exactly; a batch of 50 field writes is one render per binding', async () => {
    configure({ schedule })
    const root = mount()
    const ed = openEditor(root, record('r1'), { saveDelayMs: 10_000 })
    await settled()
    const inputs = KEYS.map((k) => ed.el(k))
    const writes = new Map(inputs.map((el) => [el, spyProp(el, el.type === 'checkbox' ? 'checked' : 'value')] as const))
    const rec = observe(root)
    const s0 = ed.snapshot()
    ed.checkpoint()
    batch(() => {
      for (let i = 0; i < 50; i++) {
        const k = KEYS[i % KEYS.length]!
        const f = ed.fields[k].local as Signal<any>
        f.value = k === 'qty' ? i : k === 'done' ? i % 2 === 1 : k === 'status' ? ['draft', 'review', 'final'][i % 3] : `${k}#${i}`
      }
    })
    const s1 = ed.snapshot()
    await settled()
    for (const [el, w] of writes) expect(w, el.name).toHaveLength(1)
    const muts = rec.stop()
    // each dirty marker's text and the diff output: one childList write each
    const byTarget = new Map<Node, number>()
    for (const m of muts) if (m.type === 'childList') byTarget.set(m.target, (byTarget.get(m.target) ?? 0) + 1)
    for (const [t, n] of byTarget) expect(n, (t as Element).className).toBe(1)
    const dom = () => Object.fromEntries(KEYS.map((k) => [k, k === 'done' ? ed.el(k).checked : k === 'qty' ? +ed.el(k).value : ed.el(k).value]))
    expect(dom()).toEqual(s1)
    ed.checkpoint()
    ;(ed.fields.title.local as Signal<string>).value = 'third'
    const s2 = ed.snapshot()
    await settled()
    expect(ed.undo()).toBe(true)
    await settled()
    expect(ed.snapshot()).toEqual(s1)
    expect(dom()).toEqual(s1)
    expect(ed.undo()).toBe(true)
    await settled()
    expect(ed.snapshot()).toEqual(s0)
    expect(dom()).toEqual(s0)
    expect(root.querySelector('.diff')!.textContent).toBe('{}')
    expect(ed.redo()).toBe(true)
    expect(ed.redo()).toBe(true)
    await settled()
    expect(ed.snapshot()).toEqual(s2)
    expect(dom()).toEqual(s2)
    ed.dispose()
  })

  it('the save effect never saves a half-applied batch, and never runs after the editor is disposed', async () => {
    configure({ schedule })
    const seen: string[] = []
    const ed = openEditor(mount(), record('r1'), {
      saveDelayMs: 5,
      onSave: (p) => seen.push(JSON.stringify(p)),
    })
    await settled()
    // the effect runs once per batch: watch what it sees
    const diffs: string[] = []
    const stop = effect(() => void diffs.push(ed.diffText.value))
    for (let i = 0; i < 30; i++) {
      batch(() => {
        ;(ed.fields.title.local as Signal<string>).value = `t${i}`
        ;(ed.fields.qty.local as Signal<number>).value = i + 100
      })
      if (i % 7 === 0) await sleep(8)
    }
    await sleep(60)
    for (const d of diffs.slice(1)) {
      const o = JSON.parse(d)
      if (o.title || o.qty) expect(!!o.title && !!o.qty, d).toBe(true) // both or none: never half a batch
    }
    for (const s of seen) {
      const o = JSON.parse(s)
      expect(Object.keys(o).sort()).toEqual(['qty', 'title'])
      expect(+o.title.slice(1) + 100).toBe(o.qty)
    }
    expect(seen.length).toBeGreaterThan(0)
    // dispose while a save is pending: it never comes
    const errors: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
    const n = seen.length
    ;(ed.fields.title.local as Signal<string>).value = 'pending'
    ed.dispose()
    await sleep(40)
    expect(seen.length).toBe(n)
    // disposed inside the batch whose write queued it
    const ed2 = openEditor(mount(), record('r2'), { saveDelayMs: 5, onSave: (p) => seen.push(JSON.stringify(p)) })
    batch(() => {
      ;(ed2.fields.title.local as Signal<string>).value = 'x'
      ed2.dispose()
    })
    // disposed by another effect that runs first in the same drain
    const ed3 = openEditor(mount(), record('r3'), { saveDelayMs: 5, onSave: (p) => seen.push(JSON.stringify(p)) })
    const trigger = new Signal(0)
    const killer = effect(() => { if (trigger.value) ed3.dispose() })
    batch(() => {
      trigger.value = 1
      ;(ed3.fields.title.local as Signal<string>).value = 'y'
    })
    await sleep(40)
    expect(seen.length).toBe(n)
    expect(errors).toEqual([])
    stop()
    killer()
  })
})

describe('collab editor, any schedule', () => {
  it('number field: remote NaN, -0, 1e21; select: a value not among its options; checkbox toggled while focused', async () => {
    const ed = openEditor(mount(), record('r1'), { onConflict: 'overwrite' })
    await settled()
    const qty = ed.el('qty'), status = ed.el('status') as unknown as HTMLSelectElement, done = ed.el('done')
    const apply = async (edits: Partial<Record<Key, Value>>) => { ed.push({ user: 'bob', edits }); await quiesce(ed) }
    await apply({ qty: NaN })
    expect(qty.value).toBe('') // NaN is no number an <input type=number> takes
    expect(ed.fields.qty.local.value).toBeNaN()
    await apply({ qty: -0 })
    expect(qty.value).toBe('0')
    expect(Object.is(ed.fields.qty.local.value, -0)).toBe(true)
    await apply({ qty: 1e21 })
    expect(qty.value).toBe('1e+21')
    qty.focus()
    qty.select()
    await userEvent.keyboard('12')
    expect(ed.fields.qty.local.value).toBe(12)
    await apply({ status: 'archived' })
    expect(status.selectedIndex).toBe(-1) // documented: no option selected
    await userEvent.selectOptions(status, 'review')
    expect(ed.fields.status.local.value).toBe('review')
    done.focus()
    for (let i = 0; i < 5; i++) {
      await apply({ done: i % 2 === 0 })
      expect(done.checked).toBe(i % 2 === 0)
      expect(document.activeElement).toBe(done)
    }
    await userEvent.keyboard(' ') // space toggles the focused checkbox
    expect(ed.fields.done.local.value).toBe(!(4 % 2 === 0))
    ed.dispose()
  })

  it('locked by another user mid-composition: disabled follows the lock; the composition Chromium commits then wins (README rule)', async () => {
    const ed = openEditor(mount(), record('r1', { title: 'abc' }), { onConflict: 'overwrite' })
    await settled()
    const title = ed.el('title')
    title.focus()
    title.setSelectionRange(3, 3)
    await compose('と')
    // bob takes the lock and edits the field in the same message
    ed.push({ user: 'bob', edits: { title: 'bob was here' }, lock: 'title', at: 'title' })
    await quiesce(ed)
    expect(title.disabled).toBe(true)
    expect(ed.form.querySelector('.presence[data-key=title]')!.textContent).toBe('bob')
    await sleep(50) // Chromium commits the disabled field's composition after a frame: 'compositionend' writes it
    expect([title.value, ed.fields.title.local.value]).toEqual(['abcと', 'abcと']) // bob's edit is gone, under bob's lock
    ed.push({ user: 'bob', edits: { title: 'bob again' }, lock: null, at: null })
    await quiesce(ed)
    expect([title.disabled, title.value]).toEqual([false, 'bob again'])
    ed.dispose()
  })

  it('errors in one field\'s format or effect do not stop the other fields', async () => {
    const errors: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
    for (const [name, schedule] of Object.entries(schedules)) {
      configure({ schedule })
      errors.length = 0
      const root = mount()
      const ed = openEditor(root, record('r1'), {
        presenceFormat: (k) => (names) => { if (k === 'body' && names.length) throw new Error('bad presence ' + name); return names.join(', ') },
      })
      await settled()
      const boom = effect(() => { if (ed.fields.body.local.value === 'boom') throw new Error('field effect ' + name) })
      const others: string[] = []
      const ok = effect(() => void others.push(String(ed.fields.body.local.value)))
      batch(() => {
        ed.presence.value = { bob: 'body', carol: 'title' }
        ;(ed.fields.body.local as Signal<string>).value = 'boom'
        ;(ed.fields.title.local as Signal<string>).value = 'still fine'
      })
      await settled()
      await sleep(20)
      expect(errors.map((e) => (e as Error).message).sort(), name).toEqual(['bad presence ' + name, 'field effect ' + name])
      expect(root.querySelector('.presence[data-key=title]')!.textContent).toBe('carol')
      expect(ed.el('title').value).toBe('still fine')
      expect(ed.el('body').value).toBe('boom')
      expect(others.at(-1)).toBe('boom')
      boom(); ok(); ed.dispose()
      flush()
      root.remove()
    }
  })

  it.each(Object.entries(schedules))('record switch x100, mid-typing and mid-composition (schedule %s): no cross-record text, no leaks', async (_, schedule) => {
    configure({ schedule })
    const root = mount()
    const form = root.querySelector('form')!
    const live = new Set<string>()
    const ids = new WeakMap<object, number>()
    let nextId = 0
    const key = (t: EventTarget, type: string, l: object) => { if (!ids.has(l)) ids.set(l, nextId++); return `${(t as Element).getAttribute?.('name')}|${type}|${ids.get(l)}` }
    const add = EventTarget.prototype.addEventListener, remove = EventTarget.prototype.removeEventListener
    const addSpy = vi.spyOn(EventTarget.prototype, 'addEventListener').mockImplementation(function (this: EventTarget, type: string, l: any, o?: any) { if (this instanceof Node && form.contains(this)) live.add(key(this, type, l)); return add.call(this, type, l, o) })
    const removeSpy = vi.spyOn(EventTarget.prototype, 'removeEventListener').mockImplementation(function (this: EventTarget, type: string, l: any, o?: any) { if (this instanceof Node && form.contains(this)) live.delete(key(this, type, l)); return remove.call(this, type, l, o) })
    const refs: WeakRef<object>[] = []
    let ed = openEditor(root, record('r0'))
    await settled()
    const title = ed.el('title')
    const problems: string[] = []
    try {
      for (let i = 1; i <= 100; i++) {
        title.focus()
        title.setSelectionRange(title.value.length, title.value.length)
        const prev = ed
        const ime = i % 3 === 0
        if (ime) await compose('か')
        else await userEvent.keyboard('k')
        const before = String(prev.fields.title.local.peek())
        prev.dispose()
        refs.push(new WeakRef(prev.fields.title.local))
        ed = openEditor(root, record('r' + i))
        // the user keeps typing right after the switch (a shortcut, then the next key)
        if (ime) await commit('火')
        else await userEvent.keyboard('m')
        await settled()
        if (String(prev.fields.title.local.peek()) !== before) problems.push(`${i}: old record changed after switch: ${prev.fields.title.local.peek()}`)
        const t = String(ed.fields.title.local.peek())
        if (t.includes('Title r' + (i - 1))) problems.push(`${i}${ime ? ' (IME)' : ''}: new record r${i} holds the old record's text: ${t}`)
        if (title.value !== t) problems.push(`${i}: field ${title.value} vs signal ${t}`)
      }
      ed.dispose()
    } finally {
      addSpy.mockRestore(); removeSpy.mockRestore()
    }
    console.log(`${schedule}: ${problems.length} cross-record problems`, problems.slice(0, 4))
    expect(problems).toEqual([])
    expect([...live]).toEqual([])
    ed = undefined!
    // the last record switched away from may still be held by this function's own frame
    const collected = await collectUntil(() => refs.filter((r) => r.deref()).length <= 1)
    expect(refs.filter((r) => r.deref()).length).toBeLessThanOrEqual(1)
    expect(collected).toBe(true)
  })

  it('binding inside an effect (record switch as an effect) does not subscribe the effect to the bound computed', async () => {
    const root = mount()
    const current = new Signal('r1')
    let opens = 0
    let ed!: Editor
    const stop = effect(() => {
      opens++
      ed = openEditor(root, record(current.value))
      return () => ed.dispose()
    })
    await settled()
    ;(ed.fields.title.local as Signal<string>).value = 'changed'
    ed.presence.value = { bob: 'title' }
    ed.fields.title.lockedBy.value = 'bob'
    await settled()
    expect(opens).toBe(1)
    current.value = 'r2'
    expect(opens).toBe(2)
    await settled()
    expect(ed.el('title').value).toBe('Title r2')
    expect(ed.el('title').disabled).toBe(false)
    stop()
  })
})
