import { nativeMicrotask } from './host.ts'
import { macrotask } from './queue.ts'

/** Runs `fn` at the next microtask checkpoint, before any macrotask, timer, input or render. */
export function microtask(fn: () => void): void {
  if (typeof fn !== 'function') throw new TypeError(`microtask: expected fn to be a function, got ${typeof fn}`)
  nativeMicrotask(fn)
}

/** Resolves in a later macrotask, so timers, input and rendering get in before the caller continues. */
export const yieldToMain = (): Promise<void> => new Promise<void>((resolve) => { macrotask(resolve) })
