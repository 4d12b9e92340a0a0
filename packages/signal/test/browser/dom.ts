// Helpers shared by the browser tests of bindings and of the small apps in apps/.
import { afterEach, beforeEach, vi } from 'vitest'
import { macrotask } from '@eddy/scheduler'

/** Records every DOM mutation under `root` until `stop()` returns them. */
export function observe(root: Node): { stop(): MutationRecord[] } {
  const records: MutationRecord[] = []
  const observer = new MutationObserver((list) => records.push(...list))
  observer.observe(root, { childList: true, characterData: true, attributes: true, subtree: true })
  return {
    stop() {
      records.push(...observer.takeRecords())
      observer.disconnect()
      return records
    },
  }
}

/** Every kind of render schedule an app may configure, by name: the apps are run under each. */
export const schedules = {
  microtask: 'microtask',
  animationFrame: 'animationFrame',
  'synchronous (flush) => flush()': (f: () => void) => f(),
  'macrotask from @eddy/scheduler': (f: () => void) => void macrotask(f),
} as const

/** A deterministic PRNG (mulberry32), so that a failure replays: numbers in [0, 1). */
export function rng(seed: number): () => number {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A root element in the page for each test, removed after it, and what `reportError` got during the test (the
 * calling file's hooks).
 */
export function sandbox(): { root: HTMLElement; reported: unknown[]; msgs(): string[] } {
  const box = {
    root: document.body,
    reported: [] as unknown[],
    msgs: () => box.reported.map((e: any) => `${e?.name}: ${e?.message}`),
  }
  beforeEach(() => {
    box.reported = []
    vi.stubGlobal('reportError', (e: unknown) => box.reported.push(e))
    box.root = document.body.appendChild(document.createElement('div'))
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    box.root.remove()
  })
  return box
}
