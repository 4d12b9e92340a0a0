// SSR trial, variant 1: the server's HTML put into the page with innerHTML, then hydrated with signals whose initial
// values are the server's (read from the page's JSON island). Counts DOM mutations with a MutationObserver.
import { describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import * as eddy from '@eddy/signal'
import { Signal, configure, flush, settled } from '@eddy/signal'
import { observe, sandbox, schedules } from '../../dom.ts'
import { createStore, initialState, renderPage } from './server.mjs'
import { hydrate } from './hydrate.mjs'

const box = sandbox()
const $ = <T extends Element = HTMLInputElement>(id: string) => box.root.querySelector('#' + id) as unknown as T
const describeRecord = (r: MutationRecord) => `${r.type}:${r.attributeName ?? ''}:${(r.target as Element).id || r.target.nodeName}`

/** The server's HTML for `state` in the sandbox (a fresh store renders it, as the server would). */
function serve(state = initialState()) {
  box.root.innerHTML = renderPage(createStore(eddy, state))
  return state
}

describe('hydrating server HTML whose values match the signals', () => {
  for (const [name, schedule] of Object.entries(schedules)) {
    it(`writes nothing at all: 0 mutations for 17 bindings (${name})`, async () => {
      configure({ schedule })
      try {
        serve()
        const before = box.root.innerHTML
        const o = observe(box.root)
        const { bindings } = hydrate(eddy, document)
        expect(bindings.length).toBe(17)
        await settled()
        await new Promise((r) => requestAnimationFrame(r))
        flush()
        expect(o.stop().map(describeRecord)).toEqual([])
        expect(box.root.innerHTML).toBe(before)
        expect(box.msgs()).toEqual([])
      } finally {
        configure({ schedule: 'microtask' })
      }
    })
  }

  it('a focused field keeps focus, caret and selection through the first render', async () => {
    serve()
    const draft = $('draft')
    draft.focus()
    draft.setSelectionRange(2, 7, 'backward')
    const note = $<HTMLTextAreaElement>('note')
    hydrate(eddy, document)
    await settled()
    expect(document.activeElement).toBe(draft)
    expect([draft.selectionStart, draft.selectionEnd, draft.selectionDirection]).toEqual([2, 7, 'backward'])
    expect(note.value).toBe('a note')
  })

  it('after hydration the page is live: typing, a checkbox, a radio and selects reach the signals and the page', async () => {
    serve()
    const { store: s } = hydrate(eddy, document)
    await settled()
    const o = observe(box.root)
    await userEvent.clear($('draft'))
    await userEvent.type($('draft'), 'hello')
    expect(s.draft.value).toBe('hello')
    s.name.value = 'Grace'
    await settled()
    expect([$('name').textContent, $('greeting').textContent]).toEqual(['Grace', 'Hello, Grace!'])
    await userEvent.click($('agree'))
    await userEvent.click($('size-l'))
    await userEvent.selectOptions($<HTMLSelectElement>('country') as any, 'it')
    await userEvent.fill($('qty'), '4')
    await settled()
    expect([s.agree.value, s.size.value, s.country.value, s.qty.value, s.total.value]).toEqual([true, 'l', 'it', 4, 6])
    expect($('submit').hasAttribute('disabled')).toBe(false)
    expect($('summary').textContent).toBe('2 x 1.5 = 6 EUR') // the server's static "2" stays, the bound total follows
    s.open.value = true
    await settled()
    expect([$('toggle').getAttribute('aria-expanded'), $('details').className, $('details').hidden]).toEqual(['true', 'panel open', false])
    // Each change wrote only what changed: no record touches the form's fields' attributes or the bio region.
    const recs = o.stop().map(describeRecord)
    expect(recs.filter((r) => /bio|attributes:(value|checked|selected)/.test(r))).toEqual([])
  })
})

describe('server value and signal value differ', () => {
  it('eddy overwrites, at the flush (a microtask after bind), never synchronously in bind()', async () => {
    serve()
    const state = { ...initialState(), name: 'Grace', open: true, draft: 'second', agree: true, size: 's', tags: ['a'], country: 'de' }
    const o = observe(box.root)
    const seen: string[] = []
    queueMicrotask(() => seen.push('queued before bind: ' + $('name').textContent))
    hydrate(eddy, document, state)
    seen.push('sync after bind: ' + $('name').textContent + ', ' + $('draft').value + ', ' + o.stop().length + ' mutations')
    const o2 = observe(box.root)
    await null
    seen.push('next microtask: ' + $('name').textContent + ', ' + $('draft').value)
    expect(seen).toEqual(['sync after bind: Ada, first draft, 0 mutations', 'queued before bind: Ada', 'next microtask: Grace, second'])
    expect([$('agree').checked, $('size-s').checked, $('size-m').checked, $<HTMLSelectElement>('country').value]).toEqual([true, true, false, 'de'])
    expect([...$<HTMLSelectElement>('tags').selectedOptions].map((x) => x.value)).toEqual(['a'])
    // What changed, once each: name, greeting, aria-expanded, class, hidden, submit's disabled (fields: properties only).
    expect(o2.stop().map(describeRecord).sort()).toEqual(
      ['attributes:aria-expanded:toggle', 'attributes:class:details', 'attributes:disabled:submit', 'attributes:hidden:details', 'childList::greeting', 'childList::name'].sort(),
    )
  })

  it('a Signal created before the HTML exists renders into the parsed nodes: bind order does not matter', async () => {
    const s = new Signal('late')
    serve()
    s.bind($('name'))
    expect($('name').textContent).toBe('Ada')
    await settled()
    expect($('name').textContent).toBe('late')
  })
})
