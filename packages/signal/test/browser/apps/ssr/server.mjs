// The "server" half of the SSR trial: plain string templates (no framework), isomorphic. It imports nothing: the
// caller passes the @eddy/signal module (the shipped dist in Node and in the iframe pages, src in the browser tests),
// so the same store runs on the server to produce the HTML and in the browser to hydrate it.

/** HTML-escapes text and attribute values (the usual five characters). */
export const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])

/**
 * State as a `<script type="application/json">` island. `<` is written as \u003c, so a value holding `</script>` or
 * `<!--` cannot end or bend the script element; U+2028/2029 are escaped for older parsers.
 */
export const island = (state) =>
  JSON.stringify(state).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')

/** The naive island: JSON.stringify alone (what a team writes first). */
export const naiveIsland = (state) => JSON.stringify(state)

export const initialState = () => ({
  name: 'Ada',
  qty: 2,
  price: 1.5,
  open: false,
  agree: false,
  size: 'm',
  tags: ['b', 'd'],
  country: 'fr',
  draft: 'first draft',
  note: 'a note',
  bio: '<p>Hi <em>there</em></p>',
})

/** Signals and computeds of the page, from a state object. `eddy` is the @eddy/signal module. */
export function createStore({ Signal, computed }, state) {
  const s = {}
  for (const [k, v] of Object.entries(state)) s[k] = new Signal(v)
  s.total = computed(() => +(s.qty.value * s.price.value).toFixed(2))
  s.greeting = computed(() => `Hello, ${s.name.value}!`)
  s.canSubmit = computed(() => s.agree.value && s.qty.value > 0)
  return s
}

/** A snapshot of the store's writable state (for the island). */
export const snapshot = (store) => Object.fromEntries(Object.keys(initialState()).map((k) => [k, store[k].peek()]))

const opt = (value, label, selected) => `<option value="${esc(value)}"${selected ? ' selected' : ''}>${esc(label)}</option>`

/**
 * The page, as a server renders it: every bound spot holds exactly the text the binding will compare with
 * (no whitespace around bound text, the bound number between comment markers so that it is a Text node of its own).
 */
export function renderPage(s, sanitize = (h) => h) {
  const v = (x) => x.peek()
  return `<main id="app">
  <h1>Order for <span id="name">${esc(v(s.name))}</span></h1>
  <p id="greeting">${esc(v(s.greeting))}</p>
  <p id="summary">${v(s.qty)} x ${v(s.price)} = <!--t-->${v(s.total)}<!--/t--> EUR</p>
  <button id="toggle" type="button" aria-expanded="${v(s.open)}">Details</button>
  <section id="details" class="panel${v(s.open) ? ' open' : ''}"${v(s.open) ? '' : ' hidden'}>
    <div id="bio">${sanitize(v(s.bio))}</div>
  </section>
  <form id="order">
    <input id="qty" name="qty" type="number" value="${v(s.qty)}">
    <input id="draft" name="draft" value="${esc(v(s.draft))}">
    <textarea id="note" name="note">${esc(v(s.note))}</textarea>
    <input id="agree" name="agree" type="checkbox"${v(s.agree) ? ' checked' : ''}>
    ${['s', 'm', 'l'].map((x) => `<input id="size-${x}" name="size" type="radio" value="${x}"${v(s.size) == x ? ' checked' : ''}>`).join('\n    ')}
    <select id="tags" name="tags" multiple>${['a', 'b', 'c', 'd'].map((x) => opt(x, x.toUpperCase(), v(s.tags).includes(x))).join('')}</select>
    <select id="country" name="country">${[['de', 'Germany'], ['fr', 'France'], ['it', 'Italy']].map(([x, l]) => opt(x, l, v(s.country) == x)).join('')}</select>
    <button id="submit"${v(s.canSubmit) ? '' : ' disabled'}>Order</button>
  </form>
  <script type="application/json" id="state">${island(snapshot(s))}</script>
</main>`
}

/** The same page as a whole document, for a real navigation (iframe srcdoc / Blob URL). */
export const renderDocument = (s, head = '', tail = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>order</title>${head}</head><body>${renderPage(s)}${tail}</body></html>`
