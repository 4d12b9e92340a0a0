// The "client" half of the SSR trial: reads the JSON island, makes the same store and binds every spot the server
// rendered. Plain JS, no imports, so that a page in an iframe can import it by URL with the shipped dist.
import { createStore } from './server.mjs'

/** Binds the page in `doc` (its `#app`); `eddy` is the @eddy/signal module. Returns the store and the bindings. */
export function hydrate(eddy, doc = document, state) {
  state ??= JSON.parse(doc.getElementById('state').textContent)
  const s = createStore(eddy, state)
  const $ = (id) => doc.getElementById(id)
  const marker = [...$('summary').childNodes].find((n) => n.nodeType == 8 && n.data == 't')
  const sanitize = (h) => h // the trial's stand-in; DOMPurify would go here
  const b = [
    s.name.bind($('name')),
    s.greeting.bind($('greeting')),
    s.total.bind(marker.nextSibling), // the Text node between the markers
    s.open.bind($('toggle'), { attr: 'aria-expanded' }),
    s.open.bind($('details'), { class: 'open' }),
    s.open.bind($('details'), { attr: 'hidden', format: (o) => !o }),
    s.bio.bind($('bio'), { html: true, sanitize }),
    s.qty.bind($('qty'), { model: 'input' }),
    s.draft.bind($('draft'), { model: 'input' }),
    s.note.bind($('note'), { model: 'input' }),
    s.agree.bind($('agree'), { model: 'change' }),
    ...['s', 'm', 'l'].map((x) => s.size.bind($('size-' + x), { model: 'change' })),
    s.tags.bind($('tags'), { model: 'change' }),
    s.country.bind($('country'), { model: 'change' }),
    s.canSubmit.bind($('submit'), { attr: 'disabled', format: (ok) => !ok }),
  ]
  return { store: s, bindings: b }
}
