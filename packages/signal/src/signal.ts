import { enqueue, type RenderJob } from './render.ts'

/** A reactive value. Writing `.value` schedules a coalesced render of every binding. */
declare class Signal<T = unknown> {
  constructor(value: T)
  /** The current value; writing it re-renders bound nodes at the next microtask checkpoint. */
  value: T
  /** Binds the value to `node`'s text; renders are coalesced. */
  bind(node: Node): Binding
  /** @internal */ _value: T
  /** @internal */ _bindings: TextBinding[]
}

/** A one-way link from a signal to a DOM node. */
export interface Binding {
  /** Stops rendering into the node. */
  dispose(): void
}

interface TextBinding extends RenderJob {
  _signal: Signal<any>
  _node: Node
}

// Signal is a constructor function with methods on its prototype rather than an ES class: the
// minified output is smaller and property access stays monomorphic (the approach of @preact/signals-core).
function Signal<T>(this: Signal<T>, value: T) {
  this._value = value
  this._bindings = []
}

Object.defineProperty(Signal.prototype, 'value', {
  get(this: Signal) {
    return this._value
  },
  set(this: Signal, value: unknown) {
    if (Object.is(value, this._value)) return
    this._value = value
    const bindings = this._bindings
    for (let i = 0; i < bindings.length; i++) enqueue(bindings[i]!)
  },
})

function renderText(this: TextBinding) {
  const v = this._signal._value
  const text = v == null ? '' : String(v)
  if (this._node.textContent !== text) this._node.textContent = text
}

Signal.prototype.bind = function (this: Signal, node: Node): Binding {
  if (!(node instanceof Node)) throw new TypeError(`bind: expected a DOM Node, got ${typeof node}`)
  const binding: TextBinding = { _queued: false, _render: renderText, _signal: this, _node: node }
  this._bindings.push(binding)
  enqueue(binding)
  return {
    dispose: () => {
      const i = this._bindings.indexOf(binding)
      if (i >= 0) this._bindings.splice(i, 1)
    },
  }
}

export { Signal }
