// A loop through a binding, a getter's write and an effect, started by a read outside any flush: a fuzzer's case
// that looked like a hang. A flush called while a computed runs is moved to a microtask (render.ts); that flush is
// cut off with "Cycle detected" and posts no other one, whatever the schedule, so a timer gets in. A synchronous
// schedule is not called while the read runs at all (graph.ts, outerRead): it flushes once the read is done.
import { afterEach, expect, it, vi } from 'vitest'
import { Signal, computed, configure, effect, flush, type Schedule } from '@eddy/signal'

afterEach(() => {
  vi.unstubAllGlobals()
  configure({ schedule: 'microtask' })
})

const tick = () => new Promise((resolve) => setTimeout(resolve, 20))
// The bound nodes, held: a binding holds its node weakly, and one collected before the flush would end the loop.
const nodes: Node[] = []

/** Reads a computed whose getter creates an effect and writes an echo that an effect writes back; counts posts. */
async function loop(schedule: Schedule, getterFlushes = false) {
  const caught: string[] = []
  let posts = 0
  const guard = (f: () => void) => () => {
    try {
      f()
    } catch (error) {
      caught.push(String(error))
    }
  }
  // Every microtask and frame posted is counted, and none is forwarded past 10,000: a loop cannot hang the runner.
  const microtask = queueMicrotask
  vi.stubGlobal('queueMicrotask', (f: () => void) => void (++posts <= 1e4 && microtask(guard(f))))
  vi.stubGlobal('requestAnimationFrame', (f: () => void) => void (++posts <= 1e4 && setTimeout(guard(f))))
  configure({ schedule }) // 'microtask' posts through the stub (looked up here)
  const a = new Signal(0)
  const echo = new Signal(0)
  const c = computed(() => {
    effect(() => {})
    if (getterFlushes) flush()
    return (echo.value = a.value)
  })
  effect(() => void (a.value = echo.value + 1))
  c.bind(nodes[nodes.push(document.createTextNode('')) - 1]!)
  await tick() // the binding's first flush
  caught.length = posts = 0
  void c.value
  let timer = false
  setTimeout(() => (timer = true))
  await tick()
  return { posts, timer, caught }
}

const once = { posts: 1, timer: true, caught: ['Error: Cycle detected'] }

it('a synchronous schedule: the flush runs once the read is done, and is cut off there; a timer gets in', async () => {
  // Nothing renders while the read runs (see refresh): the flush comes after it, at once, is cut off with "Cycle
  // detected" (thrown to the schedule), and posts nothing.
  const thrown: string[] = []
  const result = await loop((f) => {
    try {
      f()
    } catch (error) {
      thrown.push(String(error))
    }
  })
  expect(result).toEqual({ posts: 0, timer: true, caught: [] })
  // The binding's first flush (before the read) is cut off the same way.
  expect(thrown).toEqual(['Error: Cycle detected', 'Error: Cycle detected'])
})

// 'animationFrame' asks for its frame in a microtask (after the code that wrote): two posts for its one flush.
it.each([
  ['microtask', 1],
  ['animationFrame', 2],
] as const)("'%s': the one flush posted is cut off, and a timer gets in", async (schedule, posts) => {
  expect(await loop(schedule)).toEqual({ ...once, posts })
})

it('a getter that calls flush() itself: the flush it defers defers no other', async () => {
  expect(await loop('microtask', true)).toEqual({ ...once, posts: 2 })
})
