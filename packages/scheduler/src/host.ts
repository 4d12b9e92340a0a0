// The host: every native function the scheduler touches, captured ONCE at load (as React's Scheduler.js does), so a
// page that later patches or removes a global cannot change how eddy schedules, and the fastest correct primitive
// is detected once. Nothing outside this file reads a scheduling global.

/** A host primitive that can run a callback in a later event-loop turn. */
export type Strategy = 'postTask' | 'setImmediate' | 'messageChannel' | 'postMessage' | 'setTimeout'

type Fn = () => void
type Post = (fn: Fn) => void

const g: any = globalThis
export const setTimer: (fn: Fn, ms: number) => any = g.setTimeout
export const clearTimer: (id: any) => void = g.clearTimeout
export const perf: Performance = g.performance
export const nativeMicrotask: (fn: Fn) => void = g.queueMicrotask
export const Observer: typeof PerformanceObserver | undefined = g.PerformanceObserver
const nativeReportError: ((e: unknown) => void) | undefined = g.reportError
const postTask = g.scheduler?.postTask
const nativeScheduler = g.scheduler
const setImmediateFn: ((fn: Fn) => unknown) | undefined = g.setImmediate
const Channel: typeof MessageChannel | undefined = g.MessageChannel
// window.postMessage only on a window: in a worker `self.postMessage` talks to the parent, not to itself.
const win: Window | undefined = typeof g.window == 'object' && g.window === g && typeof g.postMessage == 'function'
  ? g
  : undefined

/** Current time in ms on the monotonic clock. */
export const now = (): number => perf.now()

/** Reports an error without stopping the caller: `reportError` where it exists, else rethrown in a microtask. */
export const report = (e: unknown): void =>
  nativeReportError ? nativeReportError(e) : nativeMicrotask(() => { throw e })

// Message strategies deliver in the order they were posted, so each message runs the oldest callback waiting on
// that strategy: one channel (or one window listener) serves every queue, lazily created on first use.
const channelWaiting: Fn[] = []
const windowWaiting: Fn[] = []
let channel: MessageChannel | undefined
let key: string | undefined

const posters: Record<Strategy, Post | false> = {
  postTask: typeof postTask == 'function' && ((fn) => { postTask.call(nativeScheduler, fn) }),
  setImmediate: typeof setImmediateFn == 'function' && ((fn) => { setImmediateFn(fn) }),
  messageChannel: typeof Channel == 'function' && ((fn) => {
    // Node: a port with a listener keeps the process alive, so the receiving port is ref'd only while a message is
    // in flight (`ref`/`unref` exist only there); browsers have no such methods and never hold a page open.
    const rx: any = (channel ||= new Channel!()).port1
    if (!rx.onmessage) rx.onmessage = () => {
      if (channelWaiting.length < 2) rx.unref?.()
      channelWaiting.shift()!()
    }
    if (!channelWaiting.length) rx.ref?.()
    channelWaiting.push(fn)
    channel.port2.postMessage(0)
  }),
  postMessage: !!win && ((fn) => {
    if (!key) {
      key = 'eddy:' + Math.random()
      // Only our own messages: from this very window and carrying the private key; anything else is left alone.
      win!.addEventListener('message', (e) => {
        if (e.source === win && e.data === key) windowWaiting.shift()!()
      })
    }
    windowWaiting.push(fn)
    win!.postMessage(key, '*')
  }),
  setTimeout: (fn) => { setTimer(fn, 0) },
}

/** The fastest correct primitive on this host, chosen once at load. */
export const strategy: Strategy = (Object.keys(posters) as Strategy[]).find((s) => posters[s])!

/** The post function of `name`; a TypeError naming the strategy when it is unknown or missing on this host. */
export function poster(where: string, name: Strategy): Post {
  const p = Object.hasOwn(posters, name) && posters[name]
  if (!p) throw new TypeError(`${where}: strategy "${name}" is not available on this host`)
  return p
}
