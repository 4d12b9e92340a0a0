/**
 * The reactivity cases of packages/signal/bench (propagation shapes, creation, bound writes), run in Chromium
 * with the bench's own runner, so the table reads like the Node one: eddy against alien-signals,
 * @preact/signals-core and @vue/reactivity, and the hand-written render reference.
 *
 * Each library runs in its own same-origin iframe (this page with `?framework=<name>`), so each has its own copy
 * of the case code and its own JIT feedback, as the Node run gives each library its own worker thread: otherwise
 * the shared case functions go megamorphic and every library is measured through the others' call sites.
 */
import {
  allAdapters,
  createCases,
  measureOnce,
  runBenchmarks,
  toMarkdown,
  type CaseInfo,
  type FrameworkInfo,
} from '../../packages/signal/bench/index.ts'
import type { ReactivityOptions, ReactivityResult } from './api.ts'

/** What a library's frame exposes to the page that runs the rounds. */
export interface FrameworkFrame {
  /** Runs `caseName` once on this frame's library; the timed ms, or throws on a wrong result. */
  measure(caseName: string): number
}

declare global {
  interface Window {
    eddyBenchFrame?: FrameworkFrame
  }
}

const gc = (): (() => void) | undefined => (globalThis as { gc?: () => void }).gc

/** In a library's frame: sets up `window.eddyBenchFrame` for `framework`. */
export function setupFrameworkFrame(framework: string, quick: boolean): void {
  const adapter = allAdapters.find((a) => a.name === framework)
  if (!adapter) throw new Error(`reactivity: no adapter named ${framework}`)
  const cases = new Map(createCases({ quick }).map((c) => [c.name, c]))
  window.eddyBenchFrame = {
    measure: (caseName) => {
      const c = cases.get(caseName)
      if (!c) throw new Error(`reactivity: no case named ${caseName}`)
      return measureOnce(c, adapter, () => performance.now(), gc())
    },
  }
}

export function reactivityAdapters(): string[] {
  return allAdapters.map((a) => a.name)
}

/** Loads one frame per library and resolves once each has its `eddyBenchFrame`. */
async function openFrames(quick: boolean): Promise<{ frames: Map<string, FrameworkFrame>; close(): void }> {
  const iframes: HTMLIFrameElement[] = []
  const frames = new Map<string, FrameworkFrame>()
  await Promise.all(
    allAdapters.map(
      (a) =>
        new Promise<void>((resolve, reject) => {
          const iframe = document.createElement('iframe')
          iframe.title = `benchmark frame: ${a.name}`
          iframe.width = '240'
          iframe.height = '60'
          iframe.src = `${location.pathname}?framework=${encodeURIComponent(a.name)}&quick=${quick ? 1 : 0}`
          const started = performance.now()
          const wait = () => {
            const api = iframe.contentWindow?.eddyBenchFrame
            if (api) {
              frames.set(a.name, api)
              return resolve()
            }
            if (performance.now() - started > 20_000) return reject(new Error(`reactivity: the ${a.name} frame did not start`))
            setTimeout(wait, 20)
          }
          iframe.addEventListener('load', wait, { once: true })
          iframes.push(iframe)
          document.body.append(iframe)
        }),
    ),
  )
  return { frames, close: () => iframes.forEach((f) => f.remove()) }
}

export async function runReactivity(options: ReactivityOptions): Promise<ReactivityResult> {
  const { frames, close } = await openFrames(options.quick)
  try {
    const report = await runBenchmarks<CaseInfo, FrameworkInfo>({
      adapters: allAdapters,
      cases: createCases({ quick: options.quick }),
      measure: (c, fw) => frames.get(fw.name)!.measure(c.name),
      warmup: options.warmup,
      rounds: options.rounds,
      log: (line) => console.log(`[reactivity] ${line}`),
    })
    return { report, markdown: toMarkdown(report), gc: !!gc() }
  } finally {
    close()
  }
}
