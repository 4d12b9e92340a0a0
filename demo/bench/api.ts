/**
 * The benchmark page's contract with the Playwright benchmarks (e2e/bench/*.bench.ts): everything the
 * page can measure hangs off `window.eddyBench`. One call measures one case once; the Node side runs the
 * cases side by side in rounds, takes medians and computes ratios.
 */
import type { Results } from '../../packages/scheduler/bench/cases.ts'
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

export interface SchedulerOptions {
  /** Rounds; each case's median over them is reported. */
  rounds: number
  /** Lone turn-rate measurements' length, ms (x2 for setTimeout); a ratio's cases get 2 x ms each, in 10 ms pieces. */
  ms: number
  /** Iterations per loop run (loop and microtask recursion: 8 alternating pieces of a half each). */
  iterations: number
}

export interface SchedulerResult {
  /** packages/scheduler/bench's results: medians per case and the ratios its targets are set on. */
  results: Results
  /** The same as Markdown tables (packages/scheduler/bench's `markdown`). */
  markdown: string
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
    run(options: SchedulerOptions): Promise<SchedulerResult>
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
