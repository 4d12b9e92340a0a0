// Garbage collection in real Chromium (run with --js-flags=--expose-gc, vite.config.ts): what the scheduler keeps
// of a callback or a step once it ran, was cancelled or stopped.
import { describe, expect, it } from 'vitest'
import { createQueue, loop, macrotask, monitor, type Loop, type Strategy } from '@eddy/scheduler'
import { collectUntil, gc } from '../../../../scripts/gc.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// Module-level: a registry that is collected itself never calls back.
const collected = new Set<string>()
const registry = new FinalizationRegistry<string>((name) => collected.add(name))
const track = (o: object, name: string) => registry.register(o, name)

// Thrown by a step: an error made inside the step would hold its closure through its stack trace.
const failure = new Error('step')

/** A step that ends after `steps` calls (or throws at its third), and what only it reaches, tracked as `name`. */
function makeStep(name: string, steps: number, fail = false) {
  const big = { data: new Array(1e6).fill(0) }
  track(big, name)
  let i = 0
  return () => {
    if (fail && i == 2) throw failure
    return big.data.length > 0 && ++i < steps
  }
}

describe('loop(): a handle kept after the loop ended keeps no step', () => {
  it('once a step returned false', async () => {
    const keep: Loop[] = [loop(makeStep('ended', 3))]
    expect(await keep[0]!.done).toBe(3)
    expect(await collectUntil(() => collected.has('ended'))).toBe(true)
    expect(keep[0]!.iterations).toBe(3)
  })

  it('once stopped', async () => {
    const keep: Loop[] = [loop(makeStep('stopped', 1e12))]
    await sleep(20)
    keep[0]!.stop()
    await keep[0]!.done
    expect(await collectUntil(() => collected.has('stopped'))).toBe(true)
  })

  it('once a step threw', async () => {
    const keep: Loop[] = [loop(makeStep('threw', 1e12, true))]
    await expect(keep[0]!.done).rejects.toBe(failure)
    expect(await collectUntil(() => collected.has('threw'))).toBe(true)
  })
})

describe('queues and monitors let go', () => {
  const strategies: Strategy[] = ['postTask', 'messageChannel', 'postMessage', 'setTimeout']

  it.each(strategies)('a cancelled callback, before any wake-up (%s)', async (strategy) => {
    const queue = createQueue({ strategy })
    const keep: (() => void)[] = []
    ;(() => {
      const big = {}
      track(big, `cancelled ${strategy}`)
      keep.push(queue.macrotask(() => void big))
    })()
    keep[0]!()
    gc()
    await Promise.resolve()
    expect(await collectUntil(() => collected.has(`cancelled ${strategy}`))).toBe(true)
  })

  it('a burst of callbacks that ran, while one small chain keeps the shared queue busy', async () => {
    let alive = true
    const chain = () => void (alive && macrotask(chain))
    macrotask(chain)
    ;(() => {
      for (let i = 0; i < 1000; i++) {
        const big = {}
        track(big, `burst ${i}`)
        macrotask(() => void big)
      }
    })()
    const burst = () => [...collected].filter((n) => n.startsWith('burst ')).length
    const released = await collectUntil(() => burst() == 1000)
    alive = false
    expect(burst()).toBe(1000)
    expect(released).toBe(true)
  })

  it("a stopped monitor, still held, keeps none of its listeners", async () => {
    const keep: ReturnType<typeof monitor>[] = []
    ;(() => {
      const m = monitor()
      const listener = () => {}
      m.on('relief', listener)
      track(listener, 'listener')
      keep.push(m)
    })()
    keep[0]!.stop()
    expect(await collectUntil(() => collected.has('listener'))).toBe(true)
  })
})
