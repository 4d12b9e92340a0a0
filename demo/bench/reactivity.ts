/// <reference types="vite/client" />
/**
 * The reactivity cases of packages/signal/bench (propagation shapes, creation, bound writes), run in Chromium
 * with the bench's own runner, so the table reads like the Node one: eddy against alien-signals,
 * @preact/signals-core and @vue/reactivity, and the hand-written render reference.
 */
import {
  createCases,
  handWrittenAdapter,
  peerAdapters,
  runBenchmarks,
  toMarkdown,
  type Adapter,
} from '../../packages/signal/bench/index.ts'
import type { ReactivityOptions, ReactivityResult } from './api.ts'

// The eddy adapter (packages/signal/bench/eddy.ts) is picked up when it exists: a glob that matches no file is
// an empty object, so this page builds before and after it lands.
const eddyModules = import.meta.glob<Record<string, unknown>>('../../packages/signal/bench/eddy.ts', { eager: true })

function isAdapter(x: unknown): x is Adapter {
  return typeof x === 'object' && x !== null && typeof (x as Adapter).name === 'string' && typeof (x as Adapter).signal === 'function'
}

function adapters(): Adapter[] {
  const eddy = Object.values(eddyModules)
    .flatMap((m) => Object.values(m))
    .filter(isAdapter)
    .filter((a, i, all) => all.indexOf(a) === i)
  return [...eddy, ...peerAdapters, handWrittenAdapter]
}

export function reactivityAdapters(): string[] {
  return adapters().map((a) => a.name)
}

export async function runReactivity(options: ReactivityOptions): Promise<ReactivityResult> {
  const gc = (globalThis as { gc?: () => void }).gc
  const report = await runBenchmarks({
    adapters: adapters(),
    cases: createCases({ quick: options.quick }),
    warmup: options.warmup,
    rounds: options.rounds,
    gc,
    log: (line) => console.log(`[reactivity] ${line}`),
  })
  return { report, markdown: toMarkdown(report), gc: !!gc }
}
