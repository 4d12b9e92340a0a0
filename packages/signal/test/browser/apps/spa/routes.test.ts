// SPA trial: 2,000+ route changes of a dashboard that stays open all day, torn down three ways, under a live feed
// (~50 writes a second through a real 20 ms interval, plus 3 feed writes per route for the time a user spends on
// a view). After each batch of routes: a full GC (--expose-gc), the heap (CDP Runtime.getHeapUsage, performance.memory),
// eddy's live objects by prototype (Runtime.queryObjects), the store's subscribers, views collected
// (FinalizationRegistry), render jobs a feed write queues, eddy's pending timers / tasks / observers.
// Runs `RUNS` times per teardown; figures are medians over the runs.
import { pending } from '../soak-spy.ts'
import { afterAll, describe, expect, it } from 'vitest'
import { flush, settled } from '@eddy/signal'
import { sandbox } from '../../dom.ts'
import { collectUntil } from '../../../../../../scripts/gc.ts'
import { feed, makeStore, makeTally, mountView, startSession, type Teardown, type View } from './spa-app.ts'
import { retainerPath } from '../../heap.ts'
import { heapUsed, liveObjects, lingeringNode, median, prototypes, queuedRenders, settleHeap, sleep, slope, storeSubs, viewBindings } from './spa.ts'

const box = sandbox()
const protos = prototypes()
const RUNS = 3
const BATCHES = 5
// 2,200 routes a run; 1,100 for careless teardown, whose every feed write renders every view it kept (each run
// costs O(routes^2): ~55 s for 2,200).
const perBatch = (how: Teardown) => (how == 'careless' ? 220 : 440)
const results: Record<string, unknown[]> = {}
afterAll(() => console.log('[spa routes] summary', JSON.stringify(results)))

interface Run {
  routes: number
  bytesPerRoute: number
  memoryPerRoute: number | undefined
  collected: number
  subsBase: number
  subsEnd: number
  subsBeforeGc: number
  /** The bindings of views (not the shell's) still subscribed to the store: the number, and when there are some,
   * what they are (viewBindings), and the store's subscribers after a second idle and after one more feed write. */
  viewBindings: number
  lingering?: { bindings: string[]; subsAfterIdle: number; subsAfterWrite: number; retainers?: string[] }
  queuedPerFeedWrite: number
  objects: Record<string, number>
  pending: number
  wrong: number
  loopSteps: number
}

// The view shown lives in a holder that only these synchronous functions touch. A view held in a local or a
// temporary of the suspended async `run` can stay reachable from its frame while it waits (how long may depend on
// how the engine compiled it): the last view's field once kept the last view. (Not the cause of the 9 store
// subscribers of 3 that fresh-clone CI runs read after a half teardown: that came again with every view collected.)
interface Shown {
  view?: View | undefined
}
function show(shown: Shown, how: Teardown, mount: () => View, views: FinalizationRegistry<null>): void {
  shown.view?.leave(how)
  views.register((shown.view = mount()).root, null)
}
function leave(shown: Shown, how: Teardown): void {
  shown.view!.leave(how)
  shown.view = undefined
}
function type({ view }: Shown, text: string): void {
  const q = view!.root.querySelector<HTMLInputElement>('.q')!
  q.value = text
  q.dispatchEvent(new Event('input'))
}
const check = ({ view }: Shown, tick: number): number =>
  +(view!.root.querySelector('h1')!.textContent != view!.expectedTitle()) +
  +(view!.root.querySelector('.price')!.getAttribute('data-tick') != String(tick))

async function run(how: Teardown): Promise<Run> {
  const store = makeStore()
  const shell = box.root.appendChild(document.createElement('header'))
  const outlet = box.root.appendChild(document.createElement('main'))
  const endSession = startSession(store, shell)
  flush()
  let tick = 0
  const interval = setInterval(() => feed(store, ++tick), 20)
  const t = makeTally()
  const collected = { n: 0 }
  const views = new FinalizationRegistry<null>(() => void collected.n++)
  const careless = how == 'careless'
  const subsBase = storeSubs(store).total
  const base = await liveObjects(protos)
  const heaps: number[] = []
  const memories: number[] = []
  let subsBeforeGc = 0
  let wrong = 0
  let n = 0
  const shown: Shown = {}
  for (let b = 0; b < BATCHES; b++) {
    for (let k = 0; k < perBatch(how); k++, n++) {
      const options = {
        widget: n % 2 == 0,
        // A view left running by careless teardown would keep its loop and monitor for the session: not in that run.
        loop: !careless && n % 10 == 3,
        monitor: !careless && n % 10 == 7,
      }
      show(shown, how, () => mountView(outlet, store, n, t, options), views)
      for (let f = 0; f < 3; f++) feed(store, ++tick)
      type(shown, `find ${n}`)
      if (n % 50 == 0) store.theme.value = store.theme.peek() == 'light' ? 'dark' : 'light'
      await settled()
      wrong += check(shown, tick)
      if (store.query.peek() != `find ${n}`) wrong++
      if (n % 20 == 0) await sleep(0) // the interval, the loops and the monitors get their turns
    }
    // Render jobs one feed write queues, before any forced GC (what natural GC left of the dropped views).
    feed(store, ++tick)
    const queued = queuedRenders()
    flush()
    if (b == BATCHES - 1) subsBeforeGc = storeSubs(store).total
    if (!careless) await collectUntil(() => collected.n >= n - 1)
    await settleHeap()
    const h = await heapUsed()
    heaps.push(h.cdp)
    memories.push(h.memory ?? NaN)
    if (b == BATCHES - 1) results[`${how} queued per feed write, last batch`] = [...(results[`${how} queued per feed write, last batch`] ?? []), queued]
  }
  leave(shown, how)
  clearInterval(interval)
  await settled()
  // Bindings are dropped by FinalizationRegistry callbacks, which may come a task after the view's own: given at
  // least 9 s of collections, with idle gaps between them (for half teardown, see the test on what may be left).
  const done = () => collected.n >= n && (careless || storeSubs(store).total == subsBase)
  if (!careless) for (let k = 0; k < 3 && !(await collectUntil(done)); k++) await sleep(100)
  const subsEnd = storeSubs(store).total
  const bindingsLeft = viewBindings(store)
  // Only when some are left: whether a second of idle time (no collections) or a write drops them.
  const lingering: Run['lingering'] = bindingsLeft.length && !careless ? { bindings: bindingsLeft, subsAfterIdle: 0, subsAfterWrite: 0 } : undefined
  if (lingering) {
    await sleep(1000)
    lingering.subsAfterIdle = storeSubs(store).total
    // What holds the first live one: a heap snapshot's shortest chain of references from a root to its node.
    const ref = lingeringNode(store)
    if (ref) lingering.retainers = await retainerPath(ref)
  }
  feed(store, ++tick)
  const queuedPerFeedWrite = queuedRenders()
  flush()
  if (lingering) {
    lingering.subsAfterWrite = storeSubs(store).total
    console.log(`[spa routes] ${how}: ${subsEnd} store subscribers of ${subsBase}`, JSON.stringify(lingering))
  }
  const last = await liveObjects(protos)
  await sleep(60)
  const pendingNow = pending.timers.size + pending.tasks + pending.observers.size
  endSession()
  shell.remove()
  outlet.remove()
  const xs = heaps.map((_, i) => (i + 1) * perBatch(how))
  const objects = Object.fromEntries(Object.keys(protos).map((k) => [k, last[k]! - base[k]!]))
  return {
    routes: n,
    bytesPerRoute: slope(xs.slice(1), heaps.slice(1)),
    memoryPerRoute: slope(xs.slice(1), memories.slice(1)),
    collected: collected.n,
    subsBase,
    subsEnd,
    subsBeforeGc,
    viewBindings: bindingsLeft.length,
    lingering,
    queuedPerFeedWrite,
    objects,
    pending: pendingNow,
    wrong,
    loopSteps: t.steps,
  }
}

const summary = (runs: Run[]) => ({
  bytesPerRoute: median(runs.map((r) => r.bytesPerRoute)),
  memoryPerRoute: median(runs.map((r) => r.memoryPerRoute ?? NaN)),
  objectsPerRoute: Object.fromEntries(Object.keys(protos).map((k) => [k, median(runs.map((r) => r.objects[k]! / r.routes))])),
  runs,
})

describe('SPA: 2,200 route changes per run (1,100 careless), under a live feed', () => {
  it('careful teardown: the store is back at its baseline, every view is collected, nothing grows', { timeout: 240_000 }, async () => {
    const runs: Run[] = []
    for (let r = 0; r < RUNS; r++) runs.push(await run('careful'))
    const s = summary(runs)
    console.log('[spa routes] careful', JSON.stringify(s))
    results.careful = [s]
    for (const r of runs) {
      expect(r.wrong).toBe(0)
      // Together, so that a failure tells a view kept (one fewer collected) from its bindings' callbacks still due.
      expect({ subs: r.subsEnd, collected: r.collected }).toEqual({ subs: r.subsBase, collected: r.routes })
      expect(r.queuedPerFeedWrite).toBeLessThanOrEqual(2) // the shell's status bar
      for (const k of Object.keys(protos)) expect(r.objects[k], k).toBeLessThanOrEqual(40)
      expect(r.pending).toBe(0)
      expect(r.loopSteps).toBeGreaterThan(0)
    }
    expect(s.bytesPerRoute).toBeLessThan(200)
  })

  it('half teardown (effects disposed, bindings not): once collected, the same as careful', { timeout: 240_000 }, async () => {
    const runs: Run[] = []
    for (let r = 0; r < RUNS; r++) runs.push(await run('half'))
    const s = summary(runs)
    console.log('[spa routes] half', JSON.stringify(s))
    results.half = [s]
    for (const r of runs) {
      expect(r.wrong).toBe(0)
      expect(r.collected).toBe(r.routes)
      // What is left over is bindings of views only (never an effect or a subscription, which leave() disposed), and
      // at most five views' 6: a leak keeps every view's (13,200). Four fresh-clone CI runs (at 5003d7d, 7d356ec,
      // 505e228 and a026b97) read one or three views' bindings left, with every view root collected; never seen here
      // (8 runs of this file, 2 of the browser project). At a026b97 `lingering` said their nodes were alive (h1, p,
      // div and the input of each): something outside eddy's graph held those views' children, not a late registry.
      // Each binding left queues a render at each feed write.
      expect(r.subsEnd - r.subsBase, JSON.stringify(r.lingering)).toBe(r.viewBindings)
      expect(r.viewBindings, JSON.stringify(r.lingering)).toBeLessThanOrEqual(30)
      expect(r.queuedPerFeedWrite).toBeLessThanOrEqual(2 + r.viewBindings)
      for (const k of Object.keys(protos)) expect(r.objects[k], k).toBeLessThanOrEqual(40)
      expect(r.pending).toBe(0)
    }
    expect(s.bytesPerRoute).toBeLessThan(200)
  })

  it('careless teardown (DOM removed only): what the store keeps per route', { timeout: 240_000 }, async () => {
    const runs: Run[] = []
    for (let r = 0; r < RUNS; r++) runs.push(await run('careless'))
    const s = summary(runs)
    console.log('[spa routes] careless', JSON.stringify(s))
    results.careless = [s]
    for (const r of runs) {
      expect(r.wrong).toBe(0)
      // The views' effects and subscriptions are held by the store (they read it), and they reach their views:
      // nothing is collected, and the store's subscribers grow with every route.
      expect(r.collected).toBeLessThanOrEqual(2)
      expect(r.subsEnd - r.subsBase).toBeGreaterThanOrEqual(r.routes * 3)
    }
    expect(s.bytesPerRoute).toBeGreaterThan(1000)
  })
})
