// A todo list written the way the README teaches: state in signals, derived lists and counts as computeds, text,
// attributes, classes and properties through bind(), a two-way input, the list rendered by hand with DOM APIs,
// and each removed row's bindings disposed. Driven with real DOM events, awaited with settled().
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Signal, batch, computed, configure, effect, flush, settled, type Binding } from '@eddy/signal'
import { observe, schedules } from '../dom.ts'

type Filter = 'all' | 'active' | 'done'
interface Todo {
  id: number
  title: Signal<string>
  done: Signal<boolean>
}

function mountTodoApp(root: HTMLElement) {
  root.innerHTML = `
    <form class="new"><input class="draft" placeholder="What needs doing?"><button class="add">Add</button></form>
    <p class="hint"></p>
    <nav>
      <label><input type="radio" name="filter" value="all"> All</label>
      <label><input type="radio" name="filter" value="active"> Active</label>
      <label><input type="radio" name="filter" value="done"> Done</label>
    </nav>
    <label><input type="checkbox" class="toggle-all"> all done</label>
    <ul class="list"></ul>
    <footer><span class="left"></span> left, <span class="total"></span> total
      <button class="clear">Clear done</button></footer>`
  const $ = <E extends Element>(sel: string) => root.querySelector<E>(sel)!

  let nextId = 1
  const todos = new Signal<Todo[]>([])
  const filter = new Signal<Filter>('all')
  const draft = new Signal('')

  const remaining = computed(() => todos.value.filter((t) => !t.done.value).length)
  const doneCount = computed(() => todos.value.length - remaining.value)
  const visible = computed(() =>
    todos.value.filter((t) => (filter.value === 'all' ? true : filter.value === 'done' ? t.done.value : !t.done.value)),
  )
  const canAdd = computed(() => draft.value.trim().length > 0)

  // Static bindings.
  const app: Binding[] = []
  app.push(draft.bind($('.draft'), { model: 'input' }))
  app.push(computed(() => !canAdd.value).bind($('.add'), 'disabled'))
  app.push(remaining.bind($('.left')))
  app.push(computed(() => todos.value.length).bind($('.total')))
  app.push(computed(() => doneCount.value === 0).bind($('.clear'), 'hidden'))
  app.push(
    draft.bind($('.hint'), { format: (d) => (d.length > 20 ? `${d.length}/20 characters: too long` : '') }),
  )
  for (const r of root.querySelectorAll('input[name=filter]')) app.push(filter.bind(r, { model: 'change' }))
  // toggle-all: checked when all are done; clicking sets all
  app.push(computed(() => todos.value.length > 0 && remaining.value === 0).bind($('.toggle-all'), 'checked'))
  $('.toggle-all').addEventListener('change', (e) => {
    const on = (e.target as HTMLInputElement).checked
    batch(() => todos.peek().forEach((t) => (t.done.value = on)))
  })

  // Rows, by hand: one <li> per todo, keyed by id, created once and moved; bindings disposed on removal.
  const rows = new Map<number, { li: HTMLLIElement; bindings: Binding[] }>()
  const list = $('.list') as HTMLUListElement
  function makeRow(t: Todo) {
    const li = document.createElement('li')
    li.dataset.id = String(t.id)
    const check = li.appendChild(document.createElement('input'))
    check.type = 'checkbox'
    const label = li.appendChild(document.createElement('span'))
    const edit = li.appendChild(document.createElement('input'))
    edit.className = 'edit'
    const del = li.appendChild(document.createElement('button'))
    del.textContent = '×'
    del.addEventListener('click', () => remove(t.id))
    const bindings = [
      t.done.bind(check, { model: 'change' }),
      t.title.bind(label),
      t.title.bind(edit, { model: 'change' }),
      t.done.bind(li, { class: 'done' }),
      t.done.bind(li, { attr: 'aria-checked', format: String }), // true alone would write aria-checked=""
      t.title.bind(li, 'title'),
    ]
    return { li, bindings }
  }
  const stopList = effect(() => {
    const want = visible.value
    const keep = new Set(want.map((t) => t.id))
    for (const [id, row] of rows)
      if (!todos.peek().some((t) => t.id === id)) {
        row.bindings.forEach((b) => b.dispose())
        row.li.remove()
        rows.delete(id)
      } else if (!keep.has(id)) row.li.remove()
    want.forEach((t, i) => {
      let row = rows.get(t.id)
      if (!row) rows.set(t.id, (row = makeRow(t)))
      if (list.children[i] !== row.li) list.insertBefore(row.li, list.children[i] ?? null)
    })
  })

  function add() {
    const title = draft.peek().trim()
    if (!title) return
    batch(() => {
      todos.value = [...todos.peek(), { id: nextId++, title: new Signal(title), done: new Signal(false) }]
      draft.value = ''
    })
  }
  function remove(id: number) {
    todos.value = todos.peek().filter((t) => t.id !== id)
  }
  $('.new').addEventListener('submit', (e) => {
    e.preventDefault()
    add()
  })
  $('.clear').addEventListener('click', () => (todos.value = todos.peek().filter((t) => !t.done.peek())))

  const destroy = () => {
    stopList()
    app.forEach((b) => b.dispose())
    for (const row of rows.values()) row.bindings.forEach((b) => b.dispose())
    rows.clear()
  }
  return { todos, filter, draft, remaining, visible, rows, destroy, $ }
}

const type = (input: HTMLInputElement, text: string) => {
  input.value = text
  input.dispatchEvent(new Event('input', { bubbles: true }))
}
const submit = (form: HTMLFormElement) => form.requestSubmit()

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

describe.each(Object.entries(schedules))('todo app, schedule %s', (_, schedule) => {
  beforeEach(() => configure({ schedule }))

  it('adds todos from the draft field, renders rows, counts and the add button state', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const app = mountTodoApp(root)
    await settled()
    const draft = app.$<HTMLInputElement>('.draft')
    const add = app.$<HTMLButtonElement>('.add')
    expect(add.disabled).toBe(true)
    expect(app.$('.left').textContent).toBe('0')
    // the filter radios render from the signal
    const radios = [...root.querySelectorAll<HTMLInputElement>('input[name=filter]')]
    expect(radios.map((r) => r.checked)).toEqual([true, false, false])

    type(draft, '  ')
    await settled()
    expect(add.disabled).toBe(true)
    type(draft, 'Buy milk')
    await settled()
    expect(add.disabled).toBe(false)
    submit(app.$('.new'))
    await settled()
    expect(draft.value).toBe('') // cleared through the two-way binding
    expect(add.disabled).toBe(true)

    type(draft, 'Walk the llama')
    await settled() // the button is enabled by a render, so not before it
    add.click() // a real submit through the button
    await settled()
    const lis = [...root.querySelectorAll('li')]
    expect(lis.map((li) => li.querySelector('span')!.textContent)).toEqual(['Buy milk', 'Walk the llama'])
    expect(lis.map((li) => li.title)).toEqual(['Buy milk', 'Walk the llama'])
    expect(lis.map((li) => li.querySelector<HTMLInputElement>('.edit')!.value)).toEqual(['Buy milk', 'Walk the llama'])
    expect(lis.map((li) => li.getAttribute('aria-checked'))).toEqual(['false', 'false'])
    expect(app.$('.left').textContent).toBe('2')
    expect(app.$('.total').textContent).toBe('2')
    expect(app.$<HTMLButtonElement>('.clear').hidden).toBe(true)
    app.destroy()
  })

  it('checks a row with a real click: class, aria attribute, counts, filter and clear-done', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const app = mountTodoApp(root)
    for (const t of ['a', 'b', 'c']) {
      type(app.$('.draft'), t)
      submit(app.$('.new'))
    }
    await settled()
    const li = (title: string) => [...root.querySelectorAll('li')].find((l) => l.title === title)!
    li('b').querySelector<HTMLInputElement>('input[type=checkbox]')!.click()
    expect(app.todos.value[1]!.done.value).toBe(true)
    await settled()
    expect(li('b').classList.contains('done')).toBe(true)
    expect(li('b').getAttribute('aria-checked')).toBe('true')
    expect(app.$('.left').textContent).toBe('2')
    expect(app.$<HTMLButtonElement>('.clear').hidden).toBe(false)

    // filter through the radios
    root.querySelector<HTMLInputElement>('input[value=done]')!.click()
    expect(app.filter.value).toBe('done')
    await settled()
    expect([...root.querySelectorAll('li')].map((l) => l.title)).toEqual(['b'])
    root.querySelector<HTMLInputElement>('input[value=active]')!.click()
    await settled()
    expect([...root.querySelectorAll('li')].map((l) => l.title)).toEqual(['a', 'c'])
    // a row hidden by the filter keeps its bindings: checking 'a' moves it out of the view
    root.querySelector<HTMLLIElement>('li')!.querySelector<HTMLInputElement>('input[type=checkbox]')!.click()
    await settled()
    expect([...root.querySelectorAll('li')].map((l) => l.title)).toEqual(['c'])
    root.querySelector<HTMLInputElement>('input[value=all]')!.click()
    await settled()
    expect([...root.querySelectorAll('li')].map((l) => l.title)).toEqual(['a', 'b', 'c'])
    expect(li('a').classList.contains('done')).toBe(true)

    app.$<HTMLButtonElement>('.clear').click()
    await settled()
    expect([...root.querySelectorAll('li')].map((l) => l.title)).toEqual(['c'])
    expect(app.rows.size).toBe(1)
    expect(app.$('.left').textContent).toBe('1')
    expect(app.$('.total').textContent).toBe('1')
    app.destroy()
  })

  it('edits a title with the row field (change): the label, the title attribute and the row node are kept', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const app = mountTodoApp(root)
    type(app.$('.draft'), 'old')
    submit(app.$('.new'))
    await settled()
    const row = root.querySelector('li')!
    const edit = row.querySelector<HTMLInputElement>('.edit')!
    edit.focus()
    edit.value = 'new title'
    edit.dispatchEvent(new Event('input')) // model: 'change' ignores input
    expect(app.todos.value[0]!.title.value).toBe('old')
    edit.dispatchEvent(new Event('change'))
    expect(app.todos.value[0]!.title.value).toBe('new title')
    await settled()
    expect(root.querySelector('li')).toBe(row) // not rebuilt: the list effect does not track titles
    expect(document.activeElement).toBe(edit)
    expect(row.querySelector('span')!.textContent).toBe('new title')
    expect(row.title).toBe('new title')
    app.destroy()
  })

  it('toggle-all sets every row in one batch, with one render per bound node', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const app = mountTodoApp(root)
    for (const t of ['a', 'b', 'c', 'd']) {
      type(app.$('.draft'), t)
      submit(app.$('.new'))
    }
    await settled()
    let listRuns = 0
    const stop = effect(() => void (app.remaining.value, listRuns++))
    listRuns = 0
    const seen = observe(app.$('.list'))
    app.$<HTMLInputElement>('.toggle-all').click()
    expect(listRuns).toBe(1) // one run for four writes
    await settled()
    const records = seen.stop()
    // per row: checkbox `checked` is a property (no record), class + aria-checked: 2 attribute records
    expect(records.filter((r) => r.type === 'attributes')).toHaveLength(8)
    expect(app.$('.left').textContent).toBe('0')
    expect(app.$<HTMLInputElement>('.toggle-all').checked).toBe(true)
    expect([...root.querySelectorAll('li input[type=checkbox]')].every((c) => (c as HTMLInputElement).checked)).toBe(true)
    // uncheck one row: toggle-all follows
    root.querySelector<HTMLInputElement>('li input[type=checkbox]')!.click()
    await settled()
    expect(app.$<HTMLInputElement>('.toggle-all').checked).toBe(false)
    stop()
    app.destroy()
  })

  it('removing a row disposes its bindings: the removed signals no longer touch the detached nodes', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const app = mountTodoApp(root)
    for (const t of ['a', 'b']) {
      type(app.$('.draft'), t)
      submit(app.$('.new'))
    }
    await settled()
    const [a] = app.todos.value
    const row = root.querySelector('li')!
    row.querySelector('button')!.click()
    await settled()
    expect(root.querySelectorAll('li')).toHaveLength(1)
    expect(app.rows.has(a!.id)).toBe(false)
    // the removed todo's signals still exist (a user may keep them for undo): writes must not render into the row
    const seen = observe(row)
    a!.title.value = 'changed after removal'
    a!.done.value = true
    await settled()
    expect(seen.stop()).toEqual([])
    expect(row.querySelector('span')!.textContent).toBe('a')
    // and the detached row's field no longer writes back
    const check = row.querySelector<HTMLInputElement>('input[type=checkbox]')!
    check.click()
    expect(a!.done.value).toBe(true) // unchanged by the click (it was set true above)
    check.click()
    expect(a!.done.value).toBe(true)
    app.destroy()
  })

  it('destroy() leaves nothing running: later writes change no DOM', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const app = mountTodoApp(root)
    type(app.$('.draft'), 'x')
    submit(app.$('.new'))
    await settled()
    app.destroy()
    const seen = observe(root)
    batch(() => {
      app.todos.value = []
      app.draft.value = 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'
      app.filter.value = 'done'
    })
    await settled()
    expect(seen.stop()).toEqual([])
  })

  it('the draft hint: too long shows a message (format on a text binding)', async () => {
    const root = document.body.appendChild(document.createElement('main'))
    const app = mountTodoApp(root)
    type(app.$('.draft'), 'x'.repeat(25))
    await settled()
    expect(app.$('.hint').textContent).toBe('25/20 characters: too long')
    type(app.$('.draft'), 'short')
    await settled()
    expect(app.$('.hint').textContent).toBe('')
    app.destroy()
  })

  it('mutating the array in place notifies nothing (documented as Object.is? a user trap)', async () => {
    const todos = new Signal<string[]>([])
    const count = computed(() => todos.value.length)
    const el = document.body.appendChild(document.createElement('b'))
    count.bind(el)
    await settled()
    todos.value.push('a')
    todos.value = todos.value // same array: a no-op
    await settled()
    expect(el.textContent).toBe('0')
    todos.value = [...todos.value]
    await settled()
    expect(el.textContent).toBe('1')
  })
})
