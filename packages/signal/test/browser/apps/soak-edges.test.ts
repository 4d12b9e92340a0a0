// Soak trial, the error paths and schedule changes of an app that stays open all day, repeated: an effect,
// subscriber or bind() whose first run throws must leave nothing subscribed; a schedule changed at every route
// must leave nothing scheduled. (A burst's queue size kept for the day: soak-findings.test.ts.)
import { pending } from './soak-spy.ts'
import { describe, expect, it } from 'vitest'
import { computed, configure, effect, settled } from '@eddy/signal'
import { createQueue } from '@eddy/scheduler'
import { sandbox, subscribers } from '../dom.ts'
import { makeStore } from './soak-app.ts'
import { liveObjects, sleep } from './soak.ts'

const box = sandbox()
const failure = new Error('first run')

describe('soak: error paths leave nothing subscribed', () => {
  it('2,000 effects, subscribers and bind() calls whose first run throws, after reading the store', async () => {
    const store = makeStore()
    const protos = (() => {
      const b = store.user.bind(document.createElement('p'))
      const p = { Link: Object.getPrototypeOf((store.user as any)._subs), Binding: Object.getPrototypeOf(b) }
      b.dispose()
      return p
    })()
    const base = await liveObjects(protos)
    const bad = computed(() => {
      if (store.count.value >= 0) throw failure
      return 0
    })
    let caught = 0
    configure({ schedule: (f) => f() }) // bind() renders at once, so its first render's error is thrown by bind()
    {
      // Without reportError, bind() with a schedule that flushes at once throws the render's error (README).
      const saved = globalThis.reportError
      ;(globalThis as any).reportError = undefined
      try {
        for (let i = 0; i < 2000; i++) {
          try {
            effect(() => {
              void store.user.value, store.theme.value
              throw failure
            })
          } catch (e) {
            if (e === failure) caught++
          }
          try {
            store.tags.subscribe(() => {
              throw failure
            })
          } catch (e) {
            if (e === failure) caught++
          }
          try {
            bad.bind(box.root.appendChild(document.createElement('p')))
          } catch (e) {
            if (e === failure) caught++
          }
        }
      } finally {
        ;(globalThis as any).reportError = saved
        configure({ schedule: 'microtask' })
      }
    }
    const after = await liveObjects(protos)
    console.log('[soak edges] first-run errors', { caught, base, after, subs: [subscribers(store.user), subscribers(store.theme), subscribers(store.tags), subscribers(store.count), subscribers(bad)] })
    expect(caught).toBe(6000)
    expect([subscribers(store.user), subscribers(store.theme), subscribers(store.tags), subscribers(store.count), subscribers(bad)]).toEqual([0, 0, 0, 0, 0])
    expect(after.Link! - base.Link!).toBeLessThanOrEqual(2)
    expect(after.Binding! - base.Binding!).toBeLessThanOrEqual(1)
  })
})

describe('soak: the render schedule changed at every route', () => {
  it('renders every route right and leaves no frame, task or timer behind', { timeout: 60_000 }, async () => {
    const store = makeStore()
    const renders = createQueue()
    const choices = [
      'microtask',
      'animationFrame',
      (f: () => void) => f(),
      (f: () => void) => void renders.macrotask(f),
      (f: () => void) => void setTimeout(f, 0),
    ] as const
    const el = box.root.appendChild(document.createElement('p'))
    const b = store.count.bind(el, { format: (v) => `n=${v}` })
    let wrong = 0
    for (let i = 0; i < 600; i++) {
      configure({ schedule: choices[i % choices.length]! })
      store.count.value = i
      if (i % 3 == 0) configure({ schedule: choices[(i * 7 + 1) % choices.length]! })
      await settled()
      if (el.textContent != `n=${i}`) wrong++
    }
    configure({ schedule: 'microtask' })
    await sleep(100)
    b.dispose()
    console.log('[soak edges] schedule switching', { wrong, pending: { timers: pending.timers.size, frames: pending.frames.size, tasks: pending.tasks }, made: pending.made })
    expect(wrong).toBe(0)
    expect(pending.frames.size + pending.tasks + pending.timers.size).toBe(0)
  })
})
