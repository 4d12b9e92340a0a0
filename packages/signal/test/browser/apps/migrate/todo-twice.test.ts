// A migration trial: a team's todo app, working on @preact/signals-core 1.14, moved to @eddy/signal for its DOM
// bindings. The app is written twice in this file, once per library, on the same model code (a five-name adapter:
// signal, computed, effect, batch, untracked), and driven by the same script of user actions in Chromium. Then each
// point a migrating team would check is compared side by side, with alien-signals 3.2's function-call style where it
// helps. Each test asserts what BOTH libraries do, so a row of the README's migration notes is backed by a test that
// fails if either side changes. The differences that are eddy defects are in ./findings.test.ts (they fail there).
import { describe, expect, it } from 'vitest'
import * as P from '@preact/signals-core'
import * as A from 'alien-signals'
import * as E from '@eddy/signal'
import { Signal, batch, computed, effect, flush, untracked } from '@eddy/signal'
import { observe, sandbox } from '../../dom.ts'

const box = sandbox()
const err = (f: () => unknown): string => {
  try {
    f()
  } catch (e: any) {
    return `${e?.name}: ${e?.message}`
  }
  return 'no error'
}

// ---------------------------------------------------------------------------------------------------------------
// The model, written once against the five names both libraries export.
interface Box<T> {
  value: T
  peek(): T
}
interface Lib {
  name: 'preact' | 'eddy'
  signal<T>(v: T): Box<T>
  computed<T>(fn: () => T): { readonly value: T; peek(): T }
  effect(fn: () => void | (() => void)): () => void
  batch<T>(fn: () => T): T
  untracked<T>(fn: () => T): T
}
const preact: Lib = { name: 'preact', signal: P.signal, computed: P.computed, effect: P.effect, batch: P.batch, untracked: P.untracked }
const eddy: Lib = { name: 'eddy', signal: (v) => new Signal(v), computed, effect, batch, untracked }

type Filter = 'all' | 'active' | 'done'
interface Todo {
  readonly id: number
  readonly title: string
  readonly done: boolean
}

function model(L: Lib) {
  let nextId = 1
  const todos = L.signal<readonly Todo[]>([])
  const filter = L.signal<Filter>('all')
  const visible = L.computed(() => {
    const f = filter.value
    return todos.value.filter((t) => (f === 'all' ? true : f === 'done' ? t.done : !t.done))
  })
  const left = L.computed(() => todos.value.filter((t) => !t.done).length)
  // A computed of a computed (and of a signal).
  const summary = L.computed(() => `${left.value} of ${todos.value.length} left`)
  const log: string[] = []
  const actions = {
    add: (title: string) => void (todos.value = [...todos.value, { id: nextId++, title, done: false }]),
    toggle: (id: number) => void (todos.value = todos.value.map((t) => (t.id === id ? { ...t, done: !t.done } : t))),
    remove: (id: number) => void (todos.value = todos.value.filter((t) => t.id !== id)),
    clearDone: () => void (todos.value = todos.value.filter((t) => !t.done)),
    show: (f: Filter) => void (filter.value = f),
    // batch nested in batch: "complete all, then show what is done", called from another batch by the keyboard shortcut.
    completeAllAndShow: () =>
      L.batch(() => {
        L.batch(() => void (todos.value = todos.value.map((t) => (t.done ? t : { ...t, done: true }))))
        // Read inside the outer batch: the inner batch's write is visible already, effects have not run.
        log.push(`inside batch: ${summary.value}`)
        filter.value = 'done'
      }),
    // untracked: the analytics line reads the filter without depending on it.
    track: () => L.effect(() => void log.push(`left=${left.value} filter=${L.untracked(() => filter.value)}`)),
  }
  return { todos, filter, visible, left, summary, actions, log }
}

/** The Preact app: every DOM write is an effect (as the team had it). */
function mountPreact(root: HTMLElement) {
  const m = model(preact)
  root.innerHTML = '<ul></ul><span class="summary"></span>'
  const ul = root.querySelector('ul')!, summary = root.querySelector('.summary')!
  let listRenders = 0
  const stops = [
    P.effect(() => {
      listRenders++
      ul.replaceChildren(...m.visible.value.map((t) => Object.assign(document.createElement('li'), { textContent: t.title, className: t.done ? 'done' : '' })))
    }),
    P.effect(() => void (summary.textContent = m.summary.value)),
    m.actions.track(),
  ]
  return { m, root, listRenders: () => listRenders, dispose: () => stops.forEach((s) => s()) }
}

/** The eddy app: the same list effect; the summary through `.bind()` (the reason for the move). */
function mountEddy(root: HTMLElement) {
  const m = model(eddy)
  root.innerHTML = '<ul></ul><span class="summary"></span>'
  const ul = root.querySelector('ul')!
  let listRenders = 0
  const stopList = effect(() => {
    listRenders++
    ul.replaceChildren(...m.visible.value.map((t) => Object.assign(document.createElement('li'), { textContent: t.title, className: t.done ? 'done' : '' })))
  })
  const binding = (m.summary as E.Computed<string>).bind(root.querySelector('.summary')!)
  const stopTrack = m.actions.track()
  return { m, root, listRenders: () => listRenders, dispose: () => (stopList(), binding.dispose(), stopTrack()) }
}

const view = (root: HTMLElement) => ({
  items: [...root.querySelectorAll('li')].map((li) => (li.className ? `[x] ${li.textContent}` : `[ ] ${li.textContent}`)),
  summary: root.querySelector('.summary')!.textContent,
})

describe('the todo app, on Preact and on eddy, driven by one script', () => {
  it('shows the same list and summary after every step; list effects run the same number of times', async () => {
    const rootP = box.root.appendChild(document.createElement('section'))
    const rootE = box.root.appendChild(document.createElement('section'))
    const p = mountPreact(rootP), e = mountEddy(rootE)
    const steps: [string, (a: ReturnType<typeof model>['actions']) => void][] = [
      ['add three', (a) => (a.add('milk'), a.add('eggs'), a.add('bread'))],
      ['toggle eggs', (a) => a.toggle(2)],
      ['show active', (a) => a.show('active')],
      ['complete all and show done (nested batch)', (a) => a.completeAllAndShow()],
      ['show all', (a) => a.show('all')],
      ['toggle milk back', (a) => a.toggle(1)],
      ['remove bread', (a) => a.remove(3)],
      ['clear done', (a) => a.clearDone()],
    ]
    const trace: Record<string, unknown[]> = { preact: [], eddy: [] }
    for (const [name, step] of steps) {
      step(p.m.actions)
      step(e.m.actions)
      flush()
      trace.preact!.push([name, view(rootP), p.listRenders()])
      trace.eddy!.push([name, view(rootE), e.listRenders()])
    }
    expect(trace.eddy).toEqual(trace.preact)
    expect(trace.eddy!.at(-1)).toEqual(['clear done', { items: ['[ ] milk'], summary: '1 of 1 left' }, 11])
    // The untracked analytics line, and the read inside the nested batch, in the same order on both.
    expect(e.m.log).toEqual(p.m.log)
    expect(e.m.log).toContain('inside batch: 0 of 3 left')
    expect(e.m.log).not.toContain('left=0 filter=active') // untracked: the filter change alone did not log
    p.dispose()
    e.dispose()
    expect(box.msgs()).toEqual([])
  })

  it('the move pays: 1,000 synchronous edits cost Preact 1,000 summary writes, eddy one (the list effect: 1,000 on both)', async () => {
    const rootP = box.root.appendChild(document.createElement('section'))
    const rootE = box.root.appendChild(document.createElement('section'))
    const p = mountPreact(rootP), e = mountEddy(rootE)
    p.m.actions.add('x')
    e.m.actions.add('x')
    await Promise.resolve()
    const before = [p.listRenders(), e.listRenders()]
    const oP = observe(rootP.querySelector('.summary')!), oE = observe(rootE.querySelector('.summary')!)
    for (let i = 0; i < 1000; i++) (p.m.actions.toggle(1), e.m.actions.toggle(1))
    await Promise.resolve()
    const writesP = oP.stop().length, writesE = oE.stop().length
    expect(view(rootE)).toEqual(view(rootP))
    expect([p.listRenders() - before[0]!, e.listRenders() - before[1]!]).toEqual([1000, 1000])
    expect(writesP).toBeGreaterThanOrEqual(1000)
    expect(writesE).toBeLessThanOrEqual(2) // one textContent write (a childList record, at most one characterData)
    p.dispose()
    e.dispose()
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Point by point. Each test runs one snippet on both libraries and asserts both results.
const both = <R>(f: (L: Lib) => R): Record<'preact' | 'eddy', R> => ({ preact: f(preact), eddy: f(eddy) })

describe('point by point: the same on both', () => {
  it('subscribe calls back at once with the value, then on each change, not for an equal write; what fn reads is not tracked', () => {
    const r = both((L) => {
      const s = L.signal(1) as P.Signal<number> & E.Signal<number>, other = L.signal(0)
      const seen: number[] = []
      const off = s.subscribe((v) => void seen.push(v + other.value))
      s.value = 1
      s.value = 2
      other.value = 10
      off()
      s.value = 3
      return seen
    })
    expect(r).toEqual({ preact: [1, 2], eddy: [1, 2] })
  })

  it('a computed of a computed: lazy, each level once per change, glitch-free', () => {
    const r = both((L) => {
      const runs = { b: 0, c: 0, e: 0 }
      const a = L.signal(1)
      const b = L.computed(() => (runs.b++, a.value * 2))
      const c = L.computed(() => (runs.c++, `${b.value}/${a.value}`))
      const lazy = runs.b + runs.c
      const seen: string[] = []
      const stop = L.effect(() => void (runs.e++, seen.push(c.value)))
      a.value = 2
      a.value = 3
      stop()
      return { lazy, runs, seen }
    })
    expect(r.eddy).toEqual(r.preact)
    expect(r.eddy).toEqual({ lazy: 0, runs: { b: 3, c: 3, e: 3 }, seen: ['2/1', '4/2', '6/3'] })
  })

  it('effect cleanup: before each re-run and on dispose, with the value of its own run', () => {
    const r = both((L) => {
      const s = L.signal(0), log: string[] = []
      const stop = L.effect(() => {
        const v = s.value
        log.push(`run ${v}`)
        return () => void log.push(`clean ${v}`)
      })
      s.value = 1
      stop()
      stop()
      return log
    })
    expect(r).toEqual({ preact: ['run 0', 'clean 0', 'run 1', 'clean 1'], eddy: ['run 0', 'clean 0', 'run 1', 'clean 1'] })
  })

  it('batch nested in batch: effects run once, after the outermost; reads inside see the new values; returns fn\'s result', () => {
    const r = both((L) => {
      const a = L.signal(0), b = L.signal(0), sum = L.computed(() => a.value + b.value), log: unknown[] = []
      const stop = L.effect(() => void log.push(sum.value))
      const out = L.batch(() => {
        a.value = 1
        L.batch(() => void (b.value = 1))
        log.push(`inner done, sum reads ${sum.value}`)
        a.value = 2
        return 'result'
      })
      stop()
      return [out, log]
    })
    expect(r.eddy).toEqual(r.preact)
    expect(r.eddy).toEqual(['result', [0, 'inner done, sum reads 2', 3]])
  })

  it('untracked and peek (on a signal and on a computed) do not subscribe', () => {
    const r = both((L) => {
      const a = L.signal(0), b = L.signal(0), c = L.computed(() => b.value)
      let runs = 0
      const stop = L.effect(() => void (runs++, a.value, L.untracked(() => b.value), b.peek(), c.peek()))
      b.value = 1
      a.value = 1
      stop()
      return runs
    })
    expect(r).toEqual({ preact: 2, eddy: 2 })
  })

  it('an effect disposed from inside its own run stops; the cleanup that run returns still runs, once', () => {
    const r = both((L) => {
      const s = L.signal(0), log: string[] = []
      const stop = L.effect(() => {
        const v = s.value
        log.push(`run ${v}`)
        if (v === 1) stop()
        return () => void log.push(`clean ${v}`)
      })
      s.value = 1
      s.value = 2
      return log
    })
    expect(r).toEqual({ preact: ['run 0', 'clean 0', 'run 1', 'clean 1'], eddy: ['run 0', 'clean 0', 'run 1', 'clean 1'] })
  })

  it('an effect made in an effect outlives the outer run (both; the README says so); alien-signals disposes it', () => {
    const r = both((L) => {
      const outer = L.signal(0), inner = L.signal(0)
      let innerRuns = 0
      const stop = L.effect(() => {
        outer.value
        L.effect(() => void (inner.value, innerRuns++))
      })
      outer.value = 1
      outer.value = 2
      innerRuns = 0
      inner.value = 1
      const alive = innerRuns
      stop()
      innerRuns = 0
      inner.value = 2
      return { alive, afterOuterDisposed: innerRuns }
    })
    expect(r).toEqual({ preact: { alive: 3, afterOuterDisposed: 3 }, eddy: { alive: 3, afterOuterDisposed: 3 } })
    // alien-signals: the inner effect belongs to the outer one, and goes when it re-runs or is disposed.
    const outer = A.signal(0), inner = A.signal(0)
    let innerRuns = 0
    const stop = A.effect(() => {
      outer()
      A.effect(() => void (inner(), innerRuns++))
    })
    outer(1)
    outer(2)
    innerRuns = 0
    inner(1)
    const alive = innerRuns
    stop()
    innerRuns = 0
    inner(2)
    expect({ alive, afterOuterDisposed: innerRuns }).toEqual({ alive: 1, afterOuterDisposed: 0 })
  })

  it('a write inside a computed does not throw in Preact 1.14 either (nor in alien-signals); the written signal is updated', () => {
    const r = both((L) => {
      const s = L.signal(1), written = L.signal(0)
      const seen: number[] = []
      const stop = L.effect(() => void seen.push(written.value))
      const c = L.computed(() => ((written.value = s.value * 10), s.value))
      const read = c.value
      stop()
      return { read, written: written.peek(), seen }
    })
    expect(r).toEqual({ preact: { read: 1, written: 10, seen: [0, 10] }, eddy: { read: 1, written: 10, seen: [0, 10] } })
    const s = A.signal(1), written = A.signal(0)
    expect(A.computed(() => (written(s() * 10), s()))()).toBe(1)
    expect(written()).toBe(10)
  })

  it('an effect writing a signal it reads re-runs until stable; one that never settles ends with "Cycle detected" (eddy later)', () => {
    const converge = both((L) => {
      const s = L.signal(0)
      let runs = 0
      L.effect(() => void (runs++, s.value < 5 && (s.value = s.value + 1)))()
      return [s.peek(), runs]
    })
    expect(converge).toEqual({ preact: [5, 6], eddy: [5, 6] })
    const loop = both((L) => {
      const s = L.signal(0)
      let runs = 0
      const e = err(() => L.effect(() => void (runs++, (s.value = s.value + 1))))
      return { e, runs }
    })
    expect(loop.preact.e).toBe('Error: Cycle detected')
    expect(loop.eddy.e).toBe('Error: Cycle detected')
    // Preact: a fixed depth of 100 rounds; eddy: by what the loop does (README: "past 100 rounds ... 100 more times").
    expect(loop.preact.runs).toBeLessThan(loop.eddy.runs)
    expect(loop.eddy.runs).toBeLessThan(1000)
    // alien-signals does not re-run an effect for its own write: one run, no error.
    const s = A.signal(0)
    let runs = 0
    A.effect(() => void (runs++, s(s() + 1)))
    expect([runs, s()]).toEqual([1, 1])
  })

  it('conversions: String(), template literal, JSON.stringify, valueOf, +, == all read the value (and are tracked)', () => {
    const r = both((L) => {
      const count = L.signal(3), label = L.signal('x'), list = L.signal([1, 2]), none = L.signal(undefined)
      const doubled = L.computed(() => count.value * 2)
      const out = [String(count), `${label}:${doubled}`, JSON.stringify({ count, doubled, none, list }), count.valueOf(), +count + 1, (count as any) == 3, `${list}`, `${none}`]
      let runs = 0
      const stop = L.effect(() => void (runs++, `${count}`))
      count.value = 4
      stop()
      return [out, runs]
    })
    expect(r.eddy).toEqual(r.preact)
    expect(r.eddy).toEqual([['3', 'x:6', '{"count":3,"doubled":6,"list":[1,2]}', 3, 4, true, '1,2', 'undefined'], 2])
  })

  it('instanceof Signal: true for signals and computeds, on both; an ES2015 subclass works on both', () => {
    const r = both((L) => {
      const S: new (v: number) => { value: number } = L.name === 'eddy' ? (E.Signal as any) : (P.Signal as any)
      class Counter extends S {
        step = 2
        inc() {
          this.value += this.step
        }
      }
      const c = new Counter(1) as any
      const seen: number[] = []
      const stop = L.effect(() => void seen.push(c.value))
      c.inc()
      stop()
      return [L.signal(0) instanceof S, L.computed(() => 0) instanceof S, {} instanceof S, c instanceof Counter, c instanceof S, seen, `${c}`]
    })
    expect(r).toEqual({ preact: [true, true, false, true, true, [1, 3], '3'], eddy: [true, true, false, true, true, [1, 3], '3'] })
  })

  it('a signal holding a function stores it as is; an effect whose arrow returns one takes it for its cleanup (both)', () => {
    const r = both((L) => {
      const calls: string[] = []
      const handler = L.signal(() => void calls.push('first handler called'))
      const c = L.computed(() => handler.value)
      const same = c.value === handler.value
      const stop = L.effect(() => handler.value) // returns the function: a cleanup
      handler.value = () => void calls.push('second handler called')
      stop()
      return [same, calls]
    })
    expect(r).toEqual({ preact: [true, ['first handler called', 'second handler called']], eddy: [true, ['first handler called', 'second handler called']] })
  })
})

describe('point by point: what differs (each row of the migration notes)', () => {
  it('Signal(0) without new: eddy makes a signal, Preact throws (use signal(0) there)', () => {
    expect((E.Signal as any)(0).value).toBe(0)
    expect((E.Signal as any)(0) instanceof E.Signal).toBe(true)
    expect(err(() => (P.Signal as any).call(undefined, 0))).toMatch(/^TypeError/)
  })

  it('equality: NaN over NaN notifies in Preact and alien-signals, not eddy; -0 over 0 the reverse (signals and computeds)', () => {
    const r = both((L) => {
      const runs = (s: Box<number>, next: number) => {
        let n = 0
        const stop = L.effect(() => void (n++, s.value))
        s.value = next
        stop()
        return n - 1
      }
      const flip = L.signal(1)
      const negZero = L.computed(() => (flip.value > 0 ? 0 : -0))
      let cut = 0
      const stop = L.effect(() => void (cut++, negZero.value))
      flip.value = -1
      stop()
      return { nan: runs(L.signal(NaN), NaN), negZero: runs(L.signal(0), -0), computedNegZero: cut - 1 }
    })
    expect(r).toEqual({ preact: { nan: 1, negZero: 0, computedNegZero: 0 }, eddy: { nan: 0, negZero: 1, computedNegZero: 1 } })
    const n = A.signal(NaN)
    let runs = 0
    A.effect(() => void (runs++, n()))
    n(NaN)
    expect(runs).toBe(2)
  })

  it('this in an effect: Preact\'s Effect (this.dispose()), undefined in eddy (use what effect() returns)', () => {
    const s = new Signal(0), p = P.signal(0)
    let pRuns = 0
    P.effect(function (this: any) {
      pRuns++
      if (p.value === 1) this.dispose()
    })
    p.value = 1
    p.value = 2
    expect(pRuns).toBe(2)
    const before = box.reported.length
    effect(function (this: any) {
      if (s.value === 1) this.dispose()
    })
    s.value = 1 // reported (a browser has reportError): "Cannot read properties of undefined"
    expect(box.reported.length - before).toBe(1)
    expect(box.msgs().at(-1)).toMatch(/^TypeError: Cannot read properties of undefined/)
  })

  it('an effect\'s error: Preact throws it from the write; eddy in a browser reports it and the write returns', () => {
    const p = P.signal(0), s = new Signal(0)
    P.effect(() => void (p.value === 1 && (() => { throw new Error('p') })()))
    effect(() => void (s.value === 1 && (() => { throw new Error('e') })()))
    expect(err(() => (p.value = 1))).toBe('Error: p')
    expect(err(() => (s.value = 1))).toBe('no error')
    expect(box.msgs()).toEqual(['Error: e'])
  })

  it('a cleanup that throws: Preact disposes the effect, eddy keeps it running (reported)', () => {
    const r = both((L) => {
      const s = L.signal(0)
      let runs = 0
      L.effect(() => {
        runs++
        s.value
        return () => {
          throw new Error('cleanup')
        }
      })
      err(() => (s.value = 1))
      err(() => (s.value = 2))
      return runs
    })
    expect(r).toEqual({ preact: 1, eddy: 3 })
  })

  it('toString: a Symbol value converts in eddy (String(v)), throws in Preact (v + "")', () => {
    expect(`${new Signal(Symbol('k'))}`).toBe('Symbol(k)')
    expect(err(() => `${P.signal(Symbol('k'))}`)).toBe('TypeError: Cannot convert a Symbol value to a string')
  })

  it('effects of one batch that wrote two signals: eddy runs them in write order, Preact in reverse', () => {
    const r = both((L) => {
      const a = L.signal(0), b = L.signal(0), log: string[] = []
      const stops = [L.effect(() => void (a.value, log.push('A'))), L.effect(() => void (b.value, log.push('B')))]
      log.length = 0
      L.batch(() => ((a.value = 1), (b.value = 1)))
      stops.forEach((s) => s())
      return log
    })
    expect(r).toEqual({ preact: ['B', 'A'], eddy: ['A', 'B'] })
  })

  it('equals (eddy only; Preact ignores it): called on every write, the first too, with the value held, undefined included', () => {
    const calls: unknown[] = []
    const user = new Signal<{ id: number } | undefined>(undefined, { equals: (a, b) => (calls.push([a, b]), a?.id === b?.id) })
    user.value = { id: 1 }
    expect(calls).toEqual([[undefined, { id: 1 }]])
    // Written without the `?.`, the first write throws, and the value stays undefined.
    const strict = new Signal<{ id: number } | undefined>(undefined, { equals: (a, b) => a!.id === b!.id })
    expect(err(() => (strict.value = { id: 1 }))).toMatch(/^TypeError: Cannot read properties of undefined/)
    expect(strict.value).toBe(undefined)
    // And `equals: () => false` makes an in-place edit notify: what Preact users do with a copy.
    const list = new Signal([1], { equals: () => false })
    let runs = 0
    effect(() => void (runs++, list.value.length))
    list.value.push(2)
    list.value = list.value
    expect(runs).toBe(2)
  })

  it('Preact exports eddy lacks: signal(), action(), createModel(), and the Computed and Effect constructors', () => {
    expect(typeof (P as any).signal).toBe('function')
    expect(typeof (P as any).action).toBe('function')
    expect(typeof (P as any).createModel).toBe('function')
    expect(typeof (P as any).Computed).toBe('function')
    expect(Object.keys(E).sort()).toEqual(['Signal', 'batch', 'computed', 'configure', 'effect', 'flush', 'settled', 'untracked'])
    // action(fn) is batch + untracked: the same in eddy in one line.
    const action = <A extends unknown[], R>(fn: (...a: A) => R) => (...a: A) => batch(() => untracked(() => fn(...a)))
    const s = new Signal(0)
    let runs = 0
    effect(() => void (runs++, s.value))
    const twice = action(() => ((s.value = s.value + 1), (s.value = s.value + 1)))
    effect(() => twice())
    expect([s.value, runs]).toEqual([2, 2]) // the effect calling the action did not subscribe to s; one run for two writes
    // A computed is told from a signal by its prototype (no exported Computed constructor).
    const ComputedProto = Object.getPrototypeOf(computed(() => 0))
    expect(Object.getPrototypeOf(computed(() => 1)) === ComputedProto && Object.getPrototypeOf(s) !== ComputedProto).toBe(true)
  })
})
