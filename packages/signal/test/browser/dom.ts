// Helpers shared by the browser tests of bindings and of the small apps in apps/.
import { afterEach, beforeEach, vi } from 'vitest'
import { cdp } from 'vitest/browser'
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

/** Chromium's input method, through CDP: composes `text` (the caret at its end), as an IME shows it uncommitted. */
export const compose = (text: string): Promise<unknown> =>
  cdp().send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length })

/** Commits the composition with `text` (an empty one cancels it). */
export const commit = (text: string): Promise<unknown> => cdp().send('Input.insertText', { text })

/** White-box: how many subscribers a signal or computed holds (its `_subs` list), to see that none leak. */
export function subscribers(s: object): number {
  let n = 0
  for (let l = (s as any)._subs; l; l = l._nextSub) n++
  return n
}
