// Host spies for the soak trial: import this module FIRST in a test file (before anything that imports
// @eddy/scheduler or @eddy/signal), because @eddy/scheduler captures setTimeout, scheduler.postTask,
// PerformanceObserver... once, at load. Each spy counts only what eddy's own code asked for (a frame of
// packages/signal/src or packages/scheduler/src in the stack), so Vitest's own timers do not count.
//
// What is counted: timers pending (set and neither fired nor cleared), animation frames pending, postTask tasks
// pending, PerformanceObservers observing (observe() called, not disconnected), and event listeners per target.

Error.stackTraceLimit = 40
const fromEddy = (): boolean => /packages\/(signal|scheduler)\/src\//.test(new Error().stack ?? '')

export const pending = {
  timers: new Set<number>(),
  frames: new Set<number>(),
  tasks: 0,
  observers: new Set<PerformanceObserver>(),
  /** Every timer / frame / task eddy asked for, ever. */
  made: { timers: 0, frames: 0, tasks: 0, observers: 0 },
}

const g = globalThis as any
const st = g.setTimeout.bind(g)
const ct = g.clearTimeout.bind(g)
g.setTimeout = function (fn: any, ms?: number, ...args: unknown[]) {
  if (!fromEddy()) return st(fn, ms, ...args)
  pending.made.timers++
  const id: number = st(() => {
    pending.timers.delete(id)
    fn(...args)
  }, ms)
  pending.timers.add(id)
  return id
}
g.clearTimeout = function (id: number) {
  pending.timers.delete(id)
  return ct(id)
}

const raf = g.requestAnimationFrame.bind(g)
const caf = g.cancelAnimationFrame.bind(g)
g.requestAnimationFrame = function (fn: FrameRequestCallback) {
  if (!fromEddy()) return raf(fn)
  pending.made.frames++
  const id: number = raf((t: number) => {
    pending.frames.delete(id)
    fn(t)
  })
  pending.frames.add(id)
  return id
}
g.cancelAnimationFrame = function (id: number) {
  pending.frames.delete(id)
  return caf(id)
}

if (g.scheduler?.postTask) {
  const postTask = g.scheduler.postTask.bind(g.scheduler)
  g.scheduler.postTask = function (fn: () => unknown, options?: unknown) {
    if (!fromEddy()) return postTask(fn, options)
    pending.made.tasks++
    pending.tasks++
    return postTask(() => {
      pending.tasks--
      return fn()
    }, options)
  }
}

const PO = g.PerformanceObserver
class SpyObserver extends PO {
  observe(options: PerformanceObserverInit) {
    if (!pending.observers.has(this as any)) pending.made.observers++
    pending.observers.add(this as any)
    return super.observe(options)
  }
  disconnect() {
    pending.observers.delete(this as any)
    return super.disconnect()
  }
}
Object.defineProperty(SpyObserver, 'supportedEntryTypes', { get: () => PO.supportedEntryTypes })
g.PerformanceObserver = SpyObserver

// Listeners, counted per target that the test names (watch(target)); a WeakMap so that nothing here keeps a node.
const listeners = new WeakMap<EventTarget, Map<string, Set<unknown>>>()
const add = EventTarget.prototype.addEventListener
const remove = EventTarget.prototype.removeEventListener
EventTarget.prototype.addEventListener = function (type: string, fn: any, options?: any) {
  const map = listeners.get(this)
  if (map && fn) {
    const capture = typeof options == 'boolean' ? options : !!options?.capture
    let set = map.get(type + capture)
    if (!set) map.set(type + capture, (set = new Set()))
    set.add(fn)
  }
  return add.call(this, type, fn, options)
}
EventTarget.prototype.removeEventListener = function (type: string, fn: any, options?: any) {
  const capture = typeof options == 'boolean' ? options : !!options?.capture
  listeners.get(this)?.get(type + capture)?.delete(fn)
  return remove.call(this, type, fn, options)
}

/** Starts counting the listeners added to `target` from now on. */
export const watch = (target: EventTarget): void => void listeners.set(target, listeners.get(target) ?? new Map())
/** How many listeners `target` holds (of those added since watch()). */
export const listenerCount = (target: EventTarget): number =>
  [...(listeners.get(target)?.values() ?? [])].reduce((n, s) => n + s.size, 0)
