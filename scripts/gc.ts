// Garbage collection in the browser tests: Vitest runs Chromium with --js-flags=--expose-gc (vite.config.ts).

/** The engine's collector, exposed by --expose-gc. */
export const gc = (globalThis as { gc?: () => void }).gc!

/** Runs gc between macrotasks (a WeakRef made in a job keeps its target to the job's end) until `done()` or 50 tries; calls `between()` before each try; returns done(). */
export async function collectUntil(done: () => boolean, between?: () => void): Promise<boolean> {
  for (let i = 0; i < 50 && !done(); i++) {
    between?.()
    await new Promise((resolve) => setTimeout(resolve, 5))
    gc()
  }
  return done()
}
