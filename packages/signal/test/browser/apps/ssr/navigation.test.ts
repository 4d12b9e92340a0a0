// SSR trial, variant 2: a real navigation. The server's whole document (renderDocument) is loaded into an iframe,
// by srcdoc and by a Blob URL, and its own <script type=module> imports the SHIPPED dist/index.js and hydrate.mjs by
// URL, as a production page would. The module waits for a "go" from the test: the test stands for a slow network,
// during which the user can already use the server's form.
import { describe, expect, it } from 'vitest'
import { cdp } from 'vitest/browser'
import * as eddy from '@eddy/signal'
import { sandbox } from '../../dom.ts'
import { createStore, initialState, renderDocument } from './server.mjs'

const box = sandbox()
const here = import.meta.url.replace(/\?.*$/, '')
const distUrl = here.replace(/test\/browser\/apps\/ssr\/navigation\.test\.ts$/, 'dist/index.js')
const hydrateUrl = here.replace(/navigation\.test\.ts$/, 'hydrate.mjs')

// The page's script: waits for go(), then imports eddy (the dist) and hydrates, counting mutations from the moment
// it starts binding until the first render has been written.
const script = `<script type="module">
await new Promise((r) => (window.go = r))
const eddy = await import(${JSON.stringify(distUrl)})
const { hydrate } = await import(${JSON.stringify(hydrateUrl)})
const records = []
const mo = new MutationObserver((l) => records.push(...l))
mo.observe(document.getElementById('app'), { subtree: true, childList: true, attributes: true, characterData: true })
const { store } = hydrate(eddy, document)
// The README's recipe for edits made before the script ran: each model writes its field back before the first render.
if (window.recipe) for (const el of document.forms[0].elements) for (const t of ['input', 'change']) el.dispatchEvent(new Event(t, { bubbles: true }))
await eddy.settled()
records.push(...mo.takeRecords())
mo.disconnect()
window.hydrated({ store, mutations: records.map((r) => r.type + ':' + (r.attributeName ?? '') + ':' + (r.target.id || r.target.nodeName)) })
</script>`

type Loaded = { win: any; doc: Document; hydrate(recipe?: boolean): Promise<{ store: any; mutations: string[] }> }
async function load(how: 'srcdoc' | 'blob'): Promise<Loaded> {
  const html = renderDocument(createStore(eddy, initialState()), '', script)
  const f = document.createElement('iframe')
  const loaded = new Promise((r) => f.addEventListener('load', r, { once: true }))
  if (how == 'srcdoc') f.srcdoc = html
  else f.src = URL.createObjectURL(new Blob([html], { type: 'text/html' }))
  box.root.append(f)
  await loaded
  const win = f.contentWindow as any
  while (!win.go) await new Promise((r) => setTimeout(r, 5))
  return {
    win,
    doc: f.contentDocument!,
    hydrate: (recipe = false) => new Promise((r) => ((win.hydrated = r), (win.recipe = recipe), win.go())),
  }
}

for (const how of ['srcdoc', 'blob'] as const) {
  describe(`a real navigation (${how}), hydrated by the shipped dist`, () => {
    it('untouched page: the first render writes nothing (0 mutations), the page is live after', async () => {
      const page = await load(how)
      const { store, mutations } = await page.hydrate()
      expect(mutations).toEqual([])
      store.name.value = 'Grace'
      await new Promise((r) => setTimeout(r))
      expect(page.doc.getElementById('greeting')!.textContent).toBe('Hello, Grace!')
      // One module instance of eddy per realm: the page's store is the dist's, not the test's src.
      expect(store.name instanceof eddy.Signal).toBe(false)
    })

    // As in typed-before-js.test.ts, in a real document: keys typed by the user (trusted input events, through CDP)
    // and a box ticked before the module loaded. A field's value and checked are properties: a MutationObserver
    // sees none of what the first render does to them.
    const typeEarly = async (page: Loaded) => {
      const draft = page.doc.getElementById('draft') as HTMLInputElement
      page.win.focus()
      draft.focus()
      draft.setSelectionRange(draft.value.length, draft.value.length)
      await cdp().send('Input.insertText', { text: ' typed early' })
      ;(page.doc.getElementById('agree') as HTMLInputElement).click()
      expect([draft.value, (page.doc.getElementById('agree') as HTMLInputElement).checked]).toEqual(['first draft typed early', true])
      return draft
    }

    it('text typed and a box ticked before the module loaded: the first render puts the server values back (documented)', async () => {
      const page = await load(how)
      const draft = await typeEarly(page)
      const { store, mutations } = await page.hydrate()
      const agree = page.doc.getElementById('agree') as HTMLInputElement
      expect({ draft: draft.value, signal: store.draft.value, agree: agree.checked, mutations }).toEqual({
        draft: 'first draft',
        signal: 'first draft',
        agree: false,
        mutations: [],
      })
    })

    it("with the README's recipe (an input and a change on each field after binding) the edits reach the signals", async () => {
      const page = await load(how)
      const draft = await typeEarly(page)
      const { store, mutations } = await page.hydrate(true)
      // The submit button follows the ticked box: the server rendered it disabled.
      expect({ draft: draft.value, signal: store.draft.value, agree: store.agree.value, mutations }).toEqual({
        draft: 'first draft typed early',
        signal: 'first draft typed early',
        agree: true,
        mutations: ['attributes:disabled:submit'],
      })
    })
  })
}
