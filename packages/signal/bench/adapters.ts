/**
 * One small adapter per reactive library, so the same benchmark cases run on each of them.
 *
 * Adapters hand out the library's own objects as opaque handles and do reads and writes through
 * `read`/`write`, instead of wrapping every signal in a `{ get, set }` object: the creation cases
 * then measure the library's allocation, not the wrapper's. Every adapter pays the same single
 * indirection per read and write. No Node-only imports here: a browser page imports this module too.
 *
 * The eddy adapter lives in ./eddy.ts.
 */
import * as alien from 'alien-signals'
import * as preact from '@preact/signals-core'
import * as vue from '@vue/reactivity'

declare const sigBrand: unique symbol
declare const compBrand: unique symbol
/** A library's writable signal, opaque to the cases. */
export type Sig<T> = { readonly [sigBrand]: T }
/** A library's computed value, opaque to the cases. */
export type Comp<T> = { readonly [compBrand]: T }

export interface Adapter {
  /** Name in the report. */
  readonly name: string
  /**
   * True for the hand-written render reference: it implements only `signal`, `read`, `write`,
   * `bind` and `flush`, and runs only the cases that compare against it.
   */
  readonly reference: boolean
  signal<T>(value: T): Sig<T>
  computed<T>(fn: () => T): Comp<T>
  /** Reads a signal or a computed (tracked when inside a computed or an effect). */
  read<T>(node: Sig<T> | Comp<T>): T
  write<T>(signal: Sig<T>, value: T): void
  /** Runs `fn` now and again after each change of what it read; returns its disposer. */
  effect(fn: () => void): () => void
  batch(fn: () => void): void
  /**
   * Shows the signal's value as `el`'s text, the way an app on this library would;
   * returns the unbind function.
   */
  bind(signal: Sig<unknown>, el: Element): () => void
  /** Writes pending renders now (a no-op for libraries that render synchronously). */
  flush(): void
}

const noop = () => {}

/** The text a binding shows for a value: nullish as empty, everything else as String(). */
export const textOf = (v: unknown): string => (v == null ? '' : String(v))

const unsupported = (name: string) => () => {
  throw new Error(`${name}: not supported by this adapter`)
}

// Every adapter below lists its members in the same order, so the adapter objects share one
// hidden class and the cases' call sites stay as monomorphic as the different targets allow.

/** alien-signals 3.x: signals and computeds are functions, `s()` reads and `s(v)` writes. */
export const alienAdapter: Adapter = {
  name: 'alien-signals',
  reference: false,
  signal: (value) => alien.signal(value) as never,
  computed: (fn) => alien.computed(fn) as never,
  read: (node) => (node as unknown as () => never)(),
  write: (signal, value) => (signal as unknown as (v: unknown) => void)(value),
  effect: (fn) => alien.effect(fn),
  batch: (fn) => {
    alien.startBatch()
    try {
      fn()
    } finally {
      alien.endBatch()
    }
  },
  bind: (signal, el) => {
    const s = signal as unknown as () => unknown
    return alien.effect(() => {
      el.textContent = textOf(s())
    })
  },
  flush: noop,
}

type Box<T> = { value: T }

/** @preact/signals-core: `.value` reads and writes. */
export const preactAdapter: Adapter = {
  name: 'preact-signals',
  reference: false,
  signal: (value) => preact.signal(value) as never,
  computed: (fn) => preact.computed(fn) as never,
  read: (node) => (node as unknown as Box<never>).value,
  write: (signal, value) => {
    ;(signal as unknown as Box<unknown>).value = value
  },
  effect: (fn) => preact.effect(fn),
  batch: (fn) => preact.batch(fn),
  bind: (signal, el) => {
    const s = signal as unknown as Box<unknown>
    return preact.effect(() => {
      el.textContent = textOf(s.value)
    })
  },
  flush: noop,
}

// @vue/reactivity has no public batch (Vue's own scheduler does that job in an app). Effects here
// get a scheduler that runs them at once outside a batch, and queues them (once each) inside one;
// `dirty` is Vue's own check that a computed dependency really changed.
let vueBatchDepth = 0
const vueQueue: vue.ReactiveEffect[] = []
const vueQueued = new Set<vue.ReactiveEffect>()

function vueEffect(fn: () => void): () => void {
  const runner = vue.effect(fn, {
    scheduler() {
      const e = runner.effect
      if (vueBatchDepth === 0) {
        if (e.dirty) e.run()
      } else if (!vueQueued.has(e)) {
        vueQueued.add(e)
        vueQueue.push(e)
      }
    },
  })
  return () => vue.stop(runner)
}

/** @vue/reactivity 3.5: `shallowRef` for signals (no deep proxying, like the other libraries). */
export const vueAdapter: Adapter = {
  name: 'vue-reactivity',
  reference: false,
  signal: (value) => vue.shallowRef(value) as never,
  computed: (fn) => vue.computed(fn) as never,
  read: (node) => (node as unknown as Box<never>).value,
  write: (signal, value) => {
    ;(signal as unknown as Box<unknown>).value = value
  },
  effect: vueEffect,
  batch: (fn) => {
    vueBatchDepth++
    try {
      fn()
    } finally {
      if (--vueBatchDepth === 0) {
        // Effects queued while this loop runs are appended and run by the same loop.
        for (let i = 0; i < vueQueue.length; i++) {
          const e = vueQueue[i]!
          vueQueued.delete(e)
          if (e.dirty) e.run()
        }
        vueQueue.length = 0
      }
    }
  },
  bind: (signal, el) => {
    const s = signal as unknown as Box<unknown>
    return vueEffect(() => {
      el.textContent = textOf(s.value)
    })
  },
  flush: noop,
}

/** A signal of the hand-written reference: a value, its element and a dirty flag. */
interface RefCell {
  value: unknown
  el: Element | null
  /** Set while the cell sits in the render queue, so it is queued at most once per flush. */
  dirty: boolean
}

// The floor for coalesced rendering: no graph, no tracking; a write marks its cell dirty, a dirty
// cell joins ONE shared queue, and ONE queueMicrotask is scheduled when the queue becomes non-empty.
const refQueue: RefCell[] = []

function refFlush(): void {
  for (let i = 0; i < refQueue.length; i++) {
    const cell = refQueue[i]!
    cell.dirty = false
    if (cell.el !== null) cell.el.textContent = textOf(cell.value)
  }
  refQueue.length = 0
}

function refWrite(cell: RefCell, value: unknown): void {
  if (Object.is(cell.value, value)) return
  cell.value = value
  if (cell.el !== null && !cell.dirty) {
    cell.dirty = true
    if (refQueue.push(cell) === 1) queueMicrotask(refFlush)
  }
}

/** The hand-written reference for the "bound writes" case. */
export const handWrittenAdapter: Adapter = {
  name: 'hand-written',
  reference: true,
  signal: (value) => ({ value, el: null, dirty: false }) satisfies RefCell as never,
  computed: unsupported('hand-written computed'),
  read: (node) => (node as unknown as RefCell).value as never,
  write: (signal, value) => refWrite(signal as unknown as RefCell, value),
  effect: unsupported('hand-written effect'),
  batch: unsupported('hand-written batch'),
  bind: (signal, el) => {
    const cell = signal as unknown as RefCell
    cell.el = el
    el.textContent = textOf(cell.value)
    return () => {
      cell.el = null
    }
  },
  flush: refFlush,
}

/** The peers eddy is compared with, and the hand-written reference (eddy's adapter is in ./eddy.ts). */
export const peerAdapters: readonly Adapter[] = [alienAdapter, preactAdapter, vueAdapter]
