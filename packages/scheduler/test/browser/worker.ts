// Runs in a dedicated Web Worker (module type): exercises the package off the main thread and posts back a report.
import { createQueue, loop, macrotask, monitor, strategy, yieldToMain } from '@eddy/scheduler'

const block = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); }

self.onmessage = async () => {
  const order: number[] = []
  for (let i = 0; i < 20; i++) macrotask(() => order.push(i))
  await yieldToMain()
  const strategies: Record<string, boolean> = {}
  for (const name of ['postTask', 'setImmediate', 'messageChannel', 'postMessage', 'setTimeout'] as const) {
    try {
      const q = createQueue({ strategy: name })
      await new Promise<void>((resolve) => q.macrotask(resolve))
      strategies[name] = true
    } catch {
      strategies[name] = false
    }
  }
  let timers = 0
  let timer = setInterval(() => timers++, 10)
  await new Promise((r) => setTimeout(r, 300))
  clearInterval(timer)
  const idleTimers = timers
  timers = 0
  timer = setInterval(() => timers++, 10)
  const l = loop(() => { block(0.05) })
  await new Promise((r) => setTimeout(r, 300))
  l.stop()
  const iterations = await l.done
  clearInterval(timer)
  const m = monitor()
  await new Promise((r) => setTimeout(r, 120))
  block(200)
  await new Promise((r) => setTimeout(r, 120))
  m.stop()
  postMessage({ strategy, order, strategies, iterations, idleTimers, timers, lagMax: m.lag.max })
}
