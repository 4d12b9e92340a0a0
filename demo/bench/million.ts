/**
 * The talk's benchmark (seed 000): 3 signals bound to 3 paragraphs, N writes to each, measured from the
 * first write until the DOM shows the last value. Each mode has its own object shape and its own loop so
 * that no mode's inline caches are polluted by another's.
 */
import { Signal, flush, type Binding } from '@eddy/signal'
import type { MillionMode, MillionRun } from './api.ts'

type Paragraphs = [HTMLElement, HTMLElement, HTMLElement]

/** The talk's first Signal: every write re-renders through innerHTML, synchronously. */
class InnerHTMLSignal {
  constructor(
    private el: HTMLElement,
    private v: number,
  ) {}
  get value(): number {
    return this.v
  }
  set value(v: number) {
    this.v = v
    this.el.innerHTML = `${v}`
  }
}

/** The same, through textContent (no HTML parser): what a careful per-write renderer does. */
class TextContentSignal {
  constructor(
    private el: HTMLElement,
    private v: number,
  ) {}
  get value(): number {
    return this.v
  }
  set value(v: number) {
    this.v = v
    this.el.textContent = `${v}`
  }
}

/**
 * The hand-written reference for coalescing: a dirty flag per cell, ONE shared queue, ONE queueMicrotask
 * per checkpoint. This is the least a render-coalescing library can do; eddy is measured against it.
 */
class Cell {
  dirty = false
  constructor(
    private el: HTMLElement,
    private v: number,
  ) {}
  get value(): number {
    return this.v
  }
  set value(v: number) {
    if (v === this.v) return
    this.v = v
    if (this.dirty) return
    this.dirty = true
    if (pending.push(this) === 1) queueMicrotask(flushCells)
  }
  render(): void {
    this.dirty = false
    this.el.textContent = `${this.v}`
  }
}
const pending: Cell[] = []
function flushCells(): void {
  for (let i = 0; i < pending.length; i++) pending[i]!.render()
  pending.length = 0
}

/** The floor: plain property writes on plain objects, then the final values written to the DOM once. */
interface Plain {
  value: number
}
const sink: Plain[] = []

function innerHTMLWrites(ps: Paragraphs, n: number): () => void {
  const a = new InnerHTMLSignal(ps[0], 0)
  const b = new InnerHTMLSignal(ps[1], 0)
  const c = new InnerHTMLSignal(ps[2], 0)
  return () => {
    for (let i = 1; i <= n; i++) {
      a.value = i
      b.value = i
      c.value = i
    }
  }
}

function textContentWrites(ps: Paragraphs, n: number): () => void {
  const a = new TextContentSignal(ps[0], 0)
  const b = new TextContentSignal(ps[1], 0)
  const c = new TextContentSignal(ps[2], 0)
  return () => {
    for (let i = 1; i <= n; i++) {
      a.value = i
      b.value = i
      c.value = i
    }
  }
}

/** The bindings of the last eddy run, released before the next one binds the same paragraphs. */
let eddyBindings: Binding[] = []

function eddyWrites(ps: Paragraphs, n: number): () => void {
  for (const binding of eddyBindings) binding.dispose()
  const a = new Signal(0)
  const b = new Signal(0)
  const c = new Signal(0)
  eddyBindings = [a.bind(ps[0]), b.bind(ps[1]), c.bind(ps[2])]
  flush() // the initial render happens before the clock starts
  return () => {
    for (let i = 1; i <= n; i++) {
      a.value = i
      b.value = i
      c.value = i
    }
  }
}

function handWrittenWrites(ps: Paragraphs, n: number): () => void {
  const a = new Cell(ps[0], 0)
  const b = new Cell(ps[1], 0)
  const c = new Cell(ps[2], 0)
  return () => {
    for (let i = 1; i <= n; i++) {
      a.value = i
      b.value = i
      c.value = i
    }
  }
}

function plainWrites(ps: Paragraphs, n: number): () => void {
  const a: Plain = { value: 0 }
  const b: Plain = { value: 0 }
  const c: Plain = { value: 0 }
  sink.length = 0
  sink.push(a, b, c) // escapes, so the writes cannot be optimised away
  return () => {
    for (let i = 1; i <= n; i++) {
      a.value = i
      b.value = i
      c.value = i
    }
    ps[0].textContent = `${a.value}`
    ps[1].textContent = `${b.value}`
    ps[2].textContent = `${c.value}`
  }
}

const setups: Record<MillionMode, (ps: Paragraphs, n: number) => () => void> = {
  innerHTML: innerHTMLWrites,
  textContent: textContentWrites,
  eddy: eddyWrites,
  handWritten: handWrittenWrites,
  plain: plainWrites,
}

export const millionModes = Object.keys(setups) as MillionMode[]

function paragraphs(): Paragraphs {
  const ps = ['p1', 'p2', 'p3'].map((id) => document.getElementById(id)) as HTMLElement[]
  for (const p of ps) p.textContent = ''
  return ps as Paragraphs
}

function check(mode: MillionMode, n: number): void {
  if (!(mode in setups)) throw new TypeError(`million: unknown mode ${String(mode)}`)
  if (!Number.isInteger(n) || n < 1) throw new TypeError(`million: writesPerSignal must be a positive integer, got ${n}`)
}

/** Measures one mode once. The clock stops after the microtask checkpoint, so coalesced renders are included. */
export async function runMillion(mode: MillionMode, n: number): Promise<MillionRun> {
  check(mode, n)
  const ps = paragraphs()
  const body = setups[mode](ps, n)
  await null // settle anything the setup scheduled before the clock starts
  // A full GC first (Chromium runs with --js-flags=--expose-gc here): no mode pays for the garbage of the one before.
  ;(globalThis as { gc?: () => void }).gc?.()
  const t0 = performance.now()
  body()
  // Any render the writes queued with queueMicrotask was queued before this await, so it has run when we resume.
  await null
  const ms = performance.now() - t0
  return { mode, writesPerSignal: n, ms, texts: ps.map((p) => p.textContent ?? '') }
}

/** Runs a mode untimed and counts the DOM writes (mutation records) it made to the paragraphs. */
export async function countDomWrites(mode: MillionMode, n: number): Promise<number> {
  check(mode, n)
  const ps = paragraphs()
  const body = setups[mode](ps, n)
  await null
  let records = 0
  const observer = new MutationObserver((list) => (records += list.length))
  for (const p of ps) observer.observe(p, { childList: true, characterData: true, subtree: true })
  body()
  await null
  records += observer.takeRecords().length // records not yet delivered to the callback
  observer.disconnect()
  return records
}
