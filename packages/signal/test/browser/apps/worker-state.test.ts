// A user trial: an app's state in @eddy/signal inside a dedicated module Web Worker (Chromium), with no DOM.
// The worker (worker-state.ts) imports the shipped dist/index.js; each test starts a fresh worker and runs one trial.
import { afterEach, describe, expect, it } from 'vitest'

let worker: Worker | undefined
afterEach(() => worker?.terminate())

/** Starts the worker, runs one trial; resolves to its result and the 'error' events the page's Worker got. */
async function trial(name: string): Promise<{ result: any; pageErrors: string[] }> {
  worker = new Worker(new URL('./worker-state.ts', import.meta.url), { type: 'module' })
  const pageErrors: string[] = []
  const w = worker
  w.addEventListener('error', (e) => {
    pageErrors.push(e.message)
    e.preventDefault()
  })
  await new Promise<void>((resolve, reject) => {
    w.onmessage = (e) => (e.data == 'ready' ? resolve() : reject(new Error('unexpected ' + JSON.stringify(e.data))))
    setTimeout(() => reject(new Error('worker did not start: ' + pageErrors.join('; '))), 10_000)
  })
  const reply = await new Promise<any>((resolve, reject) => {
    w.onmessage = (e) => resolve(e.data)
    setTimeout(() => reject(new Error('no reply: ' + pageErrors.join('; '))), 20_000)
    w.postMessage(name)
  })
  // Errors the page's Worker gets come as tasks: let them in.
  await new Promise((r) => setTimeout(r, 50))
  expect(reply.ok, reply.error).toBe(true)
  return { result: reply.result, pageErrors }
}

describe('@eddy/signal in a Web Worker (Chromium)', () => {
  it('imports with no DOM: no error, no warning, no global added', async () => {
    const { result, pageErrors } = await trial('load')
    expect(result).toEqual({
      importError: undefined,
      domGlobals: [],
      added: [],
      consoleCalls: [],
      hasReportError: 'function',
      exports: ['Signal', 'batch', 'computed', 'configure', 'effect', 'flush', 'settled', 'untracked'],
    })
    expect(pageErrors).toEqual([])
  })

  it("keeps a job queue's state: one effect run per change or batch, glitch-free", async () => {
    const { result } = await trial('state')
    expect(result.posted).toEqual(['0/0 1', '0/4 0', '1/4 0.25', '2/4 0.5', '3/4 0.75', '4/4 1'])
  })

  it("reports effects' errors with the worker's reportError: the write throws nothing, the others run", async () => {
    const { result, pageErrors } = await trial('errors')
    expect(result).toEqual({ events: ['first 1', 'second 1'], ran: [0, 1], thrown: undefined })
    expect(pageErrors).toEqual([])
  })

  it("an error nobody handles in the worker reaches the page's Worker 'error' event", async () => {
    const { result, pageErrors } = await trial('unhandled')
    expect(result).toEqual({ value: 1 })
    expect(pageErrors).toHaveLength(1)
    expect(pageErrors[0]).toContain('unhandled in worker 1')
  })

  it("renders a node-like object on 'microtask', a setTimeout schedule and 'animationFrame'", async () => {
    const { result } = await trial('schedules')
    expect(result.errors, JSON.stringify(result)).toEqual([])
    expect(result.beforeTimeout).toBe(1)
    expect(result.writes.slice(0, 2)).toEqual(['a', 't999'])
    expect(result.raf).toBe('function')
    expect(result.frameWrites).toBeLessThanOrEqual(1)
    // One render for the write, in a frame (or, if none came in 150 ms, by the switch back to 'microtask').
    expect(result.writes.at(-1)).toBe('frame')
    expect(result.writes).toHaveLength(3)
  })

  it('`using` disposes effects and subscriptions', async () => {
    const { result } = await trial('using')
    expect(result.log).toEqual(['run 0', 'sub 0', 'cleanup', 'run 1', 'sub 1', 'cleanup'])
  })

  it('computeds dropped without dispose are collected in the worker, after a million writes', async () => {
    const { result } = await trial('memory')
    expect(result.gc).toBe(true)
    expect(result.unwatched, JSON.stringify(result)).toBeGreaterThanOrEqual(4950)
    expect(result.disposed, JSON.stringify(result)).toBeGreaterThanOrEqual(4950)
  })
})
