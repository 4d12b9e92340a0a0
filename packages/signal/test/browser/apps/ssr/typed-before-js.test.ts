// SSR trial: the classic "typed before JS loaded" case, in the innerHTML variant (the real-navigation variant is in
// navigation.test.ts). The user edits the server's form before the hydration script runs; then the page hydrates
// with the signals the server rendered (its JSON island).
import { describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import * as eddy from '@eddy/signal'
import { settled } from '@eddy/signal'
import { observe, sandbox } from '../../dom.ts'
import { createStore, initialState, renderPage } from './server.mjs'
import { hydrate } from './hydrate.mjs'

const box = sandbox()
const $ = <T extends Element = HTMLInputElement>(id: string) => box.root.querySelector('#' + id) as unknown as T

/** Real key presses at the end of a field's text. */
async function typeAtEnd(el: HTMLInputElement, keys: string) {
  el.focus()
  el.setSelectionRange(el.value.length, el.value.length)
  await userEvent.keyboard(keys)
}

/** The server's page, then the user's edits before any script: text typed, a box ticked, a radio and an option picked. */
async function serveAndEdit() {
  box.root.innerHTML = renderPage(createStore(eddy, initialState()))
  await typeAtEnd($('draft'), ' and more')
  await userEvent.click($('agree'))
  await userEvent.click($('size-l'))
  await userEvent.selectOptions($<HTMLSelectElement>('country') as any, 'it')
  const draft = $('draft')
  draft.setSelectionRange(3, 3)
  return { typed: 'first draft and more' }
}

const shown = () => ({
  draft: $('draft').value,
  agree: $('agree').checked,
  size: ['s', 'm', 'l'].find((x) => $('size-' + x).checked),
  country: $<HTMLSelectElement>('country').value,
})
const held = (s: any) => ({ draft: s.draft.value, agree: s.agree.value, size: s.size.value, country: s.country.value })
const edited = { draft: 'first draft and more', agree: true, size: 'l', country: 'it' }

describe('edits made before hydration', () => {
  // The trial's finding, documented rather than changed (README, "Taking over server-rendered HTML"): a model's
  // signal is what the field shows once bound, so the first render writes the server's values over edits made
  // before the script ran. React (facebook/react#33129) and Vue (vuejs/core#14411) keep them; a fix here (adopt a
  // field's value when it differs from its markup while the signal holds the markup's) cost +145 B and would
  // reverse a binding's direction by a guess, so the README gives the recipe below instead.
  it('without the recipe, the first render of { model } puts the server values back over text typed, a box ticked, a radio and an option picked', async () => {
    await serveAndEdit()
    expect(shown()).toEqual(edited)
    const { store } = hydrate(eddy, document)
    const served = held(store)
    await settled()
    expect(served).not.toEqual(edited)
    expect({ shown: shown(), held: held(store) }).toEqual({ shown: served, held: served })
  })

  it('without the recipe, the focused field loses its caret too (the value is rewritten under it)', async () => {
    await serveAndEdit()
    const draft = $('draft')
    draft.focus()
    draft.setSelectionRange(3, 3)
    hydrate(eddy, document)
    await settled()
    expect(draft.value).not.toBe('first draft and more')
    expect(draft.selectionStart).toBe(draft.value.length)
  })

  // The README's own recipe for a reload ("dispatch an input and a change on each field of form.elements"), applied
  // at once after binding, before the first render: each model writes its field back and the render leaves it.
  it("the README's recipe: dispatch 'input' and 'change' on each field right after binding keeps every edit and the caret", async () => {
    await serveAndEdit()
    const draft = $('draft')
    draft.focus()
    draft.setSelectionRange(3, 3)
    const { store } = hydrate(eddy, document)
    const form = $<HTMLFormElement>('order')
    for (const el of form.elements) for (const type of ['input', 'change']) el.dispatchEvent(new Event(type, { bubbles: true }))
    await settled()
    expect({ shown: shown(), held: held(store), caret: draft.selectionStart }).toEqual({ shown: edited, held: edited, caret: 3 })
    expect(store.canSubmit.value).toBe(true)
    expect($('submit').hasAttribute('disabled')).toBe(false)
  })

  // The other way: seed the signals from the fields, not from the island. Works, but the island and the page
  // then disagree, and a select or radio group needs code of its own.
  it('the other way: seed the model signals from the fields themselves', async () => {
    await serveAndEdit()
    const state = JSON.parse($('state').textContent!)
    state.draft = $('draft').value
    state.agree = $('agree').checked
    state.size = (box.root.querySelector('input[name=size]:checked') as HTMLInputElement).value
    state.country = $<HTMLSelectElement>('country').value
    const o = observe(box.root)
    const { store } = hydrate(eddy, document, state)
    await settled()
    expect({ shown: shown(), held: held(store) }).toEqual({ shown: edited, held: edited })
    // The submit button follows the ticked box: its `disabled` goes (the only mutation).
    expect(o.stop().map((r) => `${r.type}:${r.attributeName}:${(r.target as Element).id}`)).toEqual(['attributes:disabled:submit'])
  })

  it('typing between bind() and the first render (animationFrame schedule) is kept, as the README says', async () => {
    eddy.configure({ schedule: 'animationFrame' })
    try {
      box.root.innerHTML = renderPage(createStore(eddy, initialState()))
      const { store } = hydrate(eddy, document)
      await typeAtEnd($('draft'), '!')
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r)))
      expect([$('draft').value, store.draft.value]).toEqual(['first draft!', 'first draft!'])
    } finally {
      eddy.configure({ schedule: 'microtask' })
    }
  })
})
