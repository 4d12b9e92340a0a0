// The microtask schedule with a stubbed or faked queueMicrotask: a stub that calls back at once, and a flush lost in a
// faked queue, posted anew by configure(). Each failed on a first version of the numbered posts.
import { afterEach, expect, it, vi } from 'vitest'
import { Signal, configure, settled } from '@eddy/signal'
import { resetSchedule } from './reset-schedule.ts'

const real = globalThis.queueMicrotask
afterEach(() => {
  globalThis.queueMicrotask = real
  vi.useRealTimers()
  resetSchedule()
})

const tick = () => new Promise((r) => setTimeout(r, 0))
// settled() resolved within a few macrotasks (no wall-clock bound: a count of turns)
const resolvesSoon = async (p: Promise<void>) => {
  let done = false
  void p.then(() => (done = true))
  for (let i = 0; i < 5; i++) await tick()
  return done
}

it('a synchronous queueMicrotask stub picked up by configure(): a write renders (it did before df3fd62)', async () => {
  const s = new Signal(0)
  const el = document.createElement('p')
  s.bind(el)
  await settled()
  // A harness that runs "microtasks" at once; the README/commit: a stub set before configure() is used.
  globalThis.queueMicrotask = (cb: VoidFunction) => cb()
  configure({ schedule: 'microtask' })
  s.value = 1
  expect(el.textContent).toBe('1') // observed: '0' (the callback ran before `posts = n`: n != posts, skipped)
  s.value = 2
  expect(el.textContent).toBe('2') // observed: '0' (`scheduled` stays set: no later write posts)
  globalThis.queueMicrotask = real
  expect(await resolvesSoon(settled())).toBe(true) // observed: never resolves
})

it('configure({ schedule: "microtask" }) after real timers are back re-posts a flush lost in the fake queue', async () => {
  const s = new Signal(0)
  const el = document.createElement('p')
  s.bind(el)
  await settled()
  vi.useFakeTimers({ toFake: ['queueMicrotask'] })
  configure({ schedule: 'microtask' }) // captures the fake queueMicrotask
  s.value = 1 // posted into the fake queue, never run
  vi.useRealTimers()
  configure({ schedule: 'microtask' }) // captures the real one again; post == old, so nothing is re-posted
  s.value = 2
  await tick()
  expect(el.textContent).toBe('2') // observed: '0' until someone calls flush()
  s.value = 3
  expect(await resolvesSoon(settled())).toBe(true) // observed: never resolves
  expect(el.textContent).toBe('3')
})
