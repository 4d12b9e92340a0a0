// A pool worker for the user trial in pool-trial.test.ts: heavy work in a module Web Worker, with @eddy/scheduler
// inside. Messages: { type, ...args }. Replies carry `type` too. Clock: epoch ms (timeOrigin + now) to compare with
// the page's.
import { createQueue, loop, macrotask, monitor, probeTurnRate, strategy, yieldToMain, type Loop } from '@eddy/scheduler'

const clock = () => performance.timeOrigin + performance.now()
const block = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const post = (msg: any) => (self as any).postMessage(msg)

let current: Loop | undefined
let cancelAt = 0

self.onmessage = async (e: MessageEvent) => {
  const d = e.data
  switch (d.type) {
    case 'info': {
      const rates: Record<string, number> = {}
      for (const s of ['postTask', 'messageChannel', 'setTimeout'] as const) rates[s] = await probeTurnRate({ strategy: s, durationMs: 150 })
      post({
        type: 'info', strategy, rates, isWindow: 'window' in self,
        entryTypes: (globalThis as any).PerformanceObserver?.supportedEntryTypes ?? null,
        hasReportError: typeof (self as any).reportError, hasPostTask: typeof (self as any).scheduler?.postTask,
      })
      break
    }
    case 'crunch': {
      // One "image tile" per step: stepMs of CPU. Progress is posted every `progressEvery` steps.
      cancelAt = 0
      const startedAt = clock()
      const l: Loop = (current = loop((): boolean => {
        block(d.stepMs)
        if (d.progressEvery && l.iterations % d.progressEvery == 0) post({ type: 'progress', id: d.id, n: l.iterations })
        if (d.throwAt && l.iterations == d.throwAt) throw new Error('tile ' + d.throwAt + ' is corrupt')
        return d.steps ? l.iterations < d.steps : true
      }, { budgetMs: d.budgetMs }))
      post({ type: 'started', id: d.id, at: startedAt })
      if (d.uncaught) { await l.done; post({ type: 'done', id: d.id }); break }
      try {
        const n = await l.done
        post({ type: 'done', id: d.id, n, cancelAt, doneAt: clock() })
      } catch (err: any) {
        post({ type: 'failed', id: d.id, message: String(err?.message), iterations: l.iterations })
      }
      break
    }
    case 'cancel':
      cancelAt = clock()
      current?.stop()
      post({ type: 'cancelled', sentAt: d.sentAt, at: cancelAt })
      break
    case 'ping':
      post({ type: 'pong', sentAt: d.sentAt, at: clock() })
      break
    case 'throwInQueue':
      macrotask(() => { throw new Error('reply encoder broke') })
      macrotask(() => post({ type: 'afterThrow' }))
      break
    case 'replies': {
      // n small results (search hits): posted one by one, or batched through a queue into one message per wake-up.
      const t0 = performance.now()
      if (d.mode == 'each') {
        for (let i = 0; i < d.n; i++) post({ type: 'hit', i })
      } else {
        const q = createQueue({ budgetMs: 5 })
        let batch: number[] = []
        const flush = () => { post({ type: 'hits', items: batch }); batch = [] }
        for (let i = 0; i < d.n; i++) {
          if (!batch.length) q.macrotask(flush)
          batch.push(i)
        }
      }
      post({ type: 'repliesSent', ms: performance.now() - t0 })
      break
    }
    case 'monitor': {
      // Load for `ms`, then report what a monitor started at the beginning saw.
      const m = monitor({ maxLagMs: d.maxLagMs ?? 100, maxUtilization: d.maxUtilization ?? 0.9 })
      const events: string[] = []
      m.on('pressure', () => events.push('pressure'))
      m.on('relief', () => events.push('relief'))
      const samples: number[] = []
      const sampler = setInterval(() => samples.push(m.utilization), 500)
      // A 200 ms stall 300 ms in (the loads the trial compared utilization under stayed in the trial: README, Utilization).
      await sleep(300)
      block(d.stallMs)
      await sleep(d.ms - 300 - d.stallMs)
      clearInterval(sampler)
      post({ type: 'monitor', load: d.load, lag: m.lag, utilization: m.utilization, longTasks: m.longTasks, underPressure: m.underPressure, events, samples })
      m.stop()
      break
    }
    case 'nested': {
      const w = new Worker(new URL('./pool-worker.ts', import.meta.url), { type: 'module' })
      const info = await new Promise((resolve, reject) => {
        w.onmessage = (e) => e.data.type == 'info' && resolve(e.data)
        w.onerror = (e) => reject(new Error(e.message))
        w.postMessage({ type: 'info' })
      }).catch((err) => ({ error: String(err) }))
      w.terminate()
      post({ type: 'nested', info })
      break
    }
    case 'clone': {
      const l = loop(() => false)
      const m = monitor()
      const tryClone = (x: unknown) => { try { structuredClone(x); return 'ok' } catch (err: any) { return err.name } }
      const tryPost = (x: unknown) => { try { post({ type: 'probe', x }); return 'ok' } catch (err: any) { return err.name } }
      const out: Record<string, string> = {
        loop: tryClone(l), monitor: tryClone(m), lag: tryClone(m.lag), postLoop: tryPost(l), postMonitor: tryPost(m),
        spreadMonitor: tryClone({ ...m }), done: tryClone(l.done),
      }
      await l.done
      let json = ''
      try { json = JSON.stringify(m) } catch (err: any) { json = err.name }
      // Did JSON.stringify (which reads every getter) start the turn-rate probe? Count wake-ups of the shared queue
      // by watching turnsPerSecond become non-zero without us reading it again ... read it after 1.2 s via a copy.
      await sleep(200)
      const viaJson = JSON.parse(JSON.stringify(m)).turnsPerSecond
      m.stop()
      post({ type: 'clone', out, json, viaJson })
      break
    }
    case 'yield': {
      // A search index built with yieldToMain between chunks: do page messages get in between?
      const seen: number[] = []
      const h = (e: MessageEvent) => { if (e.data.type == 'nudge') seen.push(e.data.i) }
      self.addEventListener('message', h)
      const end = performance.now() + d.ms
      let chunks = 0
      while (performance.now() < end) { block(2); chunks++; await yieldToMain() }
      self.removeEventListener('message', h)
      post({ type: 'yield', chunks, nudges: seen.length })
      break
    }
  }
}
self.addEventListener('unhandledrejection', (e: any) => post({ type: 'unhandled', message: String(e.reason?.message) }))
post({ type: 'ready' })
