// A context probe: runs the same battery of @eddy/scheduler and @eddy/signal checks in whatever global it is loaded
// in (a window, an iframe, a dedicated / shared / service worker). Plain JS with one export, so that the classic
// contexts can inline it with the export keyword stripped. Returns a plain, structured-clonable result.
export async function probe(S, G) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
  const block = (ms) => { const t = performance.now(); while (performance.now() - t < ms); }
  const r = { globals: {}, errors: [] }
  const g = globalThis
  r.globals = {
    window: typeof g.window, document: typeof g.document, scheduler: typeof g.scheduler?.postTask,
    MessageChannel: typeof g.MessageChannel, reportError: typeof g.reportError,
    entryTypes: (g.PerformanceObserver?.supportedEntryTypes ?? []).filter((t) => /^long/.test(t)),
    crossOriginIsolated: g.crossOriginIsolated, origin: g.origin, hidden: g.document?.hidden,
  }
  r.strategy = S.strategy
  const onError = (e) => { r.errors.push(String(e.error?.message ?? e.message)); e.preventDefault() }
  g.addEventListener('error', onError)
  const rejections = []
  const onRej = (e) => { rejections.push(String(e.reason?.message ?? e.reason)); e.preventDefault() }
  g.addEventListener('unhandledrejection', onRej)
  try {
    // macrotask: 100 callbacks, one cancelled, FIFO, and a throwing one that loses nothing.
    const ran = []
    let cancel
    for (let i = 0; i < 100; i++) {
      const c = S.macrotask(() => { ran.push(i); if (i == 50) throw new Error('macrotask boom') })
      if (i == 10) cancel = c
    }
    cancel()
    let micro = 0
    S.microtask(() => micro++)
    await Promise.resolve()
    r.microtask = micro
    const t0 = performance.now()
    await S.yieldToMain()
    await S.yieldToMain()
    r.yieldMs = performance.now() - t0
    await sleep(20)
    r.macrotask = { count: ran.length, ordered: ran.every((v, i) => i == 0 || v > ran[i - 1]), has10: ran.includes(10) }
    // loop(): 400 steps of 0.1 ms at a 5 ms budget; a timer set at the start must fire before the loop ends.
    let steps = 0
    let timerAt = -1
    setTimeout(() => (timerAt = steps), 0)
    const l = S.loop(() => { block(0.1); return ++steps < 400 }, { budgetMs: 5 })
    r.loop = { done: await l.done, timerAt }
    // loop() errors: done rejects with the step's error.
    r.loopError = await S.loop(() => { throw new Error('step boom') }).done.then(() => 'resolved', (e) => e.message)
    // probeTurnRate, for each strategy.
    r.rates = {}
    for (const s of ['postTask', 'setImmediate', 'messageChannel', 'postMessage', 'setTimeout']) {
      try {
        r.rates[s] = Math.round(await S.probeTurnRate({ strategy: s, durationMs: 100 }))
      } catch (e) {
        r.rates[s] = e.message
      }
    }
    // createQueue on the detected strategy and on messageChannel: do callbacks run?
    r.queues = {}
    for (const s of ['messageChannel', 'postMessage', 'setTimeout']) {
      try {
        const q = S.createQueue({ strategy: s })
        let n = 0
        for (let i = 0; i < 10; i++) q.macrotask(() => n++)
        await sleep(30)
        r.queues[s] = n
      } catch (e) {
        r.queues[s] = e.message
      }
    }
    // monitor(): turn rate, then a 300 ms stall.
    const m = S.monitor({ maxLagMs: 100 })
    const events = []
    m.on('pressure', () => events.push('pressure'))
    m.on('relief', () => events.push('relief'))
    void m.turnsPerSecond
    await sleep(1200)
    const tps = m.turnsPerSecond
    const lagBefore = m.lag.max
    block(300)
    await sleep(300)
    r.monitor = {
      tps, lagBefore: Math.round(lagBefore), lagMax: Math.round(m.lag.max), p50: Math.round(m.lag.p50),
      longTasks: m.longTasks, utilization: +m.utilization.toFixed(3), underPressure: m.underPressure, events: [...events],
    }
    m.stop()
    // Signals without a DOM.
    const { Signal, computed, effect, settled } = G
    const a = new Signal(1)
    const b = computed(() => a.value * 2)
    const seen = []
    const stop = effect(() => { seen.push(b.value); if (b.value == 6) throw new Error('effect boom') })
    a.value = 2
    await settled()
    a.value = 3
    await settled()
    a.value = 4
    await settled()
    stop()
    r.signal = seen
    await sleep(20)
  } catch (e) {
    r.crash = String(e?.stack ?? e)
  }
  g.removeEventListener('error', onError)
  g.removeEventListener('unhandledrejection', onRej)
  r.rejections = rejections
  return r
}
