// A user trial: the shipped @eddy/scheduler and @eddy/signal in every kind of worker and embedded context Chromium
// has, each running the same probe (contexts/probe.js): strategy, macrotask, yieldToMain, loop, probeTurnRate,
// monitor, signals without a DOM, and errors reaching that context's own 'error' listener.
import { afterEach, describe, expect, it } from 'vitest'
import { classicBundle, frameTail, moduleScript, sharedTail, workerTail } from './contexts/harness.ts'

const results: Record<string, any> = {}
const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((f) => f()))

const timeout = <T>(p: Promise<T>, what: string, ms = 8_000) =>
  Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error(what + ' timed out')), ms))])

const blobUrl = (src: string) => {
  const u = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }))
  cleanups.push(() => URL.revokeObjectURL(u))
  return u
}

/** Runs the probe over a port-like target that first posts 'ready'. */
function over(target: { postMessage(m: any): void; onmessage: any }, errors: string[]): Promise<any> {
  return timeout(new Promise((resolve) => {
    target.onmessage = (e: MessageEvent) => {
      if (e.data == 'ready') target.postMessage('run')
      else resolve(e.data)
    }
  }), 'probe (page-side errors: ' + errors.join('; ') + ')')
}

async function inWorker(src: string, type: WorkerType) {
  const w = new Worker(blobUrl(src), { type })
  cleanups.push(() => w.terminate())
  const errors: string[] = []
  w.onerror = (e) => { errors.push(e.message); e.preventDefault() }
  return { ...(await over(w, errors)), pageErrors: errors }
}

async function inFrame(html: string, sandbox?: string) {
  const f = document.createElement('iframe')
  if (sandbox != null) f.setAttribute('sandbox', sandbox)
  f.srcdoc = html
  cleanups.push(() => f.remove())
  const p = timeout(new Promise<any>((resolve) => {
    const on = (e: MessageEvent) => {
      if (e.source !== f.contentWindow) return
      if (e.data == 'ready') f.contentWindow!.postMessage('run', '*')
      else if (e.data?.probe) removeEventListener('message', on), resolve(e.data.probe)
    }
    addEventListener('message', on)
  }), 'frame probe')
  document.body.append(f)
  return p
}

/** What every context must give: the README's contract, wherever it runs. */
function common(r: any) {
  expect(r.crash).toBeUndefined()
  expect(r.microtask).toBe(1)
  expect(r.macrotask).toEqual({ count: 99, ordered: true, has10: false })
  expect(r.loop.done).toBe(400)
  // A timer set as the loop started fires before its 400 steps of 0.1 ms (40 ms at a 5 ms budget) end.
  expect(r.loop.timerAt).toBeGreaterThanOrEqual(0)
  expect(r.loop.timerAt).toBeLessThan(400)
  expect(r.loopError).toBe('step boom')
  // The throwing macrotask callback and the throwing effect reach this context's own 'error' listener.
  expect(r.errors).toEqual(expect.arrayContaining(['macrotask boom', 'effect boom']))
  expect(r.rejections).toEqual([])
  expect(r.signal).toEqual([2, 4, 6, 8])
  // Turn rates: the detected strategy far faster than setTimeout(0) (clamped to 4 ms once nested).
  expect(r.rates[r.strategy]).toBeGreaterThan(5 * r.rates.setTimeout)
  expect(r.rates.setImmediate).toBe('bad strategy: setImmediate')
  // Monitor: a 300 ms stall reads as >= 150 ms of lag and pressure; a turn rate was probed.
  expect(r.monitor.lagMax).toBeGreaterThanOrEqual(150)
  expect(r.monitor.underPressure).toBe(true)
  expect(r.monitor.events).toEqual(['pressure'])
  expect(r.monitor.tps).toBeGreaterThan(0)
}

describe('eddy in every context', { timeout: 30_000 }, () => {
  it('main window (baseline)', async () => {
    const { probe } = await import('./contexts/probe.js')
    // By URL: the dist files do not exist yet when the typecheck runs (a fresh clone builds them after it).
    const dist = (path: string) => import(/* @vite-ignore */ new URL(path, import.meta.url).href)
    const r = await probe(await dist('../../dist/index.js'), await dist('../../../signal/dist/index.js'))
    results.main = r
    common(r)
    expect(r.strategy).toBe('postTask')
  })

  it('dedicated module worker', async () => {
    const r = (results.moduleWorker = await inWorker(moduleScript(workerTail), 'module'))
    common(r)
    expect(r.strategy).toBe('postTask')
    expect(r.queues.postMessage).toBe('bad strategy: postMessage')
    expect(r.pageErrors).toEqual([])
  })

  it('dedicated classic worker (bundled as an IIFE)', async () => {
    const r = (results.classicWorker = await inWorker(await classicBundle(workerTail), 'classic'))
    common(r)
    expect(r.strategy).toBe('postTask')
    expect(r.pageErrors).toEqual([])
  })

  it('shared worker (module)', async () => {
    const w = new SharedWorker(blobUrl(moduleScript(sharedTail)), { type: 'module', name: 'eddy-probe' })
    const errors: string[] = []
    w.onerror = (e: any) => errors.push(String(e.message))
    w.port.start()
    const r = (results.sharedWorker = await over(w.port, errors))
    common(r)
    expect(r.strategy).toBe('postTask')
  })

  it('service worker (module)', async () => {
    const reg = await navigator.serviceWorker.register(new URL('./contexts/sw.js', import.meta.url), { type: 'module' })
    cleanups.push(() => void reg.unregister())
    const sw = reg.installing || reg.waiting || reg.active
    if (sw!.state != 'activated')
      await timeout(new Promise<void>((res) => sw!.addEventListener('statechange', () => sw!.state == 'activated' && res())), 'activation')
    const ch = new MessageChannel()
    const reply = timeout(new Promise<any>((res) => (ch.port1.onmessage = (e) => res(e.data))), 'service worker probe')
    sw!.postMessage('run', [ch.port2])
    const r = (results.serviceWorker = await reply)
    common(r)
    expect(r.strategy).toBe('postTask')
  })

  it('same-origin iframe (srcdoc, module script)', async () => {
    const r = (results.sameOriginFrame = await inFrame(`<script type="module">${moduleScript(frameTail)}</script>`))
    common(r)
    expect(r.strategy).toBe('postTask')
  })

  it('sandboxed iframe (allow-scripts, opaque origin, classic bundle)', async () => {
    const src = await classicBundle(frameTail)
    const r = (results.sandboxedFrame = await inFrame(`<script>${src.replace(/<\/script/g, '<\\/script')}</script>`, 'allow-scripts'))
    expect(r.globals.origin).toBe('null')
    common(r)
    expect(r.strategy).toBe('postTask')
  })

  // README: a throwing macrotask callback is reported with reportError, whose 'error' event reaches the page's Worker
  // when the worker does not handle it; a loop's rejected `done` stays in the worker (no 'error' event on the page).
  const unhandledTail = `self.onmessage = async () => {
    EddyScheduler.macrotask(() => { throw new Error('unhandled macrotask') })
    EddyScheduler.loop(() => { throw new Error('unhandled loop') })
    await new Promise((r) => setTimeout(r, 50))
    self.postMessage('done')
  }
  self.postMessage('ready')`
  it("dedicated worker: an unhandled macrotask error reaches the page's Worker, a loop's rejection does not", async () => {
    const r = await inWorker(moduleScript(unhandledTail), 'module')
    await new Promise((res) => setTimeout(res, 50))
    expect(r.pageErrors).toEqual([expect.stringContaining('unhandled macrotask')])
  })

  it('prints the table, with a row for every context', () => {
    const rows = Object.entries(results).map(([k, r]) => ({
      ctx: k, strategy: r.strategy, entry: r.globals?.entryTypes?.join('+'), rates: JSON.stringify(r.rates), queues: JSON.stringify(r.queues),
      mon: JSON.stringify(r.monitor), loop: JSON.stringify(r.loop), errors: r.errors?.join('|'), crash: r.crash, yield: r.yieldMs?.toFixed(1),
    }))
    console.log(JSON.stringify(rows, null, 1))
    // Every context above reported (any one of them was enough before), each with its strategy.
    expect(rows.map((r) => [r.ctx, typeof r.strategy])).toEqual(
      ['main', 'moduleWorker', 'classicWorker', 'sharedWorker', 'serviceWorker', 'sameOriginFrame', 'sandboxedFrame'].map((c) => [c, 'string']),
    )
  })
})
