/// <reference lib="webworker" />
/**
 * The "Worker loop": the same busy work as the main-thread loops, run in a dedicated Web Worker.
 * It is a plain blocking loop, and that is fine here: it blocks only this worker's own event loop,
 * never the page's main thread (seed 003: move CPU-heavy work off the loop that serves the user).
 */
import { busyFor, type WorkResult } from './work.ts'

/** The request the page posts: run for `ms` milliseconds. */
export interface WorkerRequest {
  ms: number
}

const scope = self as unknown as DedicatedWorkerGlobalScope

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  scope.postMessage(busyFor(event.data.ms) satisfies WorkResult)
}
