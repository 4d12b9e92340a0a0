// Garbage collection in the browser tests: Vitest runs Chromium with --js-flags=--expose-gc (vite.config.ts).
import { cdp } from 'vitest/browser'

/** The engine's collector, exposed by --expose-gc. */
export const gc = (globalThis as { gc?: () => void }).gc!

/**
 * Runs gc between macrotasks (a WeakRef made in a job keeps its target to the job's end) until `done()`, for at least
 * 50 tries and 3 s; calls `between()` before each try; returns done(). Timed as well as counted: under a loaded CI
 * run, finalization callbacks lagged behind 50 tries that took well under a second.
 */
export async function collectUntil(done: () => boolean, between?: () => void): Promise<boolean> {
  const start = performance.now()
  for (let i = 0; !done() && (i < 50 || performance.now() - start < 3000); i++) {
    between?.()
    await new Promise((resolve) => setTimeout(resolve, 5))
    gc()
  }
  // Then a few collections from DevTools, outside this frame's JS: `gc()` runs in the test's task, where Blink's heap
  // may scan the stack conservatively, and a stale word there kept a dropped view's node (and so its bindings) alive
  // through 9 s of gc() in some CI runs. A heap snapshot's collection then freed it, and found no path from a root.
  for (let i = 0; !done() && i < 5; i++) {
    between?.()
    await cdp().send('HeapProfiler.collectGarbage')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return done()
}
