import { fnArg } from './errors.ts'
import { queueMicrotask } from './host.ts'
import { macrotask } from './queue.ts'

/** Runs `fn` at the next microtask checkpoint, before any macrotask, timer, input or render. */
export const microtask = (fn: () => void): void => queueMicrotask(fnArg('fn', fn))

/** Resolves in a later macrotask, so timers, input and rendering get in before the caller continues. */
export const yieldToMain = (): Promise<void> => new Promise<void>(macrotask)
