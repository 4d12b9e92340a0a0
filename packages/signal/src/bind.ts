// DOM bindings: one-way (and, with `model`, two-way) links from a signal or computed to a node. A binding is a
// leaf of the graph flagged RENDER: a change queues it on the shared render queue (render.ts) once, and the
// flush writes the latest value, only if the DOM does not already show it.
//
// Security: text goes through textContent (never parsed as HTML); HTML only through the caller's sanitizer;
// no binding writes an event-handler attribute or property (on*), innerHTML/outerHTML/srcdoc, or into a <script>.
import { COMPUTED, PENDING, RENDER, WATCHING } from './flags.ts'
import { attach, detach, readComputed, write, type Link, type ReactiveNode } from './graph.ts'
import { enqueue } from './render.ts'
import { expectFunction, kind } from './errors.ts'
import { disposeKey } from './effect.ts'

/** Where `.bind(node, target)` writes: a property name, or one of these objects (text when omitted). */
export type BindTarget<T> =
  | ReadonlyBindTarget<T>
  /** Two-way: the DOM event writes the element's value (checked for a checkbox) back into the signal. */
  | { model: 'input' | 'change' }

/** The one-way targets (a computed cannot be bound two-way). `format` maps the value before it is written. */
export type ReadonlyBindTarget<T> =
  | string
  | { format: (value: T) => unknown }
  | { attr: string; format?: (value: T) => unknown }
  | { class: string; format?: (value: T) => unknown }
  | { style: string; format?: (value: T) => unknown }
  | { html: true; sanitize: (html: string) => string; format?: (value: T) => unknown }

type Source = ReactiveNode & { peek(): unknown }
type Writer = (this: Binding, node: any, value: unknown) => void

/** A live link from a signal to a DOM node; `dispose()` (or `using`) removes it. Holds the node weakly. */
declare class Binding {
  /** Stops rendering (and, for `model`, listening); the node is left as it is. */
  dispose(): void
  /** Same as `dispose()`, for `using`. */
  [Symbol.dispose](): void
  /** @internal */ _flags: number
  /** @internal */ _deps: Link
  /** @internal */ _source: Source
  /** @internal */ _ref: WeakRef<Node>
  /** @internal */ _write: Writer
  /** @internal */ _name: string
  /** @internal */ _format: ((value: unknown) => unknown) | undefined
  /** @internal */ _sanitize: ((html: string) => string) | undefined
  /** @internal */ _listener: ((event: Event) => void) | undefined
  /** @internal */ _render(): void
}

// Drops a binding whose node was garbage-collected, even if its signal never changes again. Created lazily.
let registry: FinalizationRegistry<Binding> | undefined

// Prototype-based like Signal (see signal.ts): smaller and faster than a class.
function Binding(
  this: Binding,
  source: Source,
  node: Node,
  writer: Writer,
  name: string,
  format: Binding['_format'],
  sanitize: Binding['_sanitize'],
): void {
  this._flags = WATCHING | RENDER | PENDING
  this._source = source
  this._ref = new WeakRef(node)
  this._write = writer
  this._name = name
  this._format = format
  this._sanitize = sanitize
  this._listener = undefined
  this._deps = {
    _dep: source,
    _sub: this as unknown as ReactiveNode,
    _version: 0,
    _prevDep: undefined,
    _nextDep: undefined,
    _prevSub: undefined,
    _nextSub: undefined,
  }
}

Binding.prototype._render = function (this: Binding) {
  const flags = this._flags
  if (!(flags & WATCHING)) return
  this._flags = flags & ~PENDING
  const node = this._ref.deref()
  if (node === undefined) return this.dispose()
  let value = this._source.peek()
  if (this._format !== undefined) value = this._format(value)
  this._write(node, value)
}

Binding.prototype.dispose = function (this: Binding) {
  if (!(this._flags & WATCHING)) return
  this._flags = 0
  detach(this._deps)
  registry?.unregister(this)
  const node = this._listener && this._ref.deref()
  if (node) node.removeEventListener(this._name, this._listener!)
}

Binding.prototype[disposeKey] = Binding.prototype.dispose

const text = (value: unknown): string => (value == null ? '' : String(value))

function writeText(this: Binding, node: Node, value: unknown): void {
  const s = text(value)
  if (node.textContent !== s) node.textContent = s
}

function writeProperty(this: Binding, node: any, value: unknown): void {
  if (node[this._name] !== value) node[this._name] = value
}

function writeAttribute(this: Binding, el: Element, value: unknown): void {
  const name = this._name
  if (value == null || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name)
  } else {
    const s = value === true ? '' : String(value)
    if (el.getAttribute(name) !== s) el.setAttribute(name, s)
  }
}

function writeClass(this: Binding, el: Element, value: unknown): void {
  if (el.classList.contains(this._name) !== !!value) el.classList.toggle(this._name, !!value)
}

function writeStyle(this: Binding, el: HTMLElement, value: unknown): void {
  const s = value === false ? '' : text(value)
  if (el.style.getPropertyValue(this._name) !== s) el.style.setProperty(this._name, s)
}

function writeHtml(this: Binding, el: Element, value: unknown): void {
  const html = this._sanitize!(text(value))
  if (el.innerHTML !== html) el.innerHTML = html
}

function writeModel(this: Binding, el: HTMLInputElement, value: unknown): void {
  const type = el.type
  if (type === 'checkbox') {
    if (el.checked !== !!value) el.checked = !!value
  } else if (type === 'radio') {
    const on = el.value === text(value)
    if (el.checked !== on) el.checked = on
  } else if (el.value !== text(value)) el.value = text(value)
}

function fail(message: string): never {
  throw new TypeError('bind: ' + message)
}

function named(name: unknown): string {
  if (typeof name !== 'string') fail(`expected a name, got ${kind(name)}`)
  return name
}

// Property and attribute names that would turn a value into code: event handlers, HTML parsing sinks.
function sinkless(name: unknown): string {
  if (/^on|^(inner|outer)html$|^srcdoc$/i.test(named(name))) fail(`refusing script sink "${name}"`)
  return name as string
}

/** @internal `Signal.prototype.bind`: validates everything first, so a bad call changes nothing. */
export function bind(this: Source, node: Node, target?: BindTarget<unknown>): Binding {
  if (typeof (node as Node | null)?.nodeType !== 'number') fail(`expected a DOM Node, got ${kind(node)}`)
  if (/^script$/i.test(node.nodeName)) fail('refusing a <script> node')
  let writer: Writer = writeText
  let name = ''
  let format: Binding['_format']
  let sanitize: Binding['_sanitize']
  if (typeof target === 'string') {
    name = sinkless(target)
    writer = writeProperty
  } else if (target !== undefined) {
    if (target === null || typeof target !== 'object') fail(`unknown target ${kind(target)}`)
    const t = target as Record<string, any>
    if (t.format !== undefined) format = expectFunction(t.format, 'format')
    if ('attr' in t) (name = sinkless(t.attr)), (writer = writeAttribute)
    else if ('class' in t) (name = named(t.class)), (writer = writeClass)
    else if ('style' in t) (name = named(t.style).replace(/[A-Z]/g, '-$&').toLowerCase()), (writer = writeStyle)
    else if ('html' in t) (sanitize = expectFunction(t.sanitize, 'sanitize')), (writer = writeHtml)
    else if ('model' in t) {
      name = t.model
      if (name !== 'input' && name !== 'change') fail(`model expects 'input' or 'change', got ${kind(name)}`)
      if (this._flags & COMPUTED) fail('model needs a writable Signal, got a computed')
      if (!/^(input|textarea|select)$/i.test(node.nodeName)) fail(`model needs an input, textarea or select, got ${node.nodeName}`)
      writer = writeModel
    } else if (!('format' in t)) fail('unknown target, expected a property name or { attr | class | style | html | model | format }')
    if (writer !== writeText && node.nodeType !== 1) fail(`expected an Element, got ${node.nodeName}`)
  }
  // A computed is validated before it is linked: a connected computed's flags must be exact.
  if (this._flags & COMPUTED) {
    try {
      readComputed(this, false)
    } catch {
      // Its error is cached; the render reports it.
    }
  }
  const b = new (Binding as any)(this, node, writer, name, format, sanitize) as Binding
  if (writer === writeModel) {
    const source = this
    b._listener = (event) => {
      const el = event.currentTarget as HTMLInputElement
      if (el.type === 'checkbox') write(source, el.checked)
      else if (el.type !== 'radio' || el.checked)
        write(source, typeof source._value === 'number' ? Number(el.value) : el.value)
    }
    node.addEventListener(name, b._listener)
  }
  ;(registry ??= new FinalizationRegistry((binding) => binding.dispose())).register(node, b, b)
  attach(b._deps)
  enqueue(b)
  return b
}

export type { Binding }
