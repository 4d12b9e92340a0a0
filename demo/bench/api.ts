/**
 * The benchmark page's contract with the Playwright benchmarks (e2e/bench/*.bench.ts): everything the
 * page can measure hangs off `window.eddyBench`. One call measures one case once; the Node side runs the
 * cases side by side in rounds, takes medians and computes ratios.
 */
import type { Report } from '../../packages/signal/bench/run.ts'

/** The five ways of running the talk's benchmark: 3 signals bound to 3 paragraphs, N writes each. */
export type MillionMode = 'innerHTML' | 'textContent' | 'eddy' | 'handWritten' | 'plain'

export interface MillionRun {
  mode: MillionMode
  /** Writes made to each of the 3 signals. */
  writesPerSignal: number
  /** From the first write until the DOM holds the last value (the microtask checkpoint included). */
  ms: number
  /** The paragraphs' text afterwards: each must be the last value written. */
  texts: string[]
}

/** Event-loop turn primitives: each measured as a chain of turns (every callback posts the next). */
export type TurnKind = 'macrotask' | 'postTask' | 'messageChannel' | 'postMessage' | 'setTimeout'

export interface TurnRun {
  kind: TurnKind
  turns: number
  ms: number
  perSecond: number
}

/** Who dispatches a batch of callbacks per turn: eddy's `macrotask` or the hand-written batched dispatcher. */
export type QueueImpl = 'macrotask' | 'handWritten'

export interface QueueRun {
  impl: QueueImpl
  perTurn: number
  callbacks: number
  ms: number
  perSecond: number
}

/** Ways to run a long loop of tiny steps (seed 002). */
export type LoopKind = 'loop' | 'loopAsync' | 'microtask' | 'macrotask' | 'hybrid10'

export interface LoopRun {
  kind: LoopKind
  iterations: number
  ms: number
  nsPerIteration: number
  /** The worst lateness of a 10 ms setTimeout chain running alongside the loop. */
  worstTimerDelayMs: number
}

export interface ReactivityOptions {
  warmup: number
  rounds: number
  /** "bound writes" with 3 x 100,000 instead of 3 x 1,000,000 (the million-update benchmark covers 1M). */
  quick: boolean
}

export interface ReactivityResult {
  /** The report of packages/signal/bench's runner: per case and library, median ms, errors, ratios, targets. */
  report: Report
  /** The same as a Markdown table (packages/signal/bench's `toMarkdown`). */
  markdown: string
  /** Whether a gc() ran between measurements (Chromium started with --js-flags=--expose-gc). */
  gc: boolean
}

export interface BenchApi {
  million: {
    modes: MillionMode[]
    run(mode: MillionMode, writesPerSignal: number): Promise<MillionRun>
    /** Runs a mode untimed under a MutationObserver on the 3 paragraphs and returns the DOM writes it saw. */
    countDomWrites(mode: MillionMode, writesPerSignal: number): Promise<number>
  }
  scheduler: {
    /** The host primitive @eddy/scheduler chose at load. */
    strategy: string
    /** The kinds that exist in this browser. */
    turnKinds(): TurnKind[]
    turns(kind: TurnKind, durationMs: number): Promise<TurnRun>
    queueImpls(): QueueImpl[]
    queue(impl: QueueImpl, perTurn: number, durationMs: number): Promise<QueueRun>
    loopKinds(): LoopKind[]
    loop(kind: LoopKind, durationMs: number): Promise<LoopRun>
  }
  reactivity: {
    /** The libraries the cases run on: `allAdapters` of packages/signal/bench (eddy, the peers, the reference). */
    adapters(): string[]
    run(options: ReactivityOptions): Promise<ReactivityResult>
  }
}

declare global {
  interface Window {
    eddyBench: BenchApi
  }
}
