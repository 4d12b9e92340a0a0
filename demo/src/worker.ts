/// <reference lib="webworker" />
/**
 * The "Worker loop": the same busy work as the main-thread loops, run in a dedicated Web Worker.
 * It is a plain blocking loop, and that is fine here: it blocks only this worker's own event loop,
 * never the page's main thread (seed 003: move CPU-heavy work off the loop that serves the user).
 */
import { workUnit, type WorkResult } from './work.ts'

/** The request the page posts: run for `ms` milliseconds. */
export interface WorkerRequest {
  ms: number
}

/** How often the deadline is checked, in units: keeps `performance.now()` off the hot path. */
const CHECK_EVERY = 32

const scope = self as unknown as DedicatedWorkerGlobalScope

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const start = performance.now()
  const deadline = start + event.data.ms
  let units = 0
  let seed = 1
  let now = start
  while (now < deadline) {
    for (let i = 0; i < CHECK_EVERY; i++) seed = workUnit(seed)
    units += CHECK_EVERY
    now = performance.now()
  }
  const result: WorkResult = { units, ms: now - start, checksum: seed }
  scope.postMessage(result)
}
