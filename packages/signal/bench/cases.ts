/**
 * The benchmark cases: the usual propagation shapes of reactive-library benchmarks, written for
 * this project, plus eddy's own "bound writes". Each case builds its graph untimed (`prepare`),
 * times only `run`, then `check`s the result against plain arithmetic: a framework that gives a
 * wrong answer is reported as an error, never timed as a win. No Node-only imports: a browser page
 * imports this module too (the "bound writes" case needs a `document`).
 */
import type { Adapter, Comp, Sig } from './adapters.ts'
import { textOf } from './adapters.ts'

/** One framework's instance of a case. */
export interface Trial {
  /** The timed part. */
  run(): void
  /** Returns undefined when the result is right, else what was wrong. */
  check(): string | undefined
  /** Releases effects, bindings and nodes (untimed). */
  dispose(): void
}

export interface Case {
  readonly name: string
  /**
   * 'graph' cases count toward the geometric mean against alien-signals; the 'dom' case compares
   * coalesced rendering with the hand-written reference instead (sync effect rendering is a
   * different kind of work, so its huge ratio to alien-signals would swamp the mean).
   */
  readonly group: 'graph' | 'dom'
  /** Whether the hand-written reference adapter runs this case. */
  readonly reference: boolean
  /** What the case measures, for the README and the report. */
  readonly description: string
  /** Builds the untimed part of the case on `fw`. */
  prepare(fw: Adapter): Trial
}

/** Returns a message when `actual` differs from `expected`. */
function differ(what: string, actual: unknown, expected: unknown): string | undefined {
  return Object.is(actual, expected) ? undefined : `${what}: got ${String(actual)}, expected ${String(expected)}`
}

/** The first failed check, if any. */
function first(...messages: (string | undefined)[]): string | undefined {
  return messages.find((m) => m !== undefined)
}

/** A signal seen as a readable node (signals and computeds are read the same way). */
const asNode = <T>(s: Sig<T>): Sig<T> | Comp<T> => s

/** A computed summing `nodes`, with an effect watching it; counts the sum's recomputes and the effect's runs. */
function watchedSum(fw: Adapter, nodes: Comp<number>[]) {
  const w = { recomputes: 0, runs: 0, seen: -1, stop: (): void => {} }
  const sum = fw.computed(() => {
    w.recomputes++
    let s = 0
    for (let i = 0; i < nodes.length; i++) s += fw.read(nodes[i]!)
    return s
  })
  w.stop = fw.effect(() => {
    w.seen = fw.read(sum)
    w.runs++
  })
  return w
}

function disposeAll(disposers: (() => void)[]): void {
  for (const d of disposers) d()
  disposers.length = 0
}

/** deep: one signal, a chain of 50 computeds, one effect at the end; every write runs the whole chain. */
function deep(length: number, writes: number): Case {
  return {
    name: `deep (chain of ${length})`,
    group: 'graph',
    reference: false,
    description: `a signal feeding a chain of ${length} computeds (each +1) with an effect at the end; ${writes} writes`,
    prepare(fw) {
      const src = fw.signal(0)
      let end: Sig<number> | Comp<number> = asNode(src)
      for (let i = 0; i < length; i++) {
        const prev = end
        end = fw.computed(() => fw.read(prev) + 1)
      }
      const tail = end
      let runs = 0
      let seen = -1
      const stop = fw.effect(() => {
        seen = fw.read(tail)
        runs++
      })
      return {
        run() {
          for (let i = 1; i <= writes; i++) fw.write(src, i)
        },
        check: () => first(differ('effect runs', runs, writes + 1), differ('end value', seen, writes + length)),
        dispose: stop,
      }
    },
  }
}

/** broad: one signal with 50 independent two-computed branches, an effect on each. */
function broad(width: number, writes: number): Case {
  return {
    name: `broad (${width} branches)`,
    group: 'graph',
    reference: false,
    description: `a signal with ${width} branches (computed +i, computed +1, effect); ${writes} writes`,
    prepare(fw) {
      const src = fw.signal(0)
      const stops: (() => void)[] = []
      let runs = 0
      let sum = 0
      for (let i = 0; i < width; i++) {
        const a = fw.computed(() => fw.read(src) + i)
        const b = fw.computed(() => fw.read(a) + 1)
        stops.push(
          fw.effect(() => {
            sum += fw.read(b)
            runs++
          }),
        )
      }
      return {
        run() {
          for (let i = 1; i <= writes; i++) fw.write(src, i)
        },
        // Each write adds (i + k + 1) for every branch k.
        check: () => {
          let expected = 0
          for (let v = 0; v <= writes; v++) expected += width * (v + 1) + (width * (width - 1)) / 2
          return first(differ('effect runs', runs, width * (writes + 1)), differ('sum seen by effects', sum, expected))
        },
        dispose: () => disposeAll(stops),
      }
    },
  }
}

/** diamond: one signal, `width` computeds on it, one computed joining them; glitch-free means one join per write. */
function diamond(width: number, writes: number): Case {
  return {
    name: `diamond (${width} wide)`,
    group: 'graph',
    reference: false,
    description: `a signal, ${width} computeds on it, one computed summing them, an effect; the sum must run once per write; ${writes} writes`,
    prepare(fw) {
      const src = fw.signal(0)
      const branches: Comp<number>[] = []
      for (let i = 0; i < width; i++) branches.push(fw.computed(() => fw.read(src) + i))
      const w = watchedSum(fw, branches)
      return {
        run() {
          for (let i = 1; i <= writes; i++) fw.write(src, i)
        },
        check: () =>
          first(
            differ('join recomputes', w.recomputes, writes + 1),
            differ('effect runs', w.runs, writes + 1),
            differ('sum', w.seen, width * writes + (width * (width - 1)) / 2),
          ),
        dispose: w.stop,
      }
    },
  }
}

/** triangle: a chain of 10 where one computed reads every link of the chain. */
function triangle(length: number, writes: number): Case {
  return {
    name: `triangle (${length})`,
    group: 'graph',
    reference: false,
    description: `a chain of ${length} computeds and one computed summing every link, an effect; ${writes} writes`,
    prepare(fw) {
      const src = fw.signal(0)
      const links: Comp<number>[] = []
      let prev: Sig<number> | Comp<number> = asNode(src)
      for (let i = 0; i < length; i++) {
        const p = prev
        const c = fw.computed(() => fw.read(p) + 1)
        links.push(c)
        prev = c
      }
      const w = watchedSum(fw, links)
      return {
        run() {
          for (let i = 1; i <= writes; i++) fw.write(src, i)
        },
        check: () =>
          first(
            differ('sum recomputes', w.recomputes, writes + 1),
            differ('effect runs', w.runs, writes + 1),
            differ('sum', w.seen, length * writes + (length * (length + 1)) / 2),
          ),
        dispose: w.stop,
      }
    },
  }
}

/** mux: 100 signals into one computed array, 100 computeds picking one element each, an effect on each. */
function mux(size: number, rounds: number): Case {
  return {
    name: `mux (${size} in, ${size} out)`,
    group: 'graph',
    reference: false,
    description: `${size} signals joined into one computed array, split into ${size} computeds with an effect each; each write changes one output (equality cut-off on the other ${size - 1}); ${rounds * size} writes`,
    prepare(fw) {
      const inputs: Sig<number>[] = []
      for (let i = 0; i < size; i++) inputs.push(fw.signal(0))
      const joined = fw.computed(() => inputs.map((s) => fw.read(s)))
      const stops: (() => void)[] = []
      let runs = 0
      let sum = 0
      for (let i = 0; i < size; i++) {
        const out = fw.computed(() => fw.read(joined)[i]!)
        stops.push(
          fw.effect(() => {
            sum += fw.read(out)
            runs++
          }),
        )
      }
      return {
        run() {
          for (let r = 1; r <= rounds; r++) for (let i = 0; i < size; i++) fw.write(inputs[i]!, r)
        },
        check: () =>
          first(
            differ('effect runs', runs, size * (rounds + 1)),
            differ('sum seen by effects', sum, (size * rounds * (rounds + 1)) / 2),
          ),
        dispose: () => disposeAll(stops),
      }
    },
  }
}

/** repeated observers: one computed reads the same signal 30 times. */
function repeated(reads: number, writes: number): Case {
  return {
    name: `repeated observers (${reads} reads)`,
    group: 'graph',
    reference: false,
    description: `a computed that reads the same signal ${reads} times, an effect on it; ${writes} writes`,
    prepare(fw) {
      const src = fw.signal(0)
      const c = fw.computed(() => {
        let s = 0
        for (let i = 0; i < reads; i++) s += fw.read(src)
        return s
      })
      let runs = 0
      let seen = -1
      const stop = fw.effect(() => {
        seen = fw.read(c)
        runs++
      })
      return {
        run() {
          for (let i = 1; i <= writes; i++) fw.write(src, i)
        },
        check: () => first(differ('effect runs', runs, writes + 1), differ('value', seen, reads * writes)),
        dispose: stop,
      }
    },
  }
}

/** unstable: a computed whose dependencies flip between two computeds on every write. */
function unstable(reads: number, writes: number): Case {
  const expected = (v: number) => reads * (v % 2 ? v * 2 : -v)
  return {
    name: 'unstable (dependencies flip)',
    group: 'graph',
    reference: false,
    description: `a computed that reads the signal, then ${reads} times either "double" (odd) or "negate" (even): its dependency set changes on every write; ${writes} writes`,
    prepare(fw) {
      const src = fw.signal(0)
      const double = fw.computed(() => fw.read(src) * 2)
      const negate = fw.computed(() => -fw.read(src))
      const current = fw.computed(() => {
        let s = 0
        for (let i = 0; i < reads; i++) s += fw.read(src) % 2 ? fw.read(double) : fw.read(negate)
        return s
      })
      let runs = 0
      let seen = NaN
      const stop = fw.effect(() => {
        seen = fw.read(current)
        runs++
      })
      return {
        run() {
          for (let i = 1; i <= writes; i++) fw.write(src, i)
        },
        check: () => first(differ('effect runs', runs, writes + 1), differ('value', seen, expected(writes))),
        dispose: stop,
      }
    },
  }
}

/** avoidable propagation: a computed that always returns 0 must stop propagation (equality cut-off). */
function avoidable(writes: number): Case {
  return {
    name: 'avoidable propagation',
    group: 'graph',
    reference: false,
    description: `signal -> computed -> computed that always returns 0 -> 3 more computeds -> effect; after the cut-off nothing may run again; ${writes} writes`,
    prepare(fw) {
      const src = fw.signal(0)
      let cutRuns = 0
      let belowRuns = 0
      const a = fw.computed(() => fw.read(src) * 2)
      const cut = fw.computed(() => {
        cutRuns++
        fw.read(a)
        return 0
      })
      const b = fw.computed(() => {
        belowRuns++
        return fw.read(cut) + 1
      })
      const c = fw.computed(() => fw.read(b) + 2)
      const d = fw.computed(() => fw.read(c) + 3)
      let runs = 0
      let seen = -1
      const stop = fw.effect(() => {
        seen = fw.read(d)
        runs++
      })
      return {
        run() {
          for (let i = 1; i <= writes; i++) fw.write(src, i)
        },
        check: () =>
          first(
            differ('cut-off computed runs', cutRuns, writes + 1),
            differ('runs below the cut-off', belowRuns, 1),
            differ('effect runs', runs, 1),
            differ('value', seen, 6),
          ),
        dispose: stop,
      }
    },
  }
}

type Layer = [number, number, number, number]
/** One cellx layer on plain numbers: the oracle for the reactive version. */
const nextLayer = ([a, b, c, d]: Layer): Layer => [b, a - c, b + d, c]
function cellxOracle(layers: number, start: Layer): Layer {
  let l = start
  for (let i = 0; i < layers; i++) l = nextLayer(l)
  return l
}

/**
 * cellx: the classic layered benchmark of the cellx library. Each layer has 4 cells computed from the
 * layer above (a = b', b = a' - c', c = b' + d', d = c'), each observed by an effect. Timed: building
 * the layers, then one batched write of all 4 inputs.
 */
function cellx(layers: number): Case {
  const before = cellxOracle(layers, [1, 2, 3, 4])
  const after = cellxOracle(layers, [4, 3, 2, 1])
  return {
    name: `cellx ${layers}`,
    group: 'graph',
    reference: false,
    description: `build ${layers} layers of 4 cells (an effect on each), read the last layer, write all 4 inputs in one batch, read again`,
    prepare(fw) {
      const stops: (() => void)[] = []
      let inputs: Sig<number>[] = []
      let seenBefore: number[] = []
      let seenAfter: number[] = []
      let sink = 0
      return {
        run() {
          inputs = [fw.signal(1), fw.signal(2), fw.signal(3), fw.signal(4)]
          let layer: (Sig<number> | Comp<number>)[] = inputs
          for (let i = 0; i < layers; i++) {
            const [a, b, c, d] = layer as [Comp<number>, Comp<number>, Comp<number>, Comp<number>]
            const next = [
              fw.computed(() => fw.read(b)),
              fw.computed(() => fw.read(a) - fw.read(c)),
              fw.computed(() => fw.read(b) + fw.read(d)),
              fw.computed(() => fw.read(c)),
            ]
            for (const cell of next) stops.push(fw.effect(() => void (sink += fw.read(cell))))
            layer = next
          }
          const end = layer
          seenBefore = end.map((c) => fw.read(c))
          fw.batch(() => {
            fw.write(inputs[0]!, 4)
            fw.write(inputs[1]!, 3)
            fw.write(inputs[2]!, 2)
            fw.write(inputs[3]!, 1)
          })
          seenAfter = end.map((c) => fw.read(c))
        },
        check: () =>
          first(
            differ('last layer before', seenBefore.join(), before.join()),
            differ('last layer after', seenAfter.join(), after.join()),
          ),
        dispose() {
          disposeAll(stops)
          inputs = []
        },
      }
    },
  }
}

/** create signals: allocation of N signals. */
function createSignals(count: number): Case {
  return {
    name: `create ${count / 1000}k signals`,
    group: 'graph',
    reference: false,
    description: `create ${count} signals`,
    prepare(fw) {
      let all: Sig<number>[] = []
      return {
        run() {
          all = new Array(count)
          for (let i = 0; i < count; i++) all[i] = fw.signal(i)
        },
        check: () => first(differ('count', all.length, count), differ('last value', fw.read(all[count - 1]!), count - 1)),
        dispose() {
          all = []
        },
      }
    },
  }
}

/** create computeds: N computeds over 1,000 signals, each read once (lazy libraries link on first read). */
function createComputeds(count: number, sources: number): Case {
  return {
    name: `create ${count / 1000}k computeds`,
    group: 'graph',
    reference: false,
    description: `create ${count} computeds over ${sources} signals and read each once (lazy libraries do their linking on the first read)`,
    prepare(fw) {
      const srcs: Sig<number>[] = []
      for (let i = 0; i < sources; i++) srcs.push(fw.signal(i))
      let all: Comp<number>[] = []
      let sum = 0
      return {
        run() {
          all = new Array(count)
          for (let i = 0; i < count; i++) {
            const s = srcs[i % sources]!
            all[i] = fw.computed(() => fw.read(s) + 1)
          }
          sum = 0
          for (let i = 0; i < count; i++) sum += fw.read(all[i]!)
        },
        check: () => {
          let expected = 0
          for (let i = 0; i < count; i++) expected += (i % sources) + 1
          return differ('sum', sum, expected)
        },
        dispose() {
          all = []
        },
      }
    },
  }
}

/**
 * bound writes: the talk's benchmark. 3 signals bound to 3 elements, N writes each, then one flush.
 * eddy and the hand-written reference coalesce (one DOM write per element); the other libraries
 * render through an effect, so every write is a DOM write.
 */
function boundWrites(writes: number): Case {
  const label = writes >= 1e6 ? `${writes / 1e6}M` : `${writes / 1e3}k`
  return {
    name: `bound writes (3 x ${label})`,
    group: 'dom',
    reference: true,
    description: `3 signals bound to 3 elements' text, ${writes} writes to each, then one flush; the final text must be the last value`,
    prepare(fw) {
      const els: Element[] = []
      const sigs: Sig<number>[] = []
      const unbinds: (() => void)[] = []
      for (let i = 0; i < 3; i++) {
        const el = document.createElement('p')
        document.body.appendChild(el)
        const s = fw.signal(0)
        unbinds.push(fw.bind(s, el))
        els.push(el)
        sigs.push(s)
      }
      fw.flush()
      const [a, b, c] = sigs as [Sig<number>, Sig<number>, Sig<number>]
      return {
        run() {
          for (let i = 1; i <= writes; i++) {
            fw.write(a, i)
            fw.write(b, i)
            fw.write(c, i)
          }
          fw.flush()
        },
        check: () => first(...els.map((el, i) => differ(`text of element ${i}`, el.textContent, textOf(writes)))),
        dispose() {
          disposeAll(unbinds)
          for (const el of els) el.remove()
        },
      }
    },
  }
}

export interface CaseOptions {
  /** Fewer writes in the "bound writes" case (100k instead of 1M each) for a quick run. */
  quick?: boolean
}

/** All cases, in report order. Iteration counts keep one alien-signals run in the 2–30 ms range. */
export function createCases(options: CaseOptions = {}): Case[] {
  return [
    deep(50, 2_000),
    broad(50, 1_000),
    diamond(5, 20_000),
    triangle(10, 10_000),
    mux(100, 30),
    repeated(30, 20_000),
    unstable(20, 10_000),
    avoidable(50_000),
    cellx(1000),
    cellx(2500),
    createSignals(100_000),
    createComputeds(100_000, 1_000),
    boundWrites(options.quick ? 100_000 : 1_000_000),
  ]
}
