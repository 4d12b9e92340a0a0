// What every host strategy must do, checked on the fake host of that strategy (one test file per strategy).
import { expect, it } from 'vitest'
import type { Strategy } from '@eddy/scheduler'
import { load, microtasks } from './fake-host.ts'

/** Registers the tests every strategy passes once the globals faster than it are removed. */
export function strategyContract(kind: Strategy) {
  it(`should detect ${kind} once the faster globals are removed`, async () => {
    const { mod } = await load(kind)
    expect(mod.strategy).toBe(kind)
    expect(mod.createQueue().strategy).toBe(kind)
  })

  it('should post once per batch and run the batch FIFO in one wake-up', async () => {
    const { host, mod } = await load(kind)
    for (const name of ['a', 'b', 'c']) mod.macrotask(() => host.log.push(name))
    const posts = host.log.filter((e) => e.startsWith('post:'))
    expect(posts).toEqual([`post:${kind}`])
    host.wake()
    expect(host.log.filter((e) => !/^(un)?ref$/.test(e))).toEqual([`post:${kind}`, `wake:${kind}`, 'a', 'b', 'c'])
  })

  it('should keep two queues on the same primitive apart', async () => {
    const { host, mod } = await load(kind)
    const q = mod.createQueue()
    mod.macrotask(() => host.log.push('main'))
    q.macrotask(() => host.log.push('other'))
    host.wake()
    host.wake()
    expect(host.log.filter((e) => e === 'main' || e === 'other')).toEqual(['main', 'other'])
    expect(host.pending()).toBe(0)
  })

  it('should run a loop() that yields through this strategy', async () => {
    const { host, mod } = await load(kind)
    const l = mod.loop(() => { host.block(1) }, { budgetMs: 3 })
    await microtasks()
    expect(l.iterations).toBe(3)
    expect(host.log.filter((e) => e.startsWith('post:'))).toEqual([`post:${kind}`])
    // A yield is two hops: the first posts the second, which runs the next slice.
    host.wake()
    expect(l.iterations).toBe(3)
    expect(host.log.filter((e) => e.startsWith('post:'))).toEqual([`post:${kind}`, `post:${kind}`])
    host.wake()
    expect(l.iterations).toBe(6)
    l.stop()
    host.wake()
    host.wake()
    expect(await l.done).toBe(6)
  })

  it('should measure its turn rate with probeTurnRate()', async () => {
    const { host, mod } = await load(kind)
    const rate = mod.probeTurnRate({ strategy: kind, durationMs: 10 })
    // Each turn takes 0.49 ms + the fake host's 0.01 ms on the fake clock: 2,000 turns per second.
    while (host.pending()) { host.block(0.49); host.wake() }
    expect(await rate).toBeCloseTo(2000, -1)
  })
}
