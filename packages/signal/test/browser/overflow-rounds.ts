// The rounds of the Chromium overflow tests (overflow.test.ts, overflow-nested.test.ts): the stack-overflow cases of
// overflow.test.ts (Node) against the shipped build, each round with a new instance of the bundle, so that its
// functions are cold, as in an app that just started. There code that makes no call can throw a stack overflow
// too (V8 calls its own runtime there now and then, which checks the stack). Found so, and fixed:
// - one thrown in a computed's error path left activeSub set to that computed for good: every later read outside
//   any computed subscribed it, and flush() took itself for a call from inside a computed and posted itself again
//   for ever (28 to 30 of 48 rounds before the fix; the page hung);
// - one thrown in the undo of a check's RUNNING path (3 of 5 undos cut short in one run) left computeds taken for a
//   cycle for good; with that undo finished later (see mend in graph.ts), effects were still left never running
//   again, until the drain stopped moving the items it keeps with a loop that an overflow could cut short too.
import { expect } from 'vitest'
import type * as Eddy from '@eddy/signal'
import { nearlyFull, overflowCases } from '../overflow-cases.ts'

let instance = 0
/** A new module instance of the shipped build (a query makes one of the same file): its functions are cold. */
export const load = (): Promise<typeof Eddy> =>
  import(/* @vite-ignore */ new URL(`../../dist/index.js?instance=${++instance}`, import.meta.url).href)

/** The names of the overflow cases (`acts` of overflow-cases.ts). */
export const actNames = async (): Promise<string[]> => Object.keys(overflowCases(await load()).acts)

/**
 * Whether `lib` reads outside any computed as if inside one: a new binding does not render at flush(). Checked
 * first, with flush()'s own re-post dropped, and such an instance is stopped from flushing at all: its posted
 * flushes would post themselves for ever and hang the page instead of failing the test.
 */
function leaked(lib: typeof Eddy): boolean {
  const post = globalThis.queueMicrotask
  globalThis.queueMicrotask = () => {}
  try {
    const el = document.createElement('b')
    new lib.Signal('fresh').bind(el)
    lib.flush()
    if (el.textContent == 'fresh') return false
  } finally {
    globalThis.queueMicrotask = post
  }
  lib.configure({ schedule: () => {} })
  return true
}

const flat = (e: unknown): unknown[] => (e instanceof AggregateError ? e.errors.flatMap(flat) : [e])

/**
 * Runs act `name` where the stack is nearly full in `rounds` new instances, and checks after each that nothing is
 * stuck. What the library reports meanwhile would fail the run as unhandled: the overflows caught in effects and
 * renders are reported, some later (a computed that overflowed after reading a source keeps that error until the
 * source changes, as any error); anything else would be a bug.
 */
export async function overflowRounds(name: string, rounds: number): Promise<void> {
  const host = globalThis.reportError
  const reported: unknown[] = []
  globalThis.reportError = (e) => reported.push(...flat(e))
  try {
    // Where the overflow lands varies with what V8 has compiled.
    for (let round = 0; round < rounds; round++) {
      const lib = await load()
      const { app, acts } = overflowCases(lib)
      const g = app()
      nearlyFull(() => acts[name]!(g))
      expect(leaked(lib)).toBe(false)
      await g.works()
    }
  } finally {
    globalThis.reportError = host
  }
  expect(reported.filter((e) => !(e instanceof RangeError))).toEqual([])
}
