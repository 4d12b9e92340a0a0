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
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  // An even count (the A B B A cases measure twice a round): the mean of the middle two, not the upper one.
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

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

/** A measurement that can run in pieces: each call works for about `ms` and resolves with the units it did. */
type Chunked = { run: (ms: number) => Promise<number>; dispose: Fn }

/**
 * A copy of `f` with code and type feedback of its own, compiled again from its source text, so `f` must use nothing
 * but its parameters and globals (a bundler option that wraps functions in a helper, such as esbuild's keepNames,
 * would break the copy with a ReferenceError). V8 shares optimized code and type feedback among all the closures of
 * one source literal: with one chain function for both sides, each side ran code shaped by the other, and a ratio
 * moved with what ran before it (Node: the queue at 1,000 per turn read 1.48x-1.53x of the hand-written one after
 * pairs of one side with itself at 100, 0.72x as the first pair; macrotask / raw setImmediate read 0.92x-0.95x with
 * one chain shared, 0.93x-0.96x with a copy each, and 0.97x in a probe written out with separate code for each side).
 */
const own = <F extends (...args: any[]) => unknown>(f: F): F => new Function(`return ${f}`)()

/** Chains posts for `ms` and resolves with the turns it ran (seed 001's checker). Self-contained: see own(). */
const turnRun = (post: Post, ms: number) =>
  new Promise<number>((resolve) => {
    let n = 0
    const start = performance.now()
    const turn = () => {
      n++
      if (performance.now() - start < ms) return void post(turn)
      resolve(n)
    }
    post(turn)
  })

/** A chain of posts of `kind` with code of its own, in pieces; units are turns. */
function turnChain(kind: TurnKind): Chunked {
  const { post, dispose } = kind === 'macrotask' ? { post: createQueue().macrotask, dispose() {} } : raw(kind)
  const run = own(turnRun)
  return { run: (ms) => run(post, ms), dispose }
}

/** Turns per second of a chain of posts of `kind` for `ms` (seed 001's checker). */
export async function turns(kind: TurnKind, ms: number): Promise<number> {
  const chain = turnChain(kind)
  const start = now()
  const n = await chain.run(ms)
  const spent = now() - start
  chain.dispose()
  return (n * 1000) / spent
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

/**
 * Queues `perTurn` callbacks at once, the last of which queues the next batch, for `ms`; resolves with the callbacks
 * run. Self-contained: see own().
 */
const batchRun = (enqueue: Post, perTurn: number, ms: number) =>
  new Promise<number>((resolve) => {
    let callbacks = 0
    let left = 0
    const start = performance.now()
    const callback = () => {
      callbacks++
      if (--left > 0) return
      if (performance.now() - start < ms) return batch()
      resolve(callbacks)
    }
    const batch = () => {
      left = perTurn
      for (let i = 0; i < perTurn; i++) enqueue(callback)
    }
    batch()
  })

/** Batches of `perTurn` callbacks on the `impl` queue with code of their own, in pieces; units are callbacks. */
function queueBatches(impl: QueueImpl, perTurn: number): Chunked {
  // Both on the primitive eddy detected, so only the queue differs.
  const { enqueue, dispose } = impl === 'eddy' ? { enqueue: createQueue().macrotask, dispose() {} } : handWritten(strategy)
  const run = own(batchRun)
  return { run: (ms) => run(enqueue, perTurn, ms), dispose }
}

/** How long one piece of a side-by-side measurement runs, in ms. */
const PIECE_MS = 10

/**
 * Measures `a` and `b` side by side for `ms` each, in pieces of PIECE_MS alternating A B B A A B ..., and resolves
 * with each one's units per second (of CPU time where `cpu` is given, else of wall time). The machine's slow and
 * fast phases then land on both alike: on this VM they come and go within tens of ms. Measured in Node against
 * itself (the queue at 1, 10 and 100 callbacks per turn, the hand-written one at 10 and 100, a macrotask chain; 6
 * rounds each), a case read 0.70x-1.19x of itself in 200 ms blocks A B B A, 0.86x-1.10x in 50 ms pieces and
 * 0.96x-1.03x in 10 ms pieces.
 */
async function sideBySide(a: Chunked, b: Chunked, ms: number, cpu?: () => number): Promise<[number, number]> {
  const clock = cpu ?? now
  const units = [0, 0]
  const spent = [0, 0]
  const pieces = Math.max(2, Math.round(ms / PIECE_MS))
  // A piece each, not counted, for the fresh code of each side to warm up alike.
  await a.run(PIECE_MS)
  await b.run(PIECE_MS)
  for (let i = 0; i < pieces; i++) {
    for (const k of i % 2 ? [1, 0] : [0, 1]) {
      const t0 = clock()
      units[k] += await (k ? b : a).run(PIECE_MS)
      spent[k] += clock() - t0
    }
  }
  a.dispose()
  b.dispose()
  return [(units[0] * 1000) / spent[0], (units[1] * 1000) / spent[1]]
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
  /**
   * Length of each lone turn-rate measurement, ms (twice this for setTimeout). Each case of a ratio gets twice this,
   * in 10 ms pieces, after one uncounted 10 ms piece.
   */
  ms?: number
  /** Iterations per loop run (a macrotask per iteration: a tenth; loop and microtask: 8 pieces of a half each). */
  iterations?: number
  /** Progress lines. */
  log?: (line: string) => void
  /** Run only these groups (default: all). */
  only?: ('turns' | 'queue' | 'loops')[]
  /**
   * A CPU-time clock in ms (Node: process.cpuUsage). When given, CPU-bound cases are scaled to CPU time, which a
   * shared, overloaded machine disturbs far less than wall time (a descheduled process burns no CPU). Timer delays
   * and setTimeout turn rates (which wait) stay in wall time.
   */
  cpu?: () => number
}

/** Every table, medians over rounds, with the ratios the issue sets targets for (a group not run is empty / NaN). */
export interface Results {
  host: string
  strategy: string
  rounds: number
  /** Whether rates and ns were normalized to CPU time. */
  cpu: boolean
  turns: { kind: TurnKind; perSecond: number }[]
  turnRatio: { primitive: RawKind; ratio: number }
  queue: { perTurn: number; eddy: number; handWritten: number; ratio: number }[]
  /** `idle` is the noise floor: the same timer chain with nothing running, as long as the loop case's 8 pieces. */
  loops: ({ kind: LoopKind | 'idle' } & LoopRun)[]
  loopRatio: number
}

/** Measures the worst lateness of a 1 ms timer chain over `ms` with nothing else running (the machine's noise). */
function idleRun(ms: number): Promise<LoopRun> {
  return new Promise((resolve) => {
    let worst = 0
    let due = now() + 1
    const end = now() + ms
    const watch = () => {
      const t = now()
      worst = Math.max(worst, t - due)
      due = t + 1
      t < end ? setTimeout(watch, 1) : resolve({ nsPerIteration: 0, worstTimerDelayMs: worst })
    }
    setTimeout(watch, 1)
  })
}

/** Runs every case side by side, rounds interleaved, and returns medians and ratios. */
export async function run(options: RunOptions = {}): Promise<Results> {
  const { rounds = 5, ms = 200, iterations = 1_000_000, log = () => {}, only = ['turns', 'queue', 'loops'] } = options
  const kinds: TurnKind[] = ['macrotask', ...rawKinds()]
  const sizes = [1, 10, 100, 1000]
  const loopKinds: LoopKind[] = ['loop', 'microtask', 'macrotask', 'hybrid10']
  const samples = new Map<string, number[]>()
  const add = (key: string, value: number) => samples.set(key, [...(samples.get(key) ?? []), value])
  // Runs `f` and returns wall / cpu (1 without a CPU clock), to turn a wall-time rate into a CPU-time one.
  const cpuFactor = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
    if (!options.cpu) return [await f(), 1]
    const c0 = options.cpu()
    const t0 = now()
    const value = await f()
    return [value, (now() - t0) / Math.max(options.cpu() - c0, 1e-3)]
  }
  const med = (key: string) => median(samples.get(key)!)
  // Ratios are taken within each round (the two measured side by side), then their median: drift in the machine's
  // load between rounds then cancels out instead of landing on one side of the ratio. A ratio's two cases alternate
  // in pieces, A B B A A B ..., A first one round and B first the next: the turn and queue cases in 10 ms pieces
  // (sideBySide), loop() and microtask recursion in runs of half of `iterations` (20-50 ms in Chromium: a loop piece
  // must span several slices to pay its yields, and be long against the timer delay it lets happen). Measured in
  // Chromium, 6 rounds, loop against itself: 0.82x-1.16x in A B B A runs of 2M iterations, 0.93x-1.08x in pieces of
  // 500k; loop / microtask 1.04x-1.50x and 1.10x-1.28x.
  // With --expose-gc, a full gc() before each case (each pair of alternating cases) as well.
  const gc: () => void = g.gc ?? (() => {})
  for (let r = 0; r < rounds; r++) {
    // Rotate the order every round so that no case always runs first (JIT warm-up, GC debt).
    const rot = <T>(xs: T[]) => xs.map((_, i) => xs[(i + r) % xs.length])
    // Two cases measured side by side in pieces, 2 x ms each (as long as the A B B A blocks they replaced): A first
    // this round, B first the next. Adds both rates, and A / B.
    const pair = async (keyA: string, a: Chunked, keyB: string, b: Chunked, ratioKey: string) => {
      gc()
      // A setTimeout chain waits, and burns almost no CPU: wall time there, as for the lone setTimeout case.
      const cpu = strategy === 'setTimeout' ? undefined : options.cpu
      const [rateA, rateB] = r % 2 ? (await sideBySide(b, a, 2 * ms, cpu)).reverse() : await sideBySide(a, b, 2 * ms, cpu)
      add(keyA, rateA!)
      add(keyB, rateB!)
      add(ratioKey, rateA! / rateB!)
    }
    if (only.includes('turns')) {
      for (const kind of rot(kinds.filter((k) => k !== 'macrotask' && k !== strategy))) {
        gc()
        if (kind === 'setTimeout') add(`turns ${kind}`, await turns(kind, ms * 2))
        else {
          const [rate, f] = await cpuFactor(() => turns(kind, ms))
          add(`turns ${kind}`, rate * f)
        }
      }
      await pair('turns macrotask', turnChain('macrotask'), `turns ${strategy}`, turnChain(strategy), 'turns ratio')
    }
    if (only.includes('queue')) {
      for (const n of sizes) {
        await pair(`queue ${n} eddy`, queueBatches('eddy', n), `queue ${n} handWritten`, queueBatches('handWritten', n), `queue ${n} ratio`)
      }
    }
    if (only.includes('loops')) {
      for (const kind of rot<LoopKind>(['macrotask', 'hybrid10'])) {
        gc()
        const [res, f] = await cpuFactor(() => loopRun(kind, kind === 'macrotask' ? iterations / 10 : iterations))
        add(`ns ${kind}`, res.nsPerIteration / f)
        add(`worst ${kind}`, res.worstTimerDelayMs)
      }
      // loop() and microtask recursion: 8 pieces each of half of `iterations`, alternating. Per iteration, the mean
      // over the pieces (all of one length); the worst timer delay, the worst of any piece.
      gc()
      const ns = { loop: 0, microtask: 0 }
      const worst = { loop: 0, microtask: 0 }
      for (let i = 0; i < 8; i++) {
        for (const kind of (i + r) % 2 ? (['microtask', 'loop'] as const) : (['loop', 'microtask'] as const)) {
          const [res, f] = await cpuFactor(() => loopRun(kind, iterations / 2))
          ns[kind] += res.nsPerIteration / f / 8
          worst[kind] = Math.max(worst[kind], res.worstTimerDelayMs)
        }
      }
      for (const kind of ['loop', 'microtask'] as const) add(`ns ${kind}`, ns[kind]), add(`worst ${kind}`, worst[kind])
      add('loop ratio', ns.loop / ns.microtask)
      // As long as the loop's 8 pieces together: the worst of a longer watch is a higher floor.
      add('worst idle', (await idleRun(Math.max((ns.loop * iterations * 4) / 1e6, 50))).worstTimerDelayMs)
    }
    log(`round ${r + 1}/${rounds} done`)
  }
  const has = (group: 'turns' | 'queue' | 'loops') => only.includes(group)
  return {
    host: typeof g.window == 'object' ? g.navigator?.userAgent ?? 'browser' : `node ${g.process?.version ?? ''}`,
    strategy,
    rounds,
    cpu: !!options.cpu,
    turns: has('turns') ? kinds.map((kind) => ({ kind, perSecond: med(`turns ${kind}`) })) : [],
    turnRatio: { primitive: strategy, ratio: has('turns') ? med('turns ratio') : NaN },
    queue: has('queue')
      ? sizes.map((perTurn) => {
          const eddy = med(`queue ${perTurn} eddy`)
          const handWritten = med(`queue ${perTurn} handWritten`)
          return { perTurn, eddy, handWritten, ratio: med(`queue ${perTurn} ratio`) }
        })
      : [],
    loops: has('loops')
      ? [
          ...loopKinds.map((kind) => ({ kind, nsPerIteration: med(`ns ${kind}`), worstTimerDelayMs: med(`worst ${kind}`) })),
          { kind: 'idle' as const, nsPerIteration: 0, worstTimerDelayMs: med('worst idle') },
        ]
      : [],
    loopRatio: has('loops') ? med('loop ratio') : NaN,
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const ratio = (n: number) => `${n.toFixed(2)}x`

/** The results as Markdown tables, with each target and whether it held. */
export function markdown(r: Results): string {
  const ok = (pass: boolean) => (pass ? 'met' : 'NOT met')
  const clock = r.cpu ? 'CPU-time normalized rates' : 'wall time'
  const lines = [`### @eddy/scheduler on ${r.host} (strategy: ${r.strategy}; medians of ${r.rounds} rounds; ${clock})`]
  lines.push('', 'Rates are medians over the rounds; each bold ratio is the median of the ratios measured within each round.')
  if (r.turns.length) {
    const base = r.turns[0].perSecond
    lines.push(
      '',
      '| turns | per second | vs eddy macrotask |',
      '|---|---:|---:|',
      ...r.turns.map((t) => `| ${t.kind === 'macrotask' ? 'eddy macrotask' : `raw ${t.kind}`} | ${fmt(t.perSecond)} | ${ratio(t.perSecond / base)} |`),
      '',
      `macrotask / raw ${r.strategy} = **${ratio(r.turnRatio.ratio)}** (target >= 0.95x: ${ok(r.turnRatio.ratio >= 0.95)})`,
    )
  }
  if (r.queue.length) {
    lines.push(
      '',
      '| callbacks per turn | eddy queue /s | hand-written batched /s | ratio |',
      '|---:|---:|---:|---:|',
      ...r.queue.map((q) => `| ${q.perTurn} | ${fmt(q.eddy)} | ${fmt(q.handWritten)} | ${ratio(q.ratio)} |`),
      '',
      `queue / hand-written: min **${ratio(Math.min(...r.queue.map((q) => q.ratio)))}** (target >= 0.9x at every size: ${ok(r.queue.every((q) => q.ratio >= 0.9))})`,
    )
  }
  if (r.loops.length) {
    const worst = (k: string) => r.loops.find((l) => l.kind === k)!.worstTimerDelayMs
    lines.push(
      '',
      '| loop (trivial async step) | ns / iteration | worst 1 ms-timer delay, ms |',
      '|---|---:|---:|',
      ...r.loops.map((l) => `| ${l.kind === 'idle' ? 'idle (noise floor)' : l.kind} | ${l.kind === 'idle' ? '-' : fmt(l.nsPerIteration)} | ${l.worstTimerDelayMs.toFixed(1)} |`),
      '',
      `loop / microtask recursion = **${ratio(r.loopRatio)}** (target <= 1.3x: ${ok(r.loopRatio <= 1.3)}); ` +
        `loop's worst timer delay ${worst('loop').toFixed(1)} ms, idle ${worst('idle').toFixed(1)} ms ` +
        `(target <= budgetMs + 10 = 15 ms: ${ok(worst('loop') <= 15)})`,
    )
  }
  return lines.join('\n')
}
