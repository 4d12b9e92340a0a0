// Soak trial, signal side: thousands of cards (soak-app.ts) mounted and unmounted, disposed as the README asks,
// under each render schedule, against one app-wide store that lives on. After each batch: a full gc, the heap
// (CDP Runtime.getHeapUsage and performance.memory), eddy's live objects by prototype (Runtime.queryObjects), the
// store's subscriber counts, eddy's pending timers / frames / tasks, listeners on a field that lives on, and the
// per-cycle time of early against late batches (a ratio of medians, never an absolute time).
import { pending, watch, listenerCount } from './soak-spy.ts'
import { afterAll, describe, expect, it } from 'vitest'
import { Signal, configure, flush, settled } from '@eddy/signal'
import { sandbox, schedules, subscribers } from '../dom.ts'
import { makeCounters, makeStore, mountCard, type Card } from './soak-app.ts'
import { heapUsed, liveObjects, median, prototypes, settleHeap, sleep, slope } from './soak.ts'

const box = sandbox()
afterAll(() => configure({ schedule: 'microtask' }))

const protos = prototypes()
const log = (...a: unknown[]) => console.log('[soak]', ...a)

const cycles: Record<string, { batches: number; perBatch: number }> = {
  microtask: { batches: 8, perBatch: 250 },
  animationFrame: { batches: 6, perBatch: 60 },
  'synchronous (flush) => flush()': { batches: 8, perBatch: 250 },
  'macrotask from @eddy/scheduler': { batches: 8, perBatch: 250 },
}

describe.each(Object.entries(schedules))('soak: cards mounted, typed into and disposed, schedule %s', (name, schedule) => {
  it('leaves no eddy object, subscriber, listener, timer or frame behind, and cycles do not get slower', { timeout: 60_000 }, async () => {
    configure({ schedule })
    const { batches, perBatch } = cycles[name]!
    const store = makeStore()
    const c = makeCounters()
    // A field of the app shell that lives on, bound anew at each route (dispose the old binding, bind the next).
    const search = document.body.appendChild(document.createElement('input'))
    watch(search)
    const query = new Signal('')
    let shellBinding = query.bind(search, { model: 'input' })

    const collected = { n: 0 }
    const roots = new FinalizationRegistry<null>(() => void collected.n++)
    const live: Card[] = []
    const times: number[][] = []
    const heaps: number[] = []
    const memories: (number | undefined)[] = []
    let objectsFirst: Record<string, number> | undefined
    let armed = 0
    let reported = 0
    const bad: unknown[] = []
    let n = 0

    const base = await liveObjects(protos)
    for (let batch = 0; batch < batches; batch++) {
      const t: number[] = []
      for (let k = 0; k < perBatch; k++, n++) {
        const t0 = performance.now()
        const card = mountCard(box.root, store, n, c)
        roots.register(card.root, null)
        live.push(card)
        card.type(n)
        if (n % 50 == 7) card.arm(), armed++
        store.count.value = n
        if (n % 3 == 0) store.tags.value = [...store.tags.peek().slice(-3), `t${n}`]
        if (n % 5 == 0) store.theme.value = n % 10 ? 'dark' : 'light'
        if (n % 7 == 0) store.online.value = !store.online.peek()
        // The shell's route changes: its field rebound.
        if (n % 10 == 0) {
          shellBinding.dispose()
          shellBinding = query.bind(search, { model: 'input' })
        }
        await settled()
        // Reported errors are counted and checked, then let go, as an error tracker that sends them would (kept,
        // an Error whose stack is never read keeps V8's frames, and with them the throwing effect's closure: the
        // whole card; and 400 kept errors alone grew the heap by ~200 B a cycle).
        for (const e of box.reported.splice(0)) {
          reported++
          if (!/^boom \d+$/.test((e as Error).message)) bad.push(e)
        }
        // Correctness, sampled: the newest card shows the store's values and its typed name.
        const h2 = card.root.querySelector('h2')!.textContent
        if (h2 !== card.expected().h2) throw new Error(`card ${n}: h2 ${h2} != ${card.expected().h2}`)
        while (live.length > 8) live.shift()!.unmount()
        t.push(performance.now() - t0)
      }
      while (live.length) live.shift()!.unmount()
      await settled()
      times.push(t)
      const h = await heapUsed()
      heaps.push(h.cdp)
      memories.push(h.memory)
      if (batch == 1) objectsFirst = await liveObjects(protos)
    }
    const objectsLast = await liveObjects(protos)
    await settleHeap()
    await sleep(50)

    // Per-cycle cost, early against late (batch 1 against the last: batch 0 is warm-up).
    const early = median(times[1]!)
    const late = median(times[times.length - 1]!)
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
    const meanRatio = mean(times[times.length - 1]!) / mean(times[1]!)
    const xs = heaps.map((_, i) => (i + 1) * perBatch)
    const bytesPerCycle = slope(xs.slice(1), heaps.slice(1))
    log(name, { cycles: n, early, late, ratio: late / early, meanRatio, bytesPerCycle, heaps, memories })
    log(name, { base, objectsFirst, objectsLast, pending: { timers: pending.timers.size, frames: pending.frames.size, tasks: pending.tasks } })
    log(name, { ...c, reported, armed, collected: collected.n, shellListeners: listenerCount(search) })
    log(name, 'store subscribers', Object.fromEntries(Object.entries(store).map(([k, s]) => [k, subscribers(s)])))

    // Everything a card made is gone once disposed and collected: no eddy object is left per cycle. At most two
    // cards' worth (15 bindings each) stay, however many cycles ran: measured 1 card after 2,000 cycles and 2
    // after 60 (the suspended test function, or the engine, may still hold its last ones).
    for (const kind of Object.keys(protos)) expect(objectsLast[kind]! - base[kind]!, kind).toBeLessThanOrEqual(32)
    for (const [k, s] of Object.entries(store)) expect(subscribers(s), k).toBe(0)
    // Each effect's cleanup ran (the card's first effect: one cleanup per run).
    expect(c.cleanups).toBe(c.effectRuns)
    expect(c.unmounted).toBe(n)
    // Errors were reported, one per throw, none lost.
    expect(armed).toBeGreaterThan(0)
    expect(reported).toBe(c.thrown)
    expect(bad).toEqual([])
    // The nodes went (all but a few the last gc may not have reached).
    expect(collected.n).toBeGreaterThanOrEqual(n - 16)
    // The shell's field: one model binding's listeners (input, compositionend, focusout), not one per route.
    expect(listenerCount(search)).toBeLessThanOrEqual(3)
    // An idle app keeps nothing scheduled.
    await sleep(100)
    expect(pending.timers.size + pending.frames.size + pending.tasks).toBe(0)
    // No growth to speak of: under 1 KB a cycle (a card is tens of KB of DOM and closures).
    expect(bytesPerCycle).toBeLessThan(1024)
    // Cycle N+1000 costs about what cycle N did.
    expect(late / early).toBeLessThan(3)
    shellBinding.dispose()
    search.remove()
    flush()
  })
})
