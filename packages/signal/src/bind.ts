/// <reference lib="esnext.disposable" preserve="true" />
// DOM bindings: one-way (and, with `model`, two-way) links from a signal or computed to a node. A binding is a
// leaf of the graph flagged RENDER: a change queues it on the shared render queue (render.ts) once, and the
// flush writes the latest value, only if the DOM does not already show it.
//
// Security: text goes through textContent (never parsed as HTML); HTML only through the caller's sanitizer (the
// `html` target); no property or attribute binding names an event handler (on*), innerHTML/outerHTML/srcdoc, and no
// binding writes into a <script> or a javascript: URL.
import { COMPUTED, NOTIFIED, PENDING, RENDER, WATCHING } from './flags.ts'
import { Link, attach, detach, keepAlive, readComputed, settle, write, type ReactiveNode } from './graph.ts'
import { enqueue } from './render.ts'
import { expectFunction, kind, rethrowAfter } from './errors.ts'
import { disposeKey } from './effect.ts'

/** Where `.bind(node, target)` writes: a property name, or one of these objects (text when omitted). */
export type BindTarget<T> =
  | ReadonlyBindTarget<T>
  /**
   * Two-way: the DOM event writes the element's value (checked for a checkbox) back into the signal. Only for the
   * types it is written back as: a number stays a number, anything else is the field's text (a `Signal<number | null>`
   * holding null would get strings). A `Signal<string | null>` (an optional text field) gets text, and shows null as
   * an empty field. Generic code gets it through `Signal`'s first `bind` overload.
   */
  | ([T] extends [string | number | boolean | readonly string[]]
      ? ModelTarget
      : [T] extends [string | null | undefined]
        ? [Extract<T, string>] extends [never] ? NoModel : ModelTarget
        : NoModel)

/** What `{ model }` reads as on a signal of another type: the type error names the types it takes. */
type NoModel = Only<{ model: 'needs a Signal<string | number | boolean | string[]>' }>

/**
 * What `.bind()` takes: the DOM's `Node`; where there is no DOM lib (Node, a worker), anything with a numeric
 * `nodeType`, which is what bind() checks. So the declarations type-check without the DOM lib too.
 */
export type DomNode = typeof globalThis extends { Node: { prototype: infer N } } ? N : { readonly nodeType: number }

/** The one-way targets (a computed cannot be bound two-way). `format` maps the value before it is written. */
export type ReadonlyBindTarget<T> =
  | string
  | Only<{ format: (value: T) => unknown }>
  | Only<{ attr: string; format?: Format<T> }>
  | Only<{ class: string; format?: Format<T> }>
  | Only<{ style: string; format?: Format<T> }>
  | Only<{ html: true; sanitize: (html: string) => string | TrustedHtml; format?: Format<T> }>

/**
 * A TrustedHTML (Trusted Types: what a policy's `createHTML`, or DOMPurify with `RETURN_TRUSTED_TYPE`, returns), written
 * to `innerHTML` as it is. TypeScript's DOM lib has no Trusted Types, and `@types/trusted-types` declares TrustedHTML
 * with a private brand and no members, so this is any object but what would be written as "[object ...]": a Promise
 * (an async sanitizer), a node (DOMPurify's `RETURN_DOM`), a function (`createHTML` not called).
 */
export type TrustedHtml = object & { then?: never; nodeType?: never; call?: never }

/** An optional `format`: `undefined` is taken as none (so optional props can be passed on as they are). */
type Format<T> = ((value: T) => unknown) | undefined

/** A two-way target: the event that writes the field's value back (no `format`: it would be written back). */
export type ModelTarget = Only<{ model: 'input' | 'change' }>

/**
 * A target object of one kind: the keys of the other kinds are refused (`{ class, html, sanitize }`,
 * `{ model, format }`, as `bind()` refuses them), which a union alone would let through.
 */
type Only<O> = O & { [K in Exclude<'format' | 'attr' | 'class' | 'style' | 'html' | 'sanitize' | 'model', keyof O>]?: never }

type Source = ReactiveNode & { peek(): unknown }
type Writer = (this: Binding, node: any, value: unknown) => void

/** A live link from a signal to a DOM node; `dispose()` (or `using`) removes it. Holds the node weakly. */
declare class Binding {
  /** Stops rendering (and, for `model`, listening); the node is left as it is. */
  dispose(this: Binding): void
  /** Same as `dispose()`, for `using` (the same function: it too needs its binding). */
  [Symbol.dispose](this: Binding): void
  /** @internal */ _flags: number
  /** @internal The link to the source (`_deps._dep`); undefined once disposed, read only while WATCHING. */ _deps: Link
  /** @internal The node, held weakly: a binding must not keep a removed node alive. */ _ref: WeakRef<Node>
  /** @internal */ _write: Writer
  /** @internal The property, attribute, class or style name; the event for model. */
  _arg: any
  /** @internal Whether it has a format (held in `formats`, under its node). */ _format: boolean
  /** @internal The model's event listener. */ _listener: ((event: Event) => void) | undefined
  /** @internal The value the model's field last wrote, until the binding's next render. */ _wrote?: unknown
  /** @internal */ _render(): void
}

// Drops a binding whose node was garbage-collected, even if its signal never changes again. Created lazily. It
// holds each binding weakly: held as it is, the binding held its source, and a computed's getter that can reach the
// node (a component's closure) kept the node, the registry's own target, alive for good. A binding collected
// first had no live source to leave.
let registry: FinalizationRegistry<WeakRef<Binding>> | undefined
// Made here, not in bind(): an arrow made there closes over that call's context, which holds its binding.
const drop = (ref: WeakRef<Binding>): void => ref.deref()?.dispose()

// The user's functions of each binding that has some (`format`, html's `sanitize`, folded into one), held through
// its node only: such a function often reaches the node (a component's closure), and held by the binding, which its
// signal holds, it kept a removed node alive for as long as the signal lived. A WeakMap entry does not keep its key.
// Weak by binding too: a node that lives on (an app shell's link, rebound at each route) kept every binding ever
// made on it with a format or a URL check, and their sources.
const formats = new WeakMap<Node, WeakMap<Binding, (value: unknown) => unknown>>()

// Prototype-based like Signal (see signal.ts): smaller and faster than a class.
/** @internal Use `.bind()`. */
function Binding(this: Binding, source: Source, node: Node, writer: Writer, arg: unknown, format: boolean): void {
  this._flags = WATCHING | RENDER | PENDING
  this._ref = new WeakRef(node)
  this._write = writer
  this._arg = arg
  this._format = format
  this._listener = undefined
  this._deps = new Link(source, this as unknown as ReactiveNode, 0)
}

Binding.prototype._render = function (this: Binding) {
  const flags = this._flags
  if (!(flags & WATCHING)) return
  this._flags = flags & ~PENDING
  // Its source's writes must notify it again (see NOTIFIED).
  this._deps._dep._flags &= ~NOTIFIED
  const node = this._ref.deref()
  if (!node) return this.dispose()
  // A Text node may have been moved into a <script> since `bind()`: its data would be script source.
  scriptless(node)
  // The format first: a getter the read runs may dispose the binding, which drops its format (the value is still
  // written, as for a binding without one).
  const format = this._format && formats.get(node)!.get(this)!
  const value = (this._deps._dep as Source).peek()
  this._write(node, format ? format(value) : value)
}

Binding.prototype.dispose = function (this: Binding) {
  // A method, unlike effect()'s dispose: `return binding.dispose` from an effect calls it on nothing, and
  // `setTimeout(binding.dispose)` or a listener on the window or an element.
  if (!this?._ref) fail('dispose() needs its binding: binding.dispose()')
  if (!(this._flags & WATCHING)) return
  this._flags = 0
  detach(this._deps)
  registry!.unregister(this)
  const node = this._ref.deref()
  if (node) {
    formats.get(node)?.delete(this)
    if (this._listener) {
      for (const type of [this._arg, ...composition]) node.removeEventListener(type, this._listener)
      stale.add(node)
    }
  }
  // A disposed binding kept by the user must not keep its source (nor, through the listener, a model's).
  this._deps = this._listener = undefined!
  composing.delete(this)
}

Binding.prototype[disposeKey] = Binding.prototype.dispose

// Keeps the binding map alive (see keepAlive in graph.ts).
keepAlive.push(new (Binding as any)(keepAlive, keepAlive))

// The model bindings whose field an input method composes in, which their renders leave alone (see the model
// listener), with the field's text at its last step: a script's `el.value =`, which ends a composition with no
// event, voids the mark. A field removed mid-composition gets no 'compositionend' either, but loses focus:
// 'focusout' clears it. By binding, not by field: one made on the field mid-composition (a form showing the next
// record) renders into it, and disposing one of two leaves the other's.
const composing = new WeakMap<Binding, string>()
// The events a model's listener hears besides its own: 'input' for a 'change' model too, which marks a composition
// (the same listener added twice for one type is added once).
const composition = ['input', 'compositionend', 'focusout']
// The fields whose model binding was disposed and that no model binding has rendered into since: they show the record
// the disposed one showed, so a binding on one that has not rendered yet (a form showing the next record, bound
// before or after the old one goes) writes nothing back until its first render (an event before it, with a later
// schedule, wrote the old record's text into the new one). One that has rendered goes on listening.
const stale = new WeakSet<Node>()
const rendered = new WeakSet<Binding>()

const text = (value: unknown): string => (value == null ? '' : String(value))

function writeText(this: Binding, node: Node, value: unknown): void {
  // Shown already only by an element with no element inside: one whose text came from a child element (a server's
  // `<a href="/u/1">Ada</a>` bound to 'Ada') kept it, and showed a link (or an image, for '') that a write away and
  // back took out. Text split by comments (a server's `Ada <!-- -->Lovelace`) still shows the value.
  if (node.textContent != (value = text(value)) || (node as Element).firstElementChild)
    node.textContent = value as string
}

function writeProperty(this: Binding, node: any, value: unknown): void {
  const shown = node[this._arg]
  // A string property holds what it is given as a string (40 as '40'): that is shown already. Not null or
  // undefined, which some properties turn into ''.
  if (shown !== (value != null && typeof shown == 'string' ? text(value) : value)) node[this._arg] = value
}

// A URL property reads back resolved ('/a' as 'http://host/a'): it shows the value already when it is the value, or
// when the attribute it reflects holds its text (compared with the property alone, every render rewrote it, and an
// <iframe> reloaded).
function writeUrl(this: Binding, el: any, value: unknown): void {
  // No attribute shows '' (an <a> without href stays a placeholder, an <img> requests nothing).
  if ((el.getAttribute(this._arg) ?? '') !== String(value)) el[this._arg] = value
}

// A document's location reads back as a Location object: it shows the value when its address is the value resolved
// against the document (assigned at every render, it navigated at the first, reloading the page it already showed).
// That address is what is assigned: assigned as given, a frame's was resolved against the window running this code.
function writeLocation(this: Binding, doc: Document, value: unknown): void {
  const url = new URL(String(value), doc.baseURI).href
  const at = doc.location
  // No location: the document of a frame since removed, written silently like its other nodes (assigned, it threw).
  if (at && at.href != url) (doc as any)[this._arg] = urlOnly(url)
}

// A TrustedScriptURL (Trusted Types) is written as it is: where Trusted Types are enforced, <embed src> and <object
// data> refuse a string. `urlOnly` checks its toString(), which gives its text unless page code shadows it (code that
// could as well set the attribute itself). Not where `trustedTypes` has no isScriptURL (the "tinyfill"
// `{ createPolicy: (name, rules) => rules }` of browsers without Trusted Types).
// Only objects are looked at: an attribute's every render of a string or number skips the global lookup.
const trustedUrl = (value: unknown): boolean | undefined =>
  typeof value == 'object' && (globalThis as any).trustedTypes?.isScriptURL?.(value)

function writeAttribute(this: Binding, el: Element, value: unknown): void {
  if (value == null || value === false) el.removeAttribute(this._arg)
  else if (el.getAttribute(this._arg) != (value = value === true ? '' : trustedUrl(value) ? value : String(value)))
    el.setAttribute(this._arg, value as string)
}

function writeClass(this: Binding, el: Element, value: unknown): void {
  if (el.classList.contains(this._arg) != !!value) el.classList.toggle(this._arg)
}

function writeStyle(this: Binding, el: HTMLElement, value: unknown): void {
  // A length refuses a bare number (width: 40), silently: it gets px, as in React. A number the property takes as it
  // is (opacity, z-index, line-height) stays as it is, and so does any number in a custom property ('--x') or
  // where there is no CSS.supports to ask (jsdom; happy-dom's says yes to everything).
  if (typeof value == 'number' && this._arg[1] != '-' && globalThis.CSS && !CSS.supports(this._arg, '' + value))
    value = value + 'px'
  if (el.style.getPropertyValue(this._arg) != (value = value === false ? '' : text(value)))
    el.style.setProperty(this._arg, value as string)
}

function writeHtml(this: Binding, el: Element, value: unknown): void {
  // `value` is the sanitizer's output (see bind).
  if (el.innerHTML != value) el.innerHTML = value as string
}

function writeModel(this: Binding, el: HTMLInputElement, value: unknown): void {
  const type = el.type
  // The value this field wrote itself: what it shows now is newer (keys typed in a 'change' field after its 'change',
  // before a later schedule's render, were wiped by the text committed before them). Not for a select, which has no
  // keys typed after its pick and whose options may have been re-rendered since; not `undefined`, the no-record
  // value (a signal holding it, from untyped data, must blank the field).
  const own = type != 'select-one' && value !== undefined && Object.is(this._wrote, value)
  this._wrote = undefined
  stale.delete(el)
  rendered.add(this)
  if (type == 'checkbox') {
    // An array: the values of the boxes checked (a group of checkboxes on one signal, as Vue's v-model).
    const on = Array.isArray(value) ? value.includes(el.value) : !!value
    if (el.checked != on) el.checked = on
  } else if (type == 'radio') {
    if (el.checked != shows(el, value)) el.checked = !el.checked
  } else if (type == 'select-multiple') {
    // The selected options' values: an array (a single value selects one option; null or undefined, none).
    const values = ([] as unknown[]).concat(value ?? []).map(text)
    for (const o of (el as unknown as HTMLSelectElement).options)
      if (o.selected != values.includes(o.value)) o.selected = !o.selected
  } else if (!own && (!composing.has(this) || composing.get(this) !== el.value) && !shows(el, value)) {
    // An array as it is: a form-associated custom element's value can be one (a multi-select); a native field's
    // setter makes the same text of it.
    el.value = Array.isArray(value) ? (value as any) : text(value)
    // A select bound to a number: no option valued as its text, then the first that reads as it ('1.50' for 1.5,
    // '' for NaN).
    if (type == 'select-one' && typeof value == 'number' && (el as any).selectedIndex < 0)
      (el as any).selectedIndex = [...(el as any).options].findIndex((o) => (o.value ? +o.value === value : value !== value))
  }
}

// Whether a field (or a radio's or option's value) shows `value`: a number when its text reads as it, so a partial
// '-' or '1.' the user is typing is never rewritten under the cursor ('' reads as 0); anything else as text.
const shows = (el: HTMLInputElement, value: unknown): boolean =>
  typeof value == 'number' ? Object.is(numberOf(el), value) : el.value == text(value)

// A field's text as a number: NaN where the browser reports a partial entry it cannot read (an <input
// type=number> holding '-' or '1e' reads as '', which is 0), and for a select's option or a radio valued '' (a
// placeholder: read as 0, it stayed selected for 0, and picking it wrote 0; as NaN, picking it writes NaN, which
// keeps it).
const numberOf = (el: HTMLInputElement): number =>
  el.validity?.badInput ? NaN : /^(select-one|radio)$/.test(el.type) ? read(el) : +el.value

// An option's or a radio's value as a number; '' (a placeholder) as NaN.
const read = (o: { value: string }): number => (o.value ? +o.value : NaN)

function fail(message: string): never {
  throw new TypeError('bind: ' + message)
}

// A property, attribute, class or style name: a non-empty string without spaces (undefined would be written as
// "undefined"; classList and setAttribute would throw at every render for 'a b'), nor what `bad` finds.
function named(name: unknown, bad = /\s/): string {
  if (typeof name != 'string' || !name || bad.test(name))
    fail('expected a name, got ' + (typeof name == 'string' ? `"${name}"` : kind(name)))
  return name
}

// Property and attribute names that would turn a value into code: event handlers and HTML parsing sinks, and what
// `also` finds, the names that are sinks on this node only (see bind).
function sinkless(name: unknown, bad?: RegExp, also?: RegExp | false): string {
  if (/^on|^((inner|outer)html|srcdoc)$/i.test(named(name, bad)) || (also && also.test(name as string)))
    fail(`refusing script sink "${name}"`)
  return name as string
}

/** `format` (if any), then `then`. */
const after =
  (format: ((value: unknown) => unknown) | undefined, then: (value: unknown) => unknown) =>
  (value: unknown): unknown =>
    then(format ? format(value) : value)

// A node whose content is script source: a <script>, or a Text node in one. An Attr node is refused as well:
// its name (onclick, href) is only known to the element it is attached to, maybe later. By localName: a prefixed
// <x:script> or <svg:script> (nodeName 'X:SCRIPT', 'svg:script') runs as well.
function scriptless(node: Node): void {
  if (node.nodeType == 2) fail('refusing an Attr node')
  // An element is checked itself; any other node (Text, Comment) by its parent.
  if (/^script$/i.test(((node.nodeType == 1 ? node : node.parentNode) as Element | null)?.localName!))
    fail('refusing a <script> node')
}

// A URL a browser would run as script: the URL parser drops leading controls and spaces, and tabs and newlines
// anywhere. Checked on every write to a URL attribute or property (see `bind`); the render reports the error.
// Returns the string it checked (an object could stringify differently when the DOM converts it again), a
// TrustedScriptURL as it is, and null, undefined and booleans as they are (an attribute binding removes or empties
// the attribute for them).
function urlOnly(value: unknown): unknown {
  if (value == null || typeof value == 'boolean') return value
  const url = String(value)
  if (/^[\0- ]*javascript:/i.test(url.replace(/[\t\n\r]/g, ''))) fail('refusing a javascript: URL')
  return trustedUrl(value) ? value : url
}

/** @internal `Signal.prototype.bind`: validates everything first, so a bad call changes nothing. */
export function bind(this: Source, node: Node, target?: BindTarget<any>): Binding {
  // Taken off its signal (`nodes.forEach(s.bind)`): named here, not "reading '_flags' of undefined" further down.
  if (!this) fail('needs its signal: s.bind(node)')
  if (typeof (node as Node | null)?.nodeType != 'number') fail('expected a DOM Node, got ' + kind(node))
  scriptless(node)
  let writer: Writer = writeText
  let arg: unknown
  let format: ((value: unknown) => unknown) | undefined
  // On a node with an `href` (a link), every part of the URL it sets: `protocol` set to 'javascript' turns the whole
  // href into a script URL, `search` appends to one such as 'javascript:void(0)', `pathname` ('/%0Aalert(1)') to one
  // such as 'javascript://x/', and the others are refused as well.
  if (typeof target == 'string')
    (arg = sinkless(target, undefined, 'href' in node && /^(protocol|search|hash|pathname|host(name)?|port|username|password)$/i)),
      (writer = writeProperty)
  else if (target !== undefined) {
    const t = target as Record<string, any>
    if (t?.format !== undefined) format = expectFunction(t.format, 'format')
    if (typeof t != 'object' || !t) fail('unknown target ' + kind(t))
    // No attribute name holds '/', '=', '>' or NUL (setAttribute throws at every render); a style name is written
    // with dashes (style.setProperty ignores 'backgroundColor', silently), unless it is a custom property ('--x').
    // An SVG animation sets the attribute it names to its values, an `href` to a javascript: URL as well.
    else if ('attr' in t) {
      arg = sinkless(t.attr, /[\s\0/=>]/, /^(set|animate\w*)$/i.test((node as Element).localName) && /^(to|from|by|values|attributename)$/i)
      writer = writeAttribute
      // An ARIA state that takes "true" and "false" is no HTML boolean attribute: aria-expanded="" reads as unset,
      // and so does no attribute (a closed menu button would not say it is closed). Not the other aria-*
      // attributes, where false still removes (aria-label="false" would be read out).
      if (/^aria-(atomic|busy|checked|current|disabled|expanded|grabbed|haspopup|hidden|invalid|modal|multi(line|selectable)|pressed|readonly|required|selected)$/i.test(arg as string))
        format = after(format, (v) => (typeof v == 'boolean' ? String(v) : v))
    }
    else if ('class' in t) (arg = named(t.class)), (writer = writeClass)
    else if ('style' in t) (arg = named(t.style, /\s|^(?!--).*[a-z][A-Z]/)), (writer = writeStyle)
    // The sanitizer joins the format, held as the format is (see `formats`): writeHtml gets the sanitized HTML.
    else if ('html' in t) {
      const sanitize = expectFunction(t.sanitize, 'sanitize')
      format = after(format, (v) => sanitize(text(v)))
      writer = writeHtml
    }
    else if ('model' in t) {
      arg = t.model
      if (arg != 'input' && arg != 'change') fail("model needs 'input' or 'change'")
      // Not two-way with a format (the types say so too): the field would show formatted text and write it back raw.
      if (format) fail('unknown target object')
      if (this._flags & COMPUTED) fail('model needs a Signal')
      // Not a file input: its value is a fake path, which a script can only clear. A form-associated custom element
      // (`static formAssociated = true`) is a field too: its `value` is read at its event and written at each render,
      // as a text field's. A field's name alone is not enough: `<svg><input></svg>` parses to an SVG element, which
      // has no `value` (nothing would ever be read).
      const file = (node as HTMLInputElement).type == 'file'
      if (!((/^(input|textarea|select)$/i.test(node.nodeName) && 'value' in node) || (node.constructor as any).formAssociated) || file)
        fail('model needs a form field, got ' + (file ? 'a file input' : node.nodeName))
      writer = writeModel
    } else if (!format) fail('unknown target object')
    // Only the keys of its kind (and `format`): a misspelt one (`{ attr, fromat }`, `{ attribute, format }`), two kinds
    // in one object (`{ class, html, sanitize }`) or `html: false` would otherwise be ignored, silently.
    if (Object.keys(t).length != +('format' in t) + (writer == writeHtml ? 2 * +(t.html === true) : +(writer != writeText)))
      fail('unknown target object')
    if (writer != writeText && node.nodeType != 1) fail('expected an Element, got ' + node.nodeName)
    // An element of no HTML, SVG or MathML namespace has no `style`: each render would throw the engine's TypeError.
    if (writer == writeStyle && !(node as HTMLElement).style) fail('style needs a styled element, got ' + node.nodeName)
  }
  // `location`: a Document's (setting it navigates, to a javascript: URL too). Only a property of an Element or a
  // Document (nodeType 1 or 9; a Text node's `data` is its text) or an attribute is a URL: not a class or style name.
  // An XLink href under any prefix: setAttribute('l:href') sets one an XML parser made with xmlns:l.
  if (
    (writer == writeAttribute || (writer == writeProperty && node.nodeType % 8 == 1)) &&
    /(^|:)href$|^src$|^(form)?action$|^data$|^location$/i.test(arg as string)
  ) {
    // A custom element's property (its name has a '-') that does not hold a string gets arrays and objects as they
    // are, not as strings; a string is checked all the same. Not a native element's: a form's `action` reads as a
    // control named action, and its setter still makes a URL of what it gets.
    const custom = writer == writeProperty && /-/.test((node as Element).localName)
    const loose = custom && typeof (node as any)[arg as string] != 'string'
    // A native element's URL property, compared through its attribute (a custom element's property need not write
    // its attribute back: Lit's do not, so it would never be rewritten to what the attribute holds); a document's
    // `location`, which has none, through its address.
    if (writer == writeProperty && !custom) writer = node.nodeType == 9 ? writeLocation : writeUrl
    format = after(format, (v) => (loose && typeof v != 'string' ? v : urlOnly(v)))
  }
  // Text in a node that shows none (a Comment, a processing instruction), or that has none to set (a Document, a
  // doctype: their textContent is null, and setting it does nothing) would be written for nothing, silently. The
  // comment marker after an empty server-rendered text is one (README: "Taking over server-rendered HTML").
  if (writer == writeText && node.nodeType > 6 && node.nodeType < 11) fail('expected an Element or a Text node, got ' + node.nodeName)
  // A computed is validated before it is linked: a connected computed's flags must be exact.
  if (this._flags & COMPUTED) {
    try {
      readComputed(this, false)
    } catch {
      // Its error is cached; the render reports it.
    }
  }
  const b: Binding = new (Binding as any)(this, node, writer, arg, !!format)
  if (format) {
    let own = formats.get(node)
    if (!own) formats.set(node, (own = new WeakMap()))
    own.set(b, format)
  }
  if (writer == writeModel) {
    const source = this
    b._listener = (event) => {
      const el = event.currentTarget as HTMLInputElement
      if (stale.has(el) && !rendered.has(b)) return
      // Not while an input method composes (Chinese, Japanese, Korean...): its text is not typed yet, and a render
      // of a normalized value would cut the composition off. Its end ('compositionend') writes the result. Nor is a
      // render written then (writeModel): one still pending from the last composition's end ('animationFrame', a
      // macrotask schedule) would wipe the next one, which a Korean input method starts in the same keystroke.
      // A composition's first 'input' comes in the task of its start, before any render.
      if ((event as InputEvent).isComposing) return void composing.set(b, el.value)
      composing.delete(b)
      // Written at its own event; with 'input', also at a composition's end (not with 'change': its 'change' comes).
      if (event.type != arg && (arg != 'input' || event.type != 'compositionend')) return
      const v = source._value
      if (el.type == 'checkbox')
        write(source, Array.isArray(v) ? v.filter((x) => x != el.value).concat(el.checked ? [el.value] : []) : el.checked)
      else if (el.type == 'select-multiple')
        write(source, [...(el as unknown as HTMLSelectElement).selectedOptions].map((o) => o.value))
      else if (el.type != 'radio' || el.checked)
        write(source, (b._wrote = typeof v == 'number' ? numberOf(el) : el.value)),
          // No render queued (an equal write, the binding not queued already): no record to outlive it.
          b._flags & PENDING || (b._wrote = undefined)
    }
    for (const type of [arg as string, ...composition]) node.addEventListener(type, b._listener)
  }
  ;(registry ??= new FinalizationRegistry(drop)).register(node, new WeakRef(b), b)
  attach(b._deps)
  enqueue(b)
  try {
    settle()
  } catch (error) {
    // What the flush posted here threw (a render, with a schedule that flushes at once, or the schedule itself), without
    // reportError: the caller gets no Binding to dispose, so none is left running (as with effect()).
    rethrowAfter(error, () => b.dispose())
  }
  return b
}

export type { Binding }
