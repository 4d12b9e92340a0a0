// eddy in a production page, as the bundlers give it to a user (from a user trial): what the packages do at load
// (host detection, MessageChannel), and two copies of each package in one page (two versions installed by a
// monorepo, or one copy bundled into a library and another into the app). Each copy is a fresh instance of the
// shipped dist/index.js (a distinct query string makes Vite serve it as another module). The node-side half
// (tree-shaking, warnings, the shipped files) is packages/scheduler/test/bundle.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import { distCopy as copy } from '../dist-copy.ts'

type SignalPkg = typeof import('@eddy/signal')
type SchedulerPkg = typeof import('@eddy/scheduler')


const roots: Element[] = []
afterEach(() => roots.splice(0).forEach((r) => r.remove()))
const el = () => {
  const e = document.createElement('span')
  document.body.append(e)
  roots.push(e)
  return e
}

describe('what the packages do at load', () => {
  /** Counts reads of some globals and constructions of MessageChannel while `fn` runs. */
  async function spyGlobals(fn: () => Promise<unknown>) {
    const names = ['MessageChannel', 'scheduler', 'setImmediate', 'requestAnimationFrame', 'PerformanceObserver']
    const saved = names.map((k) => [k, Object.getOwnPropertyDescriptor(window, k)] as const)
    const reads: Record<string, number> = {}
    let channels = 0
    const listeners: string[] = []
    const realAdd = window.addEventListener
    const RealMC = window.MessageChannel
    const Counted = new Proxy(RealMC, { construct: (t, a) => (channels++, Reflect.construct(t, a)) })
    for (const [k, d] of saved) {
      const value = k == 'MessageChannel' ? Counted : (window as any)[k]
      Object.defineProperty(window, k, { configurable: true, get: () => ((reads[k] = (reads[k] ?? 0) + 1), value) })
      void d
    }
    window.addEventListener = function (this: any, type: string, ...rest: any[]) {
      listeners.push(type)
      return (realAdd as any).call(this, type, ...rest)
    } as any
    try {
      const result = await fn()
      return { reads, channels, listeners, result }
    } finally {
      window.addEventListener = realAdd
      for (const [k, d] of saved) d ? Object.defineProperty(window, k, d) : delete (window as any)[k]
    }
  }

  it('an app that imports only Signal from @eddy/signal touches no scheduling global and makes no MessageChannel', async () => {
    const spied = await spyGlobals(async () => {
      const { Signal } = await copy<SignalPkg>('signal')
      const s = new Signal(1)
      s.value = 2
      return s.value
    })
    expect(spied.result).toBe(2)
    expect(spied.reads).toEqual({})
    expect(spied.channels).toBe(0)
    expect(spied.listeners).toEqual([])
  })

  it('@eddy/scheduler at load: detects the host (reads its globals) but creates no MessageChannel and adds no listener', async () => {
    const spied = await spyGlobals(async () => {
      const s = await copy<SchedulerPkg>('scheduler')
      return s.strategy
    })
    expect(spied.result).toBe('postTask')
    expect(spied.reads.scheduler).toBeGreaterThan(0)
    expect(spied.channels).toBe(0)
    expect(spied.listeners).toEqual([])
  })

  it('the messageChannel and postMessage strategies set up their channel / listener on first use only, once per copy', async () => {
    const spied = await spyGlobals(async () => {
      const s = await copy<SchedulerPkg>('scheduler')
      const a = s.createQueue({ strategy: 'messageChannel' })
      const b = s.createQueue({ strategy: 'postMessage' })
      const ran: string[] = []
      for (let i = 0; i < 3; i++) a.macrotask(() => ran.push('mc')), b.macrotask(() => ran.push('pm'))
      await new Promise((r) => setTimeout(r, 20))
      return ran.length
    })
    expect(spied.result).toBe(6)
    expect(spied.channels).toBe(1)
    expect(spied.listeners.filter((t) => t == 'message')).toHaveLength(1)
  })
})

// Two copies of @eddy/signal: a library bundles its own (say a date-picker exporting a Signal of the picked date) and
// the app has another. Each copy tracks reads through its own `activeSub`, versions through its own clock, batches
// through its own depth and renders through its own queue, so a mixed use fails silently. The README says so: one copy
// per page (dedupe). Pinned here, so that the README's warning stays true, or is dropped once it is not.
describe('two copies of @eddy/signal in one page (README: one copy per page)', () => {
  it("copy B's effect, computed and batch do not see copy A's signals", async () => {
    const A = await copy<SignalPkg>('signal')
    const B = await copy<SignalPkg>('signal')
    const picked = new A.Signal('2024-01-01') // the library's signal
    const seen: string[] = []
    const stop = B.effect(() => void seen.push(picked.value)) // the app's effect
    const doubled = B.computed(() => picked.value + picked.value)
    expect(doubled.value).toBe('2024-01-012024-01-01')
    picked.value = '2024-02-02'
    stop()
    expect(seen).toEqual(['2024-01-01'])
    expect(doubled.value).toBe('2024-01-012024-01-01') // cached: copy B's clock never moved
    const a = new A.Signal(0)
    const b = new A.Signal(0)
    const runs: string[] = []
    const stopA = A.effect(() => void runs.push(`${a.value},${b.value}`))
    B.batch(() => ((a.value = 1), (b.value = 1)))
    stopA()
    expect(runs).toEqual(['0,0', '1,0', '1,1']) // copy A's effect ran at each write: B's batch is not A's
  })

  it('the same-copy baseline holds: one copy bound, computed, effect and batch work together', async () => {
    const A = await copy<SignalPkg>('signal')
    const a = new A.Signal(1)
    const c = A.computed(() => a.value * 2)
    const node = el()
    c.bind(node)
    const seen: number[] = []
    const stop = A.effect(() => void seen.push(c.value))
    A.batch(() => ((a.value = 2), (a.value = 3)))
    await A.settled()
    stop()
    expect(seen).toEqual([2, 6])
    expect(node.textContent).toBe('6')
  })
})

// Two copies of @eddy/scheduler: each has its own batched queue and its own detection (README: FIFO within a copy).
describe('two copies of @eddy/scheduler in one page', () => {
  it('macrotask callbacks queued alternately through two copies run FIFO within each copy, a copy after the other', async () => {
    const A = await copy<SchedulerPkg>('scheduler')
    const B = await copy<SchedulerPkg>('scheduler')
    const order: string[] = []
    A.macrotask(() => order.push('lib 1'))
    B.macrotask(() => order.push('app 1'))
    A.macrotask(() => order.push('lib 2'))
    B.macrotask(() => order.push('app 2'))
    await new Promise((r) => setTimeout(r, 20))
    // Two queues, two host dispatches: each FIFO, not both together.
    expect(order).toEqual(['lib 1', 'lib 2', 'app 1', 'app 2'])
  })

  it('two monitors (one per copy) both see a 150 ms stall, and each copy detects the same strategy', async () => {
    const A = await copy<SchedulerPkg>('scheduler')
    const B = await copy<SchedulerPkg>('scheduler')
    expect(A.strategy).toBe(B.strategy)
    const ma = A.monitor({ maxLagMs: 100 })
    const mb = B.monitor({ maxLagMs: 100 })
    const events: string[] = []
    ma.on('pressure', () => events.push('A'))
    mb.on('pressure', () => events.push('B'))
    await new Promise((r) => setTimeout(r, 200))
    const end = performance.now() + 150
    while (performance.now() < end);
    await new Promise((r) => setTimeout(r, 200))
    try {
      expect(ma.lag.max).toBeGreaterThan(100)
      expect(mb.lag.max).toBeGreaterThan(100)
      expect(events.sort()).toEqual(['A', 'B'])
    } finally {
      ma.stop()
      mb.stop()
    }
  })

  it('a loop of copy A and a loop of copy B share the thread: both make progress, and timers still fire', async () => {
    const A = await copy<SchedulerPkg>('scheduler')
    const B = await copy<SchedulerPkg>('scheduler')
    let timers = 0
    const t = setInterval(() => timers++, 5)
    const la = A.loop(() => {})
    const lb = B.loop(() => {})
    await new Promise((r) => setTimeout(r, 300))
    la.stop()
    lb.stop()
    clearInterval(t)
    const [na, nb] = await Promise.all([la.done, lb.done])
    expect(na).toBeGreaterThan(1000)
    expect(nb).toBeGreaterThan(1000)
    // Each loop holds the thread for its own 5 ms budget: the 5 ms interval still fires (a starving pair would give ~0).
    expect(timers).toBeGreaterThan(10)
    // Neither starves the other: within 10x of each other.
    expect(Math.max(na, nb) / Math.min(na, nb)).toBeLessThan(10)
  })
})
