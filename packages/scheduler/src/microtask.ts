import { fnArg } from './errors.ts'
import { post, queueMicrotask } from './host.ts'

/** Runs `fn` at the next microtask checkpoint, before any macrotask, timer, input or render. */
export const microtask = (fn: () => void): void => queueMicrotask(fnArg('fn', fn))

// A host task per call, not a batched one: callers resumed in one task would run back to back, with no rendering
// or input between them.
/** Resolves in a later macrotask, so queued tasks and input get in before the caller continues (not a frame). */
export const yieldToMain = (): Promise<void> => new Promise<void>((resolve) => post(resolve))
