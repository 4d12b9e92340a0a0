// A fake host for scheduler tests (React's scheduler tests do the same): it replaces the globals that
// @eddy/scheduler captures at load with fakes that log every post and every wake-up, runs nothing on its own, and
// keeps a fake clock. `load(kind)` removes the globals faster than `kind`, installs the fake `kind`, and re-imports
// the package so that its detection runs again.
import { vi } from 'vitest'
import type { Strategy } from '@eddy/scheduler'

type Fn = () => void
interface Task { at: number; fn: Fn; label: string; seq: number }

/** The fake host: a log, a clock, and the tasks it holds until a test runs them. */
export interface FakeHost {
  /** Everything that happened, in order: `post:<kind>`, `wake:<kind>`, `timer:<ms>`, `wake:timer`, and whatever the test pushes. */
  log: string[]
  /** Fake time in ms (what `performance.now()` returns). */
  clock: number
  /** How many times the package read the clock. */
  reads: number
  /** Errors passed to `reportError` (which `load(kind, { reportError: false })` removes, and `{ reportError: fn }` replaces). */
  reported: unknown[]
  /** Tasks waiting to run. */
  pending(): number
  /** Runs the next task (the earliest due; FIFO among equals), moving the clock to its due time (and 10 us on). */
  wake(): void
  /** Runs every task due within `ms`, then moves the clock `ms` forward. */
  advance(ms: number): void
  /** Simulates a synchronous block of `ms`: only the clock moves. */
  block(ms: number): void
  /** Data the package passed to window.postMessage (postMessage fake only). */
  messages: unknown[]
  /** Delivers a window message event to the package's listener (postMessage fake only). */
  message(data: unknown, source: unknown): void
  /** How many MessageChannels the package created (messageChannel fake only; ref/unref calls are logged). */
  channels: number
  /** Delivers long-task entries to the package's PerformanceObserver, if it made one. */
  observe(entries: { duration: number; startTime?: number; blockingDuration?: number }[]): void
}

const order: Strategy[] = ['postTask', 'setImmediate', 'messageChannel', 'postMessage', 'setTimeout']

/** Installs the fake host for `kind` (or the real globals for the faster ones removed only) and imports the package fresh. */
export async function load(
  kind: Strategy,
  options: {
    entryTypes?: string[]
    reportError?: false | ((e: unknown) => void)
    /** Node's `performance.eventLoopUtilization`, which the fake `performance` lacks unless given here. */
    eventLoopUtilization?: () => { active: number; idle?: number }
  } = {},
) {
  const tasks: Task[] = []
  let seq = 0
  const listeners: ((e: { data: unknown; source: unknown; target: unknown }) => void)[] = []
  let observerCallback: ((list: { getEntries(): { duration: number }[] }) => void) | undefined
  const host: FakeHost = {
    log: [],
    clock: 1000,
    reported: [],
    reads: 0,
    channels: 0,
    messages: [],
    pending: () => tasks.length,
    wake() {
      if (!tasks.length) throw new Error('fake host: nothing to wake')
      let best = 0
      for (let i = 1; i < tasks.length; i++) {
        if (tasks[i].at < tasks[best].at || (tasks[i].at === tasks[best].at && tasks[i].seq < tasks[best].seq)) best = i
      }
      const [task] = tasks.splice(best, 1)
      host.clock = Math.max(host.clock, task.at)
      host.log.push(`wake:${task.label}`)
      task.fn()
      // Every task costs 10 us of fake time, so a chain of wake-ups moves the clock as on a real host.
      host.clock += 0.01
    },
    advance(ms) {
      const end = host.clock + ms
      while (tasks.some((t) => t.at <= end)) host.wake()
      host.clock = end
    },
    block(ms) {
      host.clock += ms
    },
    message(data, source) {
      // Dispatched on the window, as a real message event is: its target is this window.
      for (const l of listeners) l({ data, source, target: globalThis })
    },
    observe(entries) {
      observerCallback?.({ getEntries: () => entries })
    },
  }
  const post = (label: string, fn: Fn, ms = 0) => {
    host.log.push(label === 'timer' ? `timer:${ms}` : `post:${label}`)
    tasks.push({ at: host.clock + ms, fn, label, seq: seq++ })
  }
  const at = order.indexOf(kind)
  for (const name of order.slice(0, at)) {
    if (name === 'postTask') vi.stubGlobal('scheduler', undefined)
    if (name === 'setImmediate') vi.stubGlobal('setImmediate', undefined)
    if (name === 'messageChannel') vi.stubGlobal('MessageChannel', undefined)
    if (name === 'postMessage') vi.stubGlobal('window', undefined)
  }
  if (kind === 'postTask') vi.stubGlobal('scheduler', { postTask: (fn: Fn) => { post('postTask', fn); return Promise.resolve() } })
  if (kind === 'setImmediate') vi.stubGlobal('setImmediate', (fn: Fn) => post('setImmediate', fn))
  if (kind === 'messageChannel') {
    vi.stubGlobal('MessageChannel', function FakeChannel(this: any) {
      host.channels++
      const port1: any = {
        onmessage: null,
        ref: () => host.log.push('ref'),
        unref: () => host.log.push('unref'),
      }
      this.port1 = port1
      this.port2 = { postMessage: (data: unknown) => post('messageChannel', () => port1.onmessage?.({ data })) }
    })
  }
  if (kind === 'postMessage') {
    vi.stubGlobal('addEventListener', (type: string, l: (e: { data: unknown; source: unknown; target: unknown }) => void) => {
      if (type === 'message') listeners.push(l)
    })
    vi.stubGlobal('postMessage', (data: unknown) => host.messages.push(data) && post('postMessage', () => host.message(data, globalThis)))
  }
  vi.stubGlobal('setTimeout', (fn: Fn, ms?: number) => {
    const task = () => fn()
    post(kind === 'setTimeout' && !ms ? 'setTimeout' : 'timer', task, ms ?? 0)
    return { unref: () => {}, task }
  })
  vi.stubGlobal('clearTimeout', (id: { task: Fn } | undefined) => {
    const i = tasks.findIndex((t) => t.fn === id?.task)
    if (i >= 0) tasks.splice(i, 1)
  })
  vi.stubGlobal('performance', { now: () => (host.reads++, host.clock), eventLoopUtilization: options.eventLoopUtilization })
  vi.stubGlobal('reportError', options.reportError ?? ((e: unknown) => { host.reported.push(e) }))
  vi.stubGlobal('PerformanceObserver', Object.assign(
    function FakeObserver(this: any, cb: typeof observerCallback) {
      observerCallback = cb
      this.observe = ({ type }: { type: string }) => host.log.push(`observe:${type}`)
      this.disconnect = () => { observerCallback = undefined; host.log.push('disconnect') }
    },
    { supportedEntryTypes: options.entryTypes ?? [] },
  ))
  vi.resetModules()
  const mod = await import('@eddy/scheduler')
  // The package captured what it needs at load; the real globals come back for the test runner itself.
  vi.unstubAllGlobals()
  return { host, mod }
}

/** Removes the globals faster than `kind` and imports the package fresh, on the REAL host primitives. */
export async function loadReal(kind: Strategy) {
  for (const name of order.slice(0, order.indexOf(kind))) {
    vi.stubGlobal(name === 'postTask' ? 'scheduler' : name === 'postMessage' ? 'window' : name === 'messageChannel' ? 'MessageChannel' : name, undefined)
  }
  vi.resetModules()
  const mod = await import('@eddy/scheduler')
  vi.unstubAllGlobals()
  return mod
}

/** Lets every queued microtask (and promise reaction) run. */
export const microtasks = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** A seeded PRNG (mulberry32), uniform in [0, 1): stands in for Math.random where a test must replay. */
export const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
