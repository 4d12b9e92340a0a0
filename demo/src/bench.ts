/**
 * The million-update benchmark from the talk: three paragraphs bound to three signals, each written N times in
 * one task, rendered two ways.
 *
 * - "Render on every write" is the talk's first signal, as written on stage: a class whose setter renders with
 *   `innerHTML` synchronously, so 3N writes are 3N HTML parses and DOM replacements in one blocking task.
 * - "Coalesced" is eddy: `Signal.bind` renders text, once per binding, in one shared microtask flush.
 */
import { flush, Signal, type Binding } from '@eddy/signal'
import { group } from './format.ts'

export type BenchMode = 'every-write' | 'coalesced'

export interface BenchResult {
  mode: BenchMode
  /** Updates per signal. */
  n: number
  /** From the first write to the DOM holding the last value. */
  ms: number
  /** DOM writes that really happened: innerHTML assignments, or MutationObserver records for eddy. */
  domWrites: number
  /** Whether every paragraph ended up showing the last value written. */
  correct: boolean
}

/** Writes per signal made, untimed, before a coalesced run. */
const WARM_UP = 20_000

/** Writes 1..n to each of three signals, in turn: a coalesced run's work. */
function writeAll(a: Signal<number>, b: Signal<number>, c: Signal<number>, n: number): void {
  for (let i = 1; i <= n; i++) {
    a.value = i
    b.value = i
    c.value = i
  }
}

/** Counts the talk signal's renders: a MutationObserver would queue 3N records (hundreds of MB) during the run. */
let talkRenders = 0

/**
 * The talk's signal, kept as it was on stage (an ES class with a getter/setter): every write renders at once.
 * It exists only to be measured against; eddy never renders like this.
 */
class TalkSignal {
  _el: Element
  _value: unknown
  constructor(el: Element, value: unknown) {
    this._el = el
    this._value = value
    this.render()
  }
  get value(): unknown {
    return this._value
  }
  set value(v: unknown) {
    this._value = v
    this.render()
  }
  render(): void {
    // The talk's render: data goes in as HTML. Slow, and an XSS sink (see the page's note).
    this._el.innerHTML = String(this._value)
    talkRenders++
  }
}

/** The three paragraphs of the benchmark. */
export class BenchTargets {
  readonly els: [HTMLElement, HTMLElement, HTMLElement]
  /** eddy's bindings, re-created for each coalesced run (the talk's renders replace the nodes under them). */
  private bindings: Binding[] = []
  constructor(els: [HTMLElement, HTMLElement, HTMLElement]) {
    this.els = els
  }

  /** The talk's version: N writes to each of 3 signals, each write rendered synchronously with innerHTML. */
  everyWrite(n: number): BenchResult {
    // Warm code here too, as for the coalesced run (below), on elements off the page: fewer writes, as each parses HTML.
    const warm = [0, 0, 0].map(() => new TalkSignal(document.createElement('p'), 0))
    for (let i = 1; i <= Math.min(n, 1000); i++) for (const s of warm) s.value = i
    const [a, b, c] = this.els.map((el) => new TalkSignal(el, 0)) as [TalkSignal, TalkSignal, TalkSignal]
    talkRenders = 0
    const start = performance.now()
    for (let i = 1; i <= n; i++) {
      a.value = i
      b.value = i
      c.value = i
    }
    const ms = performance.now() - start
    return { mode: 'every-write', n, ms, domWrites: talkRenders, correct: this.showLast(n) }
  }

  /** eddy: the same writes to 3 bound signals; the DOM is written once per paragraph at the next microtask. */
  async coalesced(n: number): Promise<BenchResult> {
    for (const b of this.bindings) b.dispose()
    const [a, b, c] = this.els.map(() => new Signal(0)) as [Signal<number>, Signal<number>, Signal<number>]
    this.bindings = [a.bind(this.els[0]), b.bind(this.els[1]), c.bind(this.els[2])]
    // The same writes, untimed, to bindings of elements off the page, so that the timed ones run warm code: the first
    // click timed cold code (3 x 100,000: 16-31 ms, then 2-9 ms). The wait lets the optimizing compiler finish.
    const warm = [0, 0, 0].map(() => new Signal(0)) as [Signal<number>, Signal<number>, Signal<number>]
    const warmBindings = warm.map((s) => s.bind(document.createElement('span')))
    writeAll(...warm, Math.min(n, WARM_UP))
    flush()
    for (const w of warmBindings) w.dispose()
    await new Promise((resolve) => setTimeout(resolve, 50))
    flush() // the bindings' first render ("0") is setup, not part of the run
    // Every DOM mutation under the paragraphs is one record. The records are taken in the same microtask as the
    // clock (below), before the observer's own delivery microtask could hand them to the callback; the callback
    // counts any that are delivered anyway.
    let domWrites = 0
    const observer = new MutationObserver((records) => (domWrites += records.length))
    for (const el of this.els) observer.observe(el, { childList: true, characterData: true, subtree: true })
    const start = performance.now()
    writeAll(a, b, c, n)
    // eddy queued its one flush at the first write; this microtask is queued after it, so it runs once the DOM
    // holds the last value. (`flush()` is a no-op then; it only guards a scheduler configured otherwise.)
    const ms = await new Promise<number>((resolve) =>
      queueMicrotask(() => {
        flush()
        const end = performance.now()
        domWrites += observer.takeRecords().length
        observer.disconnect()
        resolve(end - start)
      }),
    )
    return { mode: 'coalesced', n, ms, domWrites, correct: this.showLast(n) }
  }

  private showLast(n: number): boolean {
    return this.els.every((el) => el.textContent === String(n))
  }
}

/**
 * A time as the page shows it, to 0.1 ms: the tick of `performance.now()` in a page that is not cross-origin
 * isolated. Rates and the ratio are computed from it, so they are the ones the shown times give; a time that
 * reads 0 was too short for the clock and gives no rate at all (3 writes in "0 ms" are not 3,000 writes/ms).
 */
export const shownMs = (ms: number): number => Math.round(ms * 10) / 10

/** Writes per ms of the shown time; undefined when it reads 0. */
export const writesPerMs = (r: BenchResult): number | undefined => (shownMs(r.ms) ? (3 * r.n) / shownMs(r.ms) : undefined)

/** A sentence for the aria-live status. */
export function describe(r: BenchResult, label: string): string {
  const perMs = writesPerMs(r)
  return (
    `${label}: ${group(3 * r.n)} writes in ${group(r.ms, 1)} ms ` +
    `(${perMs === undefined ? 'too fast for the clock' : `${group(perMs)} writes/ms`}), ` +
    `${group(r.domWrites)} DOM writes` +
    (r.correct ? '.' : '; the paragraphs do NOT show the last value!')
  )
}
