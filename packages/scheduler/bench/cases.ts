/**
 * @eddy/scheduler benchmark cases, host-agnostic: no Node-only imports, so the same module runs under Node (see
 * node.ts) and in a page (Chromium, via chromium.ts or the demo's benchmark page). Every case is measured side by
 * side with its yardstick in the same run, rounds interleaved, and reported as medians and ratios.
 *
 * - turns: turns per second of `macrotask` vs the raw host primitives, each written out here on purpose.
 * - queue: callbacks per second of eddy's queue at 1/10/100/1000 callbacks per turn vs a hand-written batched
 *   dispatcher on the same raw primitive.
 * - loops: ns per iteration and the worst timer delay of `loop()` with a trivial async step vs microtask recursion vs
 *   one macrotask per iteration vs seed 002's hybrid (10 microtasks, then a macrotask).
 */
import { createQueue, loop, strategy } from '@eddy/scheduler'

type Fn = () => void
type Post = (fn: Fn) => void

const g = globalThis as any
const now = () => performance.now()
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

/** A host primitive written out by hand: the yardstick. */
export type RawKind = 'postTask' | 'setImmediate' | 'messageChannel' | 'postMessage' | 'setTimeout'
export type TurnKind = 'macrotask' | RawKind

/** Raw primitives this host has, fastest-first in eddy's detection order. */
export function rawKinds(): RawKind[] {
  const kinds: RawKind[] = []
  if (typeof g.scheduler?.postTask == 'function') kinds.push('postTask')
  if (typeof g.setImmediate == 'function') kinds.push('setImmediate')
  if (typeof g.MessageChannel == 'function') kinds.push('messageChannel')
  if (typeof g.window == 'object' && g.window === g) kinds.push('postMessage')
  kinds.push('setTimeout')
  return kinds
}

/** A fresh raw poster (one channel / listener per measurement) and a dispose that releases it. */
function raw(kind: RawKind): { post: Post; dispose: Fn } {
  if (kind === 'postTask') return { post: (fn) => void g.scheduler.postTask(fn), dispose() {} }
  if (kind === 'setImmediate') return { post: (fn) => void g.setImmediate(fn), dispose() {} }
  if (kind === 'setTimeout') return { post: (fn) => void setTimeout(fn, 0), dispose() {} }
  const waiting: Fn[] = []
  if (kind === 'messageChannel') {
    const { port1, port2 } = new MessageChannel()
    port1.onmessage = () => waiting.shift()!()
    return { post: (fn) => { waiting.push(fn); port2.postMessage(0) }, dispose: () => port1.close() }
  }
  const key = `bench:${Math.random()}`
  const onMessage = (e: MessageEvent) => { if (e.source === g && e.data === key) waiting.shift()!() }
  g.addEventListener('message', onMessage)
  return {
    post: (fn) => { waiting.push(fn); g.postMessage(key, '*') },
    dispose: () => g.removeEventListener('message', onMessage),
  }
}

/** Turns per second of a chain of posts of `kind` for `ms` (seed 001's checker). */
export function turns(kind: TurnKind, ms: number): Promise<number> {
  const { post, dispose } = kind === 'macrotask' ? { post: createQueue().macrotask, dispose() {} } : raw(kind)
  return new Promise((resolve) => {
    let n = 0
    const start = now()
    const turn = () => {
      n++
      const spent = now() - start
      if (spent < ms) return void post(turn)
      dispose()
      resolve((n * 1000) / spent)
    }
    post(turn)
  })
}

/** A hand-written batched dispatcher: one array swapped per wake-up, one post per batch, try/catch per callback. */
function handWritten(kind: RawKind): { enqueue: Post; dispose: Fn } {
  const { post, dispose } = raw(kind)
  let queue: Fn[] = []
  let posted = false
  const drain = () => {
    posted = false
    const batch = queue
    queue = []
    for (let i = 0; i < batch.length; i++) {
      try { batch[i]() } catch (e) { setTimeout(() => { throw e }) }
    }
  }
  return { enqueue: (fn) => { queue.push(fn); if (!posted) { posted = true; post(drain) } }, dispose }
}

export type QueueImpl = 'eddy' | 'handWritten'

/** Callbacks per second: `perTurn` callbacks queued at once, the last one queues the next batch, for `ms`. */
export function queue(impl: QueueImpl, perTurn: number, ms: number): Promise<number> {
  // Both on the primitive eddy detected, so only the queue differs.
  const { enqueue, dispose } = impl === 'eddy' ? { enqueue: createQueue().macrotask, dispose() {} } : handWritten(strategy)
  return new Promise((resolve) => {
    let callbacks = 0
    let left = 0
    const start = now()
    const callback = () => {
      callbacks++
      if (--left > 0) return
      const spent = now() - start
      if (spent < ms) return batch()
      dispose()
      resolve((callbacks * 1000) / spent)
    }
    const batch = () => {
      left = perTurn
      for (let i = 0; i < perTurn; i++) enqueue(callback)
    }
    batch()
  })
}

export type LoopKind = 'loop' | 'microtask' | 'macrotask' | 'hybrid10'

/** What one loop run cost: ns per iteration, and the worst lateness of a 1 ms timer chain during the run. */
export interface LoopRun { nsPerIteration: number; worstTimerDelayMs: number }

/** Runs `iterations` trivial async steps the `kind` way, with a 1 ms timer chain watching how late timers get. */
export function loopRun(kind: LoopKind, iterations: number, budgetMs = 5): Promise<LoopRun> {
  const { post, dispose } = raw(strategy)
  return new Promise((resolve) => {
    let worst = 0
    let due = now() + 1
    let watching = true
    const watch = () => {
      const t = now()
      worst = Math.max(worst, t - due)
      due = t + 1
      if (watching) setTimeout(watch, 1)
    }
    setTimeout(watch, 1)
    const start = now()
    const finish = () => {
      const spent = now() - start
      watching = false
      // The timer may still be pending: account for a lateness it has not reported yet.
      worst = Math.max(worst, now() - due)
      dispose()
      resolve({ nsPerIteration: (spent * 1e6) / iterations, worstTimerDelayMs: worst })
    }
    // The same trivial async step for every kind: it resolves to whether there is more to do.
    let i = 0
    const step = async () => ++i < iterations
    if (kind === 'loop') {
      void loop(step, { budgetMs }).done.then(finish)
    } else if (kind === 'microtask') {
      // The classic recursion: every iteration chains on the previous promise; timers wait for all of it.
      const next = (): void => void step().then((more) => (more ? next() : finish()))
      next()
    } else if (kind === 'macrotask') {
      const next = (): void => void step().then((more) => (more ? post(next) : finish()))
      next()
    } else {
      const next = (): void => void step().then((more) => (more ? (i % 10 ? next() : post(next)) : finish()))
      next()
    }
  })
}

/** Options of {@link run}. */
export interface RunOptions {
  /** Rounds; each case's median over them is reported. */
  rounds?: number
  /** Length of each turn-rate / queue measurement, ms. */
  ms?: number
  /** Iterations per loop run (the macrotask-per-iteration case runs a tenth of them). */
  iterations?: number
  /** Progress lines. */
  log?: (line: string) => void
}

/** Every table, medians over rounds, with the ratios the issue sets targets for. */
export interface Results {
  host: string
  strategy: string
  rounds: number
  turns: { kind: TurnKind; perSecond: number }[]
  turnRatio: { primitive: RawKind; ratio: number }
  queue: { perTurn: number; eddy: number; handWritten: number; ratio: number }[]
  loops: ({ kind: LoopKind } & LoopRun)[]
  loopRatio: number
}

/** Runs every case side by side, rounds interleaved, and returns medians and ratios. */
export async function run(options: RunOptions = {}): Promise<Results> {
  const { rounds = 5, ms = 200, iterations = 1_000_000, log = () => {} } = options
  const kinds: TurnKind[] = ['macrotask', ...rawKinds()]
  const turnSamples = new Map<TurnKind, number[]>(kinds.map((k) => [k, []]))
  const sizes = [1, 10, 100, 1000]
  const queueSamples = new Map(sizes.map((n) => [n, { eddy: [] as number[], handWritten: [] as number[] }]))
  const loopKinds: LoopKind[] = ['loop', 'microtask', 'macrotask', 'hybrid10']
  const loopSamples = new Map(loopKinds.map((k) => [k, { ns: [] as number[], worst: [] as number[] }]))
  for (let r = 0; r < rounds; r++) {
    // Rotate the order every round so that no case always runs first (JIT warm-up, GC debt).
    const rot = <T>(xs: T[]) => xs.map((_, i) => xs[(i + r) % xs.length])
    for (const kind of rot(kinds)) turnSamples.get(kind)!.push(await turns(kind, kind === 'setTimeout' ? ms * 2 : ms))
    for (const n of sizes) {
      for (const impl of rot<QueueImpl>(['eddy', 'handWritten'])) queueSamples.get(n)![impl].push(await queue(impl, n, ms))
    }
    for (const kind of rot(loopKinds)) {
      const res = await loopRun(kind, kind === 'macrotask' ? iterations / 10 : iterations)
      loopSamples.get(kind)!.ns.push(res.nsPerIteration)
      loopSamples.get(kind)!.worst.push(res.worstTimerDelayMs)
    }
    log(`round ${r + 1}/${rounds} done`)
  }
  const turnsTable = kinds.map((kind) => ({ kind, perSecond: median(turnSamples.get(kind)!) }))
  const perSecond = (k: TurnKind) => turnsTable.find((t) => t.kind === k)!.perSecond
  const loops = loopKinds.map((kind) => ({
    kind,
    nsPerIteration: median(loopSamples.get(kind)!.ns),
    worstTimerDelayMs: median(loopSamples.get(kind)!.worst),
  }))
  const ns = (k: LoopKind) => loops.find((l) => l.kind === k)!.nsPerIteration
  return {
    host: typeof g.window == 'object' ? g.navigator?.userAgent ?? 'browser' : `node ${g.process?.version ?? ''}`,
    strategy,
    rounds,
    turns: turnsTable,
    turnRatio: { primitive: strategy, ratio: perSecond('macrotask') / perSecond(strategy) },
    queue: sizes.map((perTurn) => {
      const eddy = median(queueSamples.get(perTurn)!.eddy)
      const handWritten = median(queueSamples.get(perTurn)!.handWritten)
      return { perTurn, eddy, handWritten, ratio: eddy / handWritten }
    }),
    loops,
    loopRatio: ns('loop') / ns('microtask'),
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const ratio = (n: number) => `${n.toFixed(2)}x`

/** The results as Markdown tables, with each target and whether it held. */
export function markdown(r: Results): string {
  const ok = (pass: boolean) => (pass ? 'met' : 'NOT met')
  const loopWorst = r.loops.find((l) => l.kind === 'loop')!.worstTimerDelayMs
  return [
    `### @eddy/scheduler on ${r.host} (strategy: ${r.strategy}; medians of ${r.rounds} rounds)`,
    '',
    '| turns | per second | vs macrotask |',
    '|---|---:|---:|',
    ...r.turns.map((t) => `| ${t.kind === 'macrotask' ? 'eddy macrotask' : `raw ${t.kind}`} | ${fmt(t.perSecond)} | ${ratio(t.perSecond / r.turns[0].perSecond)} |`),
    '',
    `macrotask / raw ${r.turnRatio.primitive} = **${ratio(r.turnRatio.ratio)}** (target >= 0.95x: ${ok(r.turnRatio.ratio >= 0.95)})`,
    '',
    '| callbacks per turn | eddy queue /s | hand-written batched /s | ratio |',
    '|---:|---:|---:|---:|',
    ...r.queue.map((q) => `| ${q.perTurn} | ${fmt(q.eddy)} | ${fmt(q.handWritten)} | ${ratio(q.ratio)} |`),
    '',
    `queue / hand-written: min **${ratio(Math.min(...r.queue.map((q) => q.ratio)))}** (target >= 0.9x at every size: ${ok(r.queue.every((q) => q.ratio >= 0.9))})`,
    '',
    '| loop (trivial async step) | ns / iteration | worst timer delay, ms |',
    '|---|---:|---:|',
    ...r.loops.map((l) => `| ${l.kind} | ${fmt(l.nsPerIteration)} | ${l.worstTimerDelayMs.toFixed(1)} |`),
    '',
    `loop / microtask recursion = **${ratio(r.loopRatio)}** (target <= 1.3x: ${ok(r.loopRatio <= 1.3)}); ` +
      `loop's worst timer delay ${loopWorst.toFixed(1)} ms (target <= budgetMs + 10 = 15 ms: ${ok(loopWorst <= 15)})`,
  ].join('\n')
}
