// Fake timers in real Chromium (Vitest browser mode), installed before eddy loads with vi.hoisted (the scheduler
// README, "Testing with fake timers"; the happy-dom side, with vi.resetModules(), is test/fake-timers/). In browser
// mode vi.resetModules() does not load a module anew: a dynamic import() after it returned the copy loaded before.
import { afterAll, expect, it, vi } from 'vitest'
import * as app from '../fake-timers/app.ts'

// A real clock for the steps' busy-wait, taken first; then Vitest's default fakes, performance included, before the
// imports above run.
const realNow = vi.hoisted(() => performance.now.bind(performance))
vi.hoisted(() => vi.useFakeTimers())
const work = (ms: number) => { const end = realNow() + ms; while (realNow() < end); }
afterAll(() => { vi.useRealTimers(); document.body.innerHTML = '' })

it('postTask is not faked, so macrotask runs on the real host even with fakes installed first (unlike happy-dom)', async () => {
  expect(app.strategy).toBe('postTask')
  let ran = 0
  app.macrotask(() => ran++)
  vi.runAllTimers()
  expect(ran).toBe(0)
  await app.yieldToMain()
  expect(ran).toBe(1)
})

it("with performance faked, loop()'s slice never ends: 200 units of 0.25 ms (10 budgets) in one slice", async () => {
  const { loop: l, done } = app.progressBar(document.body, 200, () => work(0.25), 5)
  for (let i = 0; i < 5; i++) await Promise.resolve()
  expect(done.peek()).toBe(200)
  expect(await l.done).toBe(200)
})

it('vi.resetModules() does not load a module anew in browser mode: import() returns the copy loaded before', async () => {
  vi.resetModules()
  const again = await import('../fake-timers/app.ts')
  expect(again.macrotask).toBe(app.macrotask)
})
