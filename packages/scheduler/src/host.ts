// The host: every native function the scheduler touches, captured ONCE at load (as React's Scheduler.js does), so a
// page that later patches or removes a global cannot change how eddy schedules, and the fastest correct primitive
// is detected once. Nothing outside this file reads a global.

/** A host primitive that can run a callback in a later event-loop turn. */
export type Strategy = 'postTask' | 'setImmediate' | 'messageChannel' | 'postMessage' | 'setTimeout'

import { fail } from './errors.ts'

type Fn = () => void

const g: any = globalThis
// Read where they are used at load (setImmediate) or destructured here to be used later.
const { scheduler, MessageChannel, postMessage, addEventListener, reportError } = g
/** @internal Not in the shipped types: their DOM names broke a Node-only consumer's `tsc` (lib without DOM). */
export const { setTimeout, clearTimeout, performance, queueMicrotask, PerformanceObserver } = g as {
  setTimeout: (fn: Fn, ms?: number) => any
  clearTimeout: (id: any) => void
  performance: Performance
  queueMicrotask: (fn: Fn) => void
  PerformanceObserver?: typeof globalThis.PerformanceObserver
}

/** Current time in ms on the monotonic clock. */
export const now = (): number => performance.now()

// Node's own measure of how long its event loop has been busy (seed 004), captured at load like the rest.
const { eventLoopUtilization } = performance as any

/**
 * The event loop's active ms so far (`performance.eventLoopUtilization()`); undefined if missing or throwing, or while
 * it reports no time at all: the stubs of Deno (installed by `node:http` too) and Bun read 0 for ever, and a loop they
 * saturated read 0 busy; sampling reads it.
 */
export const activeMs = (): number | undefined => {
  try { const u = eventLoopUtilization(); return u.active || u.idle ? u.active : undefined } catch {}
}

/** Reports an error without stopping the caller: `reportError` where it exists, else rethrown in a microtask, as it
 * is when `reportError` throws (a user's that rethrows aborted the queue's drain, which then never ran again). A
 * missing `reportError` throws its own TypeError here, caught the same way. */
export const report = (e: unknown): void => { try { reportError(e) } catch { queueMicrotask(() => { throw e }) } }

// Message strategies deliver in the order they were posted, so each message runs the oldest callback waiting on
// that strategy; one channel (or one window listener), set up on first use, serves every queue. `listen` sets it
// up with `run` (runs the oldest callback, returns how many still wait) and returns the function that sends one.
const via = (listen: (run: () => number) => Fn) => {
  const waiting: Fn[] = []
  let send: Fn | undefined
  return (fn: Fn) => {
    waiting.push(fn)
    // `?.()`: a message with nothing waiting (another script replaying our postMessage key) runs nothing.
    ;(send ||= listen(() => (waiting.shift()?.(), waiting.length)))()
  }
}

// A null prototype: a name such as 'toString' finds nothing here, without an own-property check.
const posters = {
  __proto__: null,
  // Bound at load, like the others: a later patch of scheduler.postTask changes nothing.
  postTask: scheduler?.postTask?.bind(scheduler),
  setImmediate: g.setImmediate,
  messageChannel: MessageChannel && via((run) => {
    // Node: a port with a listener keeps the process alive, and an unref'd port drops a message in flight and lets
    // the process exit; so the port is ref'd exactly while a callback waits. Browsers have neither method.
    const { port1, port2 }: any = new MessageChannel()
    port1.onmessage = () => run() || port1.unref?.()
    return () => { port1.ref?.(); port2.postMessage(0) }
  }),
  // A window only: in a worker `self.postMessage` talks to the parent, not to itself.
  postMessage: g.window === g && via((run) => {
    // The private key: a random number, which no other code posts by chance.
    const key = Math.random()
    // Only our own messages: carrying the private key, and from this very window (the one the event is dispatched
    // on: in happy-dom that is its window object, not globalThis) or from none (jsdom posts with a null source: its
    // windows ran nothing on this strategy); anything else is left alone.
    addEventListener('message', (e: MessageEvent) => { e.data === key && (e.source || e.target) == e.target && run() })
    return () => postMessage(key, '*')
  }),
  setTimeout,
} as Record<Strategy, ((fn: Fn) => unknown) | false | undefined>

/**
 * The fastest correct primitive on this host, chosen once at load. Typed as always one: it is `undefined` only on a
 * host with no primitive at all (an audio worklet), where every call that needs a macrotask throws anyway.
 */
export const strategy = (Object.keys(posters) as Strategy[]).find((s) => posters[s])!

/**
 * The post function of `name`; a TypeError naming the strategy when it is unknown or missing on this host, or the type
 * of one that is no string (`['setTimeout']` was taken as the key of the same name, and a queue's `strategy` was it).
 */
export const poster = (name: Strategy): ((fn: Fn) => void) =>
  posters[typeof name == 'string' ? name : fail('strategy', typeof name)] || fail('strategy', name)

/** Posts `fn` as a host task of its own with the detected strategy (no batching: `loop` and `yieldToMain`). */
export const post = posters[strategy] as (fn: Fn) => void
