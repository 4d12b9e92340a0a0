/**
 * Scheduler benchmarks in the page: turn rates of eddy's `macrotask` and of each raw host primitive, callbacks
 * per second of a batched queue at several batch sizes, and the cost and timer fairness of long loops (seed 002).
 * Raw primitives are written out here on purpose: they are the yardstick eddy is held to.
 */
import { loop as eddyLoop, macrotask, strategy } from '@eddy/scheduler'
import type { LoopKind, LoopRun, QueueImpl, QueueRun, TurnKind, TurnRun } from './api.ts'

type Fn = () => void
type Post = (fn: Fn) => void

const g = globalThis as any
const nativeSetTimeout: (fn: Fn, ms: number) => number = g.setTimeout.bind(g)
const nativeClearTimeout: (id: number) => void = g.clearTimeout.bind(g)
const nativePostTask: ((fn: Fn) => Promise<unknown>) | undefined =
  typeof g.scheduler?.postTask === 'function' ? g.scheduler.postTask.bind(g.scheduler) : undefined

/** A fresh raw poster per measurement, with a dispose that releases what it created. */
function rawPoster(kind: Exclude<TurnKind, 'macrotask'>): { post: Post; dispose: Fn } {
  switch (kind) {
    case 'messageChannel': {
      const channel = new MessageChannel()
      const waiting: Fn[] = []
      channel.port1.onmessage = () => waiting.shift()!()
      return {
        post: (fn) => {
          waiting.push(fn)
          channel.port2.postMessage(0)
        },
        dispose: () => channel.port1.close(),
      }
    }
    case 'postMessage': {
      const key = `eddy-bench:${Math.random()}`
      const waiting: Fn[] = []
      const onMessage = (e: MessageEvent) => {
        if (e.source === window && e.data === key) waiting.shift()!()
      }
      window.addEventListener('message', onMessage)
      return {
        post: (fn) => {
          waiting.push(fn)
          window.postMessage(key, '*')
        },
        dispose: () => window.removeEventListener('message', onMessage),
      }
    }
    case 'setTimeout':
      return { post: (fn) => void nativeSetTimeout(fn, 0), dispose: () => {} }
    case 'postTask':
      if (!nativePostTask) throw new Error('scheduler.postTask is not available')
      return { post: (fn) => void nativePostTask(fn), dispose: () => {} }
  }
}

function poster(kind: TurnKind): { post: Post; dispose: Fn } {
  if (kind !== 'macrotask') return rawPoster(kind)
  return { post: (fn) => void macrotask(fn), dispose: () => {} }
}

export function turnKinds(): TurnKind[] {
  const kinds: TurnKind[] = ['macrotask']
  if (nativePostTask) kinds.push('postTask')
  kinds.push('messageChannel', 'postMessage', 'setTimeout')
  return kinds
}

/** A chain of turns: every callback posts the next one, until durationMs has passed. */
export function turns(kind: TurnKind, durationMs: number): Promise<TurnRun> {
  const { post, dispose } = poster(kind)
  return new Promise((resolve) => {
    let count = 0
    const t0 = performance.now()
    const tick = () => {
      count++
      const now = performance.now()
      if (now - t0 < durationMs) return post(tick)
      dispose()
      const ms = now - t0
      resolve({ kind, turns: count, ms, perSecond: (count * 1000) / ms })
    }
    post(tick)
  })
}

/** The raw primitive eddy chose here; the hand-written dispatcher uses the same one, so only the queue differs. */
function eddyPrimitive(): Exclude<TurnKind, 'macrotask'> {
  if (strategy === 'postTask' && nativePostTask) return 'postTask'
  if (strategy === 'postMessage' || strategy === 'setTimeout') return strategy
  return 'messageChannel'
}

/**
 * A hand-written batched dispatcher: one array, one post per non-empty batch, a snapshot drained per wake-up, a
 * try/catch per callback. No time slicing and no cancellation: the least a batched queue can do.
 */
function handWrittenDispatcher(): { enqueue: Post; dispose: Fn } {
  const { post, dispose } = rawPoster(eddyPrimitive())
  let queue: Fn[] = []
  let posted = false
  const drain = () => {
    posted = false
    const batch = queue
    queue = []
    // A throwing callback must not lose the rest of the batch (the same contract eddy's queue keeps).
    for (let i = 0; i < batch.length; i++) {
      try {
        batch[i]!()
      } catch (e) {
        reportError(e)
      }
    }
  }
  return {
    enqueue: (fn) => {
      queue.push(fn)
      if (!posted) {
        posted = true
        post(drain)
      }
    },
    dispose,
  }
}

export function queueImpls(): QueueImpl[] {
  return ['macrotask', 'handWritten']
}

/** perTurn callbacks are queued at once; the last of them queues the next batch, until durationMs has passed. */
export function queue(impl: QueueImpl, perTurn: number, durationMs: number): Promise<QueueRun> {
  let enqueue: Post
  let dispose: Fn = () => {}
  if (impl === 'macrotask') {
    enqueue = (fn) => void macrotask(fn)
  } else {
    ;({ enqueue, dispose } = handWrittenDispatcher())
  }
  return new Promise((resolve) => {
    let callbacks = 0
    let left = 0
    const t0 = performance.now()
    const callback = () => {
      callbacks++
      if (--left > 0) return
      const now = performance.now()
      if (now - t0 < durationMs) return batch()
      dispose()
      const ms = now - t0
      resolve({ impl, perTurn, callbacks, ms, perSecond: (callbacks * 1000) / ms })
    }
    const batch = () => {
      left = perTurn
      for (let i = 0; i < perTurn; i++) enqueue(callback)
    }
    batch()
  })
}

export function loopKinds(): LoopKind[] {
  return ['loop', 'loopAsync', 'microtask', 'macrotask', 'hybrid10']
}

/**
 * Runs a trivial step as fast as the kind allows for durationMs (the clock is read every 1024 iterations, the
 * same for every kind), while a 10 ms setTimeout chain records how late timers fire.
 */
export async function loop(kind: LoopKind, durationMs: number): Promise<LoopRun> {
  let worst = 0
  let expected = 0
  let timer = 0
  let probing = true
  let lastProbe: Fn = () => {}
  const probeFired = new Promise<void>((resolve) => (lastProbe = resolve))
  const probe = () => {
    const now = performance.now()
    if (expected) worst = Math.max(worst, now - expected)
    if (!probing) return lastProbe()
    expected = now + 10
    timer = nativeSetTimeout(probe, 10)
  }
  probe()

  let iterations = 0
  const t0 = performance.now()
  const end = t0 + durationMs
  const finished = (): boolean => (++iterations & 1023) === 0 && performance.now() >= end

  if (kind === 'loop' || kind === 'loopAsync') {
    // A sync step runs back to back inside a time slice; an async step costs a microtask per iteration.
    let stopNow = false
    let l: ReturnType<typeof eddyLoop> | undefined = undefined
    const step = () => {
      if (finished()) {
        stopNow = true
        l?.stop()
      }
    }
    l = eddyLoop(kind === 'loop' ? step : async () => step(), { budgetMs: 5 })
    if (stopNow) l.stop()
    await l.done
  } else {
    const { post, dispose } = rawPoster(eddyPrimitive())
    const turn = () => new Promise<void>((resolve) => post(resolve))
    // Seed 002's loops: `await` per iteration (microtask recursion), a macrotask per iteration, or a macrotask
    // every 10 iterations and microtasks in between.
    const every = kind === 'microtask' ? 0 : kind === 'macrotask' ? 1 : 10
    while (!finished()) {
      if (every && iterations % every === 0) await turn()
      else await null
    }
    dispose()
  }
  const ms = performance.now() - t0

  // A loop that starved the timers has a probe overdue right now: let it fire and count its lateness.
  probing = false
  await Promise.race([probeFired, new Promise<void>((r) => nativeSetTimeout(r, 50))])
  nativeClearTimeout(timer)
  return { kind, iterations, ms, nsPerIteration: (ms * 1e6) / iterations, worstTimerDelayMs: worst }
}
