const nativeQueueMicrotask = globalThis.queueMicrotask

/** Runs `fn` at the next microtask checkpoint, before any macrotask, timer, input or render. */
export function microtask(fn: () => void): void {
  if (typeof fn !== 'function') throw new TypeError(`microtask: expected fn to be a function, got ${typeof fn}`)
  nativeQueueMicrotask(fn)
}
