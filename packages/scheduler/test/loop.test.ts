import { describe, expect, it } from 'vitest'
import { load, microtasks } from './fake-host.ts'

describe('loop()', () => {
  it('should start in a microtask, not inside the call', async () => {
    const { host, mod } = await load('setImmediate')
    const l = mod.loop(() => { host.block(1) })
    expect(l.iterations).toBe(0)
    await microtasks()
    expect(l.iterations).toBe(5)
    l.stop()
  })

  it('should yield to the event loop, in two host tasks, each time budgetMs is spent', async () => {
    const { host, mod } = await load('setImmediate')
    const l = mod.loop(() => { host.block(1) }, { budgetMs: 4 })
    await microtasks()
    expect(l.iterations).toBe(4)
    expect(host.log).toEqual(['post:setImmediate'])
    // The first hop only posts the second (a timer that came due during the slice runs between them in Chromium).
    host.wake()
    expect(l.iterations).toBe(4)
    expect(host.log).toEqual(['post:setImmediate', 'wake:setImmediate', 'post:setImmediate'])
    host.wake()
    expect(l.iterations).toBe(8)
    host.wake()
    host.wake()
    expect(l.iterations).toBe(12)
    expect(host.log.filter((e) => e === 'post:setImmediate')).toHaveLength(5)
    l.stop()
    host.wake()
    host.wake()
    expect(await l.done).toBe(12)
    expect(host.pending()).toBe(0)
  })

  it('should yield each loop in a task of its own, even once the queue runs short batches without a clock read', async () => {
    const { host, mod } = await load('setImmediate')
    // A batch of fast callbacks teaches the default queue to run up to 16 callbacks before its first clock read.
    for (let i = 0; i < 100; i++) mod.macrotask(() => host.block(0.001))
    host.wake()
    const loops = [0, 1, 2].map(() => mod.loop(() => { host.block(1) }, { budgetMs: 5 }))
    await microtasks()
    // 12 tasks: each loop's two yields are two hops each.
    for (let w = 0; w < 12; w++) {
      const start = host.clock
      host.wake()
      // At most one 5 ms slice per task, not the three loops' slices back to back (15 ms).
      expect(host.clock - start).toBeLessThan(5.1)
    }
    expect(loops.map((l) => l.iterations)).toEqual([15, 15, 15])
    for (const l of loops) l.stop()
  })

  it('should read the clock far less often than it steps, and still end the slice near the budget', async () => {
    const { host, mod } = await load('setImmediate')
    const l = mod.loop(() => { host.block(0.001) }, { budgetMs: 5 })
    await microtasks()
    const slice = l.iterations
    // 5 ms of 1 us steps: ~5,000 steps per slice, ending between 5 ms and 5 ms + a few steps.
    expect(slice).toBeGreaterThanOrEqual(5000)
    expect(slice).toBeLessThan(5100)
    expect(host.reads).toBeLessThan(slice / 50)
    l.stop()
  })

  it('should await a step that returns a promise before the next one', async () => {
    const { host, mod } = await load('setImmediate')
    const log: string[] = []
    let i = 0
    const l = mod.loop(async () => {
      const n = ++i
      log.push(`start ${n}`)
      await null
      host.block(1)
      log.push(`end ${n}`)
      return n < 3
    })
    expect(await l.done).toBe(3)
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3'])
  })

  it('should await a thenable that calls back synchronously, or twice, as await would', async () => {
    const { mod } = await load('setImmediate')
    // Not Promises/A+, but met in the wild (a resolved jQuery < 3 Deferred calls back synchronously): chaining on
    // it directly nested every step in the stack, until a RangeError rejected done.
    let i = 0
    const sync = mod.loop(() => ({ then: (ok: (v: boolean) => void) => ok(++i < 100_000) }))
    expect(await sync.done).toBe(100_000)
    // A thenable that calls back twice must not fork the loop into two chains of steps.
    let j = 0
    const twice = mod.loop(() => ({ then: (ok: (v: boolean) => void) => { const more = ++j < 10; ok(more); ok(more) } }))
    expect(await twice.done).toBe(10)
    expect(j).toBe(10)
    // A real promise given a `then` of its own that calls back twice: only the first call back counts, as for any
    // thenable. The loop forked into two chains that way (its iterations went past the steps that ran).
    let p = 0
    const own = mod.loop(() => {
      const more = ++p < 10
      return Object.assign(Promise.resolve(more), { then: (ok: (v: boolean) => void) => { ok(more); ok(more) } })
    })
    expect(await own.done).toBe(10)
    await new Promise((r) => setTimeout(r, 10))
    expect([p, own.iterations]).toEqual([10, 10])
    // A `then` that is not a function makes no thenable: the value itself comes back and the loop goes on.
    let k = 0
    expect(await mod.loop(() => (++k < 5 ? { then: true } : false)).done).toBe(5)
  })

  it('should chain on a native promise directly, and on nothing that only looks like one', async () => {
    const { mod } = await load('setImmediate')
    // A Promise subclass whose `then` calls back synchronously: a real promise, but not the native `then`.
    class Eager<T> extends Promise<T> {
      override then(ok?: any): any { return ok(true) }
    }
    let i = 0
    expect(await mod.loop(() => (++i < 100_000 ? new Eager(() => {}) : false)).done).toBe(100_000)
    // An object with the native `then` that is no promise: the native `then` throws, and done rejects with it.
    const fake = Object.create(Promise.prototype)
    await expect(mod.loop(() => fake).done).rejects.toThrow(TypeError)
  })

  it('should end when a step returns false', async () => {
    const { mod } = await load('setImmediate')
    let i = 0
    expect(await mod.loop(() => ++i < 7).done).toBe(7)
  })

  it('should end after the step that calls stop(), and run one step per yield with budgetMs 0', async () => {
    const { host, mod } = await load('setImmediate')
    let n = 0
    const a = mod.loop(() => { if (++n === 4) a.stop() })
    expect(await a.done).toBe(4)
    // stop() needs no `this`: a destructured one works too.
    const { stop, done } = mod.loop(() => { if (++n === 6) stop() })
    expect(await done).toBe(2)
    const b = mod.loop(() => {}, { budgetMs: 0 })
    await microtasks()
    expect(b.iterations).toBe(1)
    // Each yield is two tasks.
    for (let w = 0; w < 4; w++) host.wake()
    expect(b.iterations).toBe(3)
    b.stop()
    host.wake()
    host.wake()
    expect(await b.done).toBe(3)
    expect(host.pending()).toBe(0)
  })

  it('should resolve done after stop() while a step is pending or a yield is in flight', async () => {
    const { host, mod } = await load('setImmediate')
    let release = () => {}
    const l = mod.loop(() => new Promise<void>((r) => { release = r }))
    await microtasks()
    expect(l.iterations).toBe(1)
    l.stop()
    release()
    expect(await l.done).toBe(1)

    const y = mod.loop(() => { host.block(10) })
    await microtasks()
    y.stop()
    host.wake()
    host.wake()
    expect(await y.done).toBe(1)
  })

  it('should reject done with the error of a throwing or rejecting step, and stop', async () => {
    const { mod } = await load('setImmediate')
    let n = 0
    const a = mod.loop(() => { if (++n === 3) throw new Error('sync boom') })
    await expect(a.done).rejects.toThrow('sync boom')
    expect(a.iterations).toBe(3)
    const b = mod.loop(async () => { throw new Error('async boom') })
    await expect(b.done).rejects.toThrow('async boom')
    expect(b.iterations).toBe(1)
  })

  it('should throw a TypeError naming a bad step or budgetMs', async () => {
    const { mod } = await load('setImmediate')
    expect(() => mod.loop('go' as never)).toThrow(/bad step: string/)
    expect(() => mod.loop(() => {}, { budgetMs: -5 })).toThrow(/bad budgetMs: -5/)
  })
})
