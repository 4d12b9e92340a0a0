// eddy as a state layer read by other reactive libraries (a user trial): @vue/reactivity 3.5 and @preact/signals-core
// 1.14 in Chromium, through the adapters of ./adapters.ts. Pins what holds (disposal leaves no subscription on either
// side, the two-way mirror ends, errors cross where the adapter passes them) and what a user must know (a diamond
// whose arms live in two libraries runs its bottom once per arm; each library's batch defers only its own effects).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { computed as vComputed, effectScope, ref, watch, type Ref } from '@vue/reactivity'
import { batch as pBatch, computed as pComputed, effect as pEffect, signal as pSignal } from '@preact/signals-core'
import { Signal, batch, computed, effect, flush } from '@eddy/signal'
import { observe, subscribers } from '../../dom.ts'
import { fromVue, mirrorPreact, toVueRef, toVueRefObvious } from './adapters.ts'
import readme from '../../../../README.md?raw'
import glue from './adapters.ts?raw'

let reported: unknown[] = []
beforeEach(() => {
  reported = []
  vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
})
afterEach(() => vi.unstubAllGlobals())

/** Vue's subscriber count of a ref (its Dep's `sc`), to see that no watcher leaks on the Vue side. */
const vueSubs = (r: Ref<unknown>) => ((r as any).dep?.sc ?? 0) as number
/** A Preact signal that counts its watchers (Preact's `watched`/`unwatched` options). */
function countedPreact<T>(v: T) {
  const c = { n: 0 }
  const p = pSignal(v, { watched: () => c.n++, unwatched: () => c.n-- })
  return { p, watchers: c }
}
const attempt = (f: () => unknown) => {
  try {
    return f()
  } catch (e) {
    return `threw ${(e as Error).name}`
  }
}

describe('the README\'s adapters ("Using eddy with other reactive libraries")', () => {
  it('are the code tested here (adapters.ts), comments, spacing, `export` and the name mirror/mirrorPreact aside', () => {
    const body = (text: string, name: string) => {
      const from = text.search(new RegExp(`function ${name}<T>`))
      expect(from).toBeGreaterThanOrEqual(0)
      const code = text.slice(from, text.indexOf('\n}', from) + 2)
      return code.replace(/\/\/.*$/gm, '').replace(/\bmirrorPreact\b|\bPSignal\b|\bpEffect\b/g, (w) => ({ mirrorPreact: 'mirror', PSignal: 'PreactSignal', pEffect: 'preactEffect' })[w]!).replace(/\s+/g, '')
    }
    for (const [r, g] of [['toVueRef', 'toVueRef'], ['fromVue', 'fromVue'], ['mirror', 'mirrorPreact']])
      expect(body(readme, r)).toBe(body(glue, g))
  })
})

describe('(1) an eddy signal as a Vue ref', () => {
  it('Vue watchers follow eddy writes: one run per write, one per batch; the ref writes back', () => {
    const s = new Signal(1)
    const scope = effectScope()
    const seen: number[] = []
    scope.run(() => {
      const r = toVueRef(s)
      watch(() => seen.push(r.value))
      s.value = 2
      batch(() => {
        s.value = 3
        s.value = 4
      })
      r.value = 5
    })
    expect(seen).toEqual([1, 2, 4, 5])
    expect(s.peek()).toBe(5)
    expect(subscribers(s)).toBe(1)
    scope.stop()
    expect(subscribers(s)).toBe(0)
  })

  it('100 components mounted and unmounted (one effectScope each) leave no subscription on the signal or a computed', () => {
    const s = new Signal(0)
    const doubled = computed(() => s.value * 2)
    for (let i = 0; i < 100; i++) {
      const scope = effectScope()
      scope.run(() => {
        const a = toVueRef(s)
        const b = toVueRefObvious(doubled)
        const sum = vComputed(() => a.value + b.value)
        watch(() => sum.value)
      })
      s.value++
      scope.stop()
    }
    expect([subscribers(s), subscribers(doubled)]).toEqual([0, 0])
  })

  it('made outside any effectScope, the adapter stays subscribed for good (Vue warns once): the user must own a scope', () => {
    const s = new Signal(0)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      toVueRefObvious(s)
      expect(subscribers(s)).toBe(1)
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/onScopeDispose\(\) is called when there is no active effect scope/)
    } finally {
      warn.mockRestore()
    }
  })

  it('a throwing computed: through subscribe, Vue keeps the last value (error reported); through an effect, Vue sees the throw', () => {
    const run = (adapter: typeof toVueRef) => {
      const input = new Signal('{"n":1}')
      const parsed = computed(() => JSON.parse(input.value).n as number)
      const scope = effectScope()
      const seen: unknown[] = []
      scope.run(() => {
        const r = adapter(parsed)
        watch(() => seen.push(attempt(() => r.value)))
      })
      reported = []
      input.value = '{'
      input.value = '{"n":2}'
      const out = { seen, reported: reported.length }
      scope.stop()
      expect(subscribers(parsed)).toBe(0)
      return out
    }
    // As the README says of subscribe ("While it throws later, fn is not called and each error goes to reportError").
    expect(run(toVueRefObvious)).toEqual({ seen: [1, 2], reported: 1 })
    expect(run(toVueRef)).toEqual({ seen: [1, 'threw SyntaxError', 2], reported: 0 })
  })

  it('a Vue watcher made inside an eddy effect does not make the effect track the signal (the ref reads by peek)', () => {
    const s = new Signal(1)
    let outer = 0
    const scope = effectScope()
    const stop = effect(() => {
      outer++
      scope.run(() => {
        const r = toVueRef(s)
        watch(() => r.value)
      })
    })
    s.value = 2
    expect(outer).toBe(1)
    stop()
    scope.stop()
  })
})

describe('(1) errors of Vue watchers run by the bridge', () => {
  it('a Vue watcher that throws is reported by eddy as the bridge effect\'s error; the others run; later writes still reach Vue', () => {
    const s = new Signal(0)
    const scope = effectScope()
    const seen: number[] = []
    scope.run(() => {
      const r = toVueRef(s)
      watch(() => {
        if (r.value == 1) throw new Error('vue watcher')
      })
      watch(() => seen.push(r.value))
    })
    s.value = 1
    s.value = 2
    expect(seen).toEqual([0, 1, 2])
    expect(reported.map((e) => (e as Error).message)).toEqual(['vue watcher'])
    expect(subscribers(s)).toBe(1)
    scope.stop()
  })
})

describe('(2) an eddy computed fed from a Vue ref', () => {
  it('written from a watchEffect getter (not a watch callback), Vue tracks what eddy effects read during the write', () => {
    const x = ref(1)
    const other = new Signal(100)
    const shadow = new Signal(0)
    const scope = effectScope()
    const r = scope.run(() => toVueRef(other))!
    const stop = effect(() => void (shadow.value, r.value)) // an eddy effect that reads a Vue-adapted ref
    let runs = 0
    scope.run(() => watch(() => void (runs++, (shadow.value = x.value))))
    runs = 0
    other.value = 101 // x did not change, yet the watcher runs again: it tracked `r` through the eddy effect
    expect(runs).toBe(1)
    stop()
    scope.stop()
  })

  it('a Vue or Preact computed that reads eddy .value directly is not told of changes: eddy reads it stale', () => {
    const e = new Signal(1)
    const viaPreact = computed(() => pComputed(() => e.value * 2).value) // a new one each run: fresh
    const pc = pComputed(() => e.value * 2)
    const vc = vComputed(() => e.value * 2)
    const cached = computed(() => [pc.value, vc.value])
    expect([viaPreact.value, ...cached.value]).toEqual([2, 2, 2])
    e.value = 2
    // eddy tracked `e` (read while its function ran), so it recomputes, but both foreign caches hold the old value
    expect([viaPreact.value, ...cached.value]).toEqual([4, 2, 2])
  })

  it('follows the ref; stop() leaves no watcher on the Vue side and no subscription on the eddy side', () => {
    const x = ref(2)
    const fed = fromVue(x)
    const squared = computed(() => fed.value.value ** 2)
    const el = document.body.appendChild(document.createElement('output'))
    const binding = squared.bind(el)
    flush()
    const rec = observe(el)
    for (let i = 3; i <= 10; i++) x.value = i
    flush()
    expect(el.textContent).toBe('100')
    expect(rec.stop().length).toBe(1) // 8 Vue writes, one DOM write
    expect(vueSubs(x)).toBe(1)
    fed.stop()
    binding.dispose()
    expect([vueSubs(x), subscribers(squared), subscribers(fed.value)]).toEqual([0, 0, 0])
    el.remove()
  })

  it('a Vue computed that throws: the error goes to the Vue writer and eddy keeps the last value, silently', () => {
    const x = ref('{"n":1}')
    const parsed = vComputed(() => JSON.parse(x.value).n as number)
    const fed = fromVue(parsed)
    expect(() => (x.value = '{')).toThrow(SyntaxError)
    expect(fed.value.value).toBe(1) // stale: nothing tells eddy
    expect(reported).toEqual([])
    fed.stop()
  })
})

describe('(3) a Preact signal mirrored both ways with an eddy Signal', () => {
  it('no ping-pong: one run of each side per write, either side; dispose leaves no watcher on either', () => {
    const { p, watchers } = countedPreact(1)
    const e = new Signal(1)
    const off = mirrorPreact(p, e)
    let pRuns = 0
    let eRuns = 0
    const offP = pEffect(() => void (p.value, pRuns++))
    const offE = effect(() => void (e.value, eRuns++))
    pRuns = eRuns = 0
    p.value = 2
    expect([e.peek(), pRuns, eRuns]).toEqual([2, 1, 1])
    e.value = 3
    expect([p.peek(), pRuns, eRuns]).toEqual([3, 2, 2])
    expect(reported).toEqual([])
    off()
    offP()
    offE()
    expect([watchers.n, subscribers(e)]).toEqual([0, 0])
  })

  it('at creation Preact wins: the eddy side takes the Preact value (whichever effect runs first decides)', () => {
    const p = pSignal('preact')
    const e = new Signal('eddy')
    const off = mirrorPreact(p, e)
    expect([p.peek(), e.peek()]).toEqual(['preact', 'preact'])
    off()
  })

  it('a buggy mirror that never agrees (p = e + 1, e = p + 1) ends with "Cycle detected" from effect(), not a hung tab', () => {
    const p = pSignal(0)
    const e = new Signal(0)
    let runs = 0
    const offP = pEffect(() => {
      runs++
      e.value = p.value + 1
    })
    expect(() => effect(() => void (runs++, (p.value = e.value + 1)))).toThrow('Cycle detected')
    expect(runs).toBeLessThan(1000) // ~400: eddy's cut-off, Preact's own never fires here
    e.value = 100 // the eddy effect was disposed (README: a first run that throws disposes it)
    expect(p.peek()).not.toBe(101)
    offP()
  })

  it('equality differs at -0: eddy takes -0 over 0 (Object.is), Preact keeps 0 (!==), so the sides disagree', () => {
    const p = pSignal(0)
    const e = new Signal(0)
    const off = mirrorPreact(p, e)
    e.value = -0
    // Pinned: README "Coming from @preact/signals-core" states the difference; a mirror inherits it.
    expect([Object.is(p.peek(), -0), Object.is(e.peek(), -0)]).toEqual([false, true])
    off()
  })

  it('equals: a Preact write that eddy finds equal is dropped, so the sides hold different objects', () => {
    const p = pSignal({ id: 1, name: 'a' })
    const e = new Signal({ id: 1, name: 'a' }, { equals: (a, b) => a.id === b.id })
    const off = mirrorPreact(p, e)
    p.value = { id: 1, name: 'b' }
    expect([p.peek().name, e.peek().name]).toEqual(['b', 'a'])
    off()
  })

  it('a chain of 600 links alternating eddy and Preact (300 each) plus a reader of every eddy link is not cut off', () => {
    const N = 300
    const es = Array.from({ length: N + 1 }, () => new Signal(0))
    const ps = Array.from({ length: N }, () => pSignal(0))
    const offs: (() => void)[] = []
    for (let i = 0; i < N; i++) {
      offs.push(effect(() => void (ps[i]!.value = es[i]!.value)))
      offs.push(pEffect(() => void (es[i + 1]!.value = ps[i]!.value)))
    }
    let readerRuns = 0
    offs.push(effect(() => void (readerRuns++, es.forEach((s) => s.value))))
    readerRuns = 0
    es[0]!.value = 7
    expect(reported).toEqual([])
    expect(es[N]!.peek()).toBe(7)
    expect(readerRuns).toBeLessThanOrEqual(N + 1)
    offs.forEach((o) => o())
  })
})

describe('a diamond whose two arms live in different libraries', () => {
  it('source in Vue, both arms bridged: the eddy bottom runs once per arm, and once it sees a mix; eddy batch() makes it one', () => {
    const x = ref(1)
    const a = fromVue(() => x.value * 2)
    const b = fromVue(() => x.value * 10)
    const seen: string[] = []
    const stop = effect(() => void seen.push(`${a.value.value}/${b.value.value}`))
    seen.length = 0
    x.value = 2
    expect(seen).toEqual(['4/10', '4/20'])
    seen.length = 0
    batch(() => (x.value = 3))
    expect(seen).toEqual(['6/30'])
    stop()
    a.stop()
    b.stop()
  })

  it('source in eddy, one arm through Vue: glitch-free only if the bridge subscribed to the source before the other arm', () => {
    const run = (watchFirst: boolean) => {
      const a = new Signal(1)
      const arm1 = computed(() => a.value * 2)
      const pre = watchFirst ? effect(() => void arm1.value) : undefined // the eddy app was running before Vue mounted
      const scope = effectScope()
      const r = scope.run(() => toVueRef(a))!
      const arm2 = fromVue(scope.run(() => vComputed(() => r.value * 10))!)
      const seen: string[] = []
      const stop = effect(() => void seen.push(`${arm1.value}/${arm2.value.value}`))
      seen.length = 0
      a.value = 2
      const plain = [...seen]
      seen.length = 0
      batch(() => (a.value = 3))
      const batched = [...seen]
      stop()
      pre?.()
      arm2.stop()
      scope.stop()
      return { plain, batched }
    }
    expect(run(false)).toEqual({ plain: ['4/20'], batched: ['6/30'] })
    expect(run(true)).toEqual({ plain: ['4/10', '4/20'], batched: ['6/20', '6/30'] })
  })

  it('Preact arm mirrored in: a Preact write glitches once, also in Preact batch(), and not inside eddy batch()', () => {
    const a = new Signal(1)
    const pa = pSignal(1)
    const arm1 = computed(() => a.value * 2)
    const pre = effect(() => void arm1.value)
    const offM = mirrorPreact(pa, a)
    const arm2p = pComputed(() => pa.value * 10)
    const arm2 = new Signal(0)
    const offA = pEffect(() => void (arm2.value = arm2p.value))
    const seen: string[] = []
    const stop = effect(() => void seen.push(`${arm1.value}/${arm2.value}`))
    const runs = (f: () => void) => ((seen.length = 0), f(), [...seen])
    expect(runs(() => (pa.value = 3))).toEqual(['6/10', '6/30'])
    expect(runs(() => batch(() => (pa.value = 4)))).toEqual(['8/40'])
    // Preact's batch defers Preact's effects to its end, where each one's eddy write runs eddy's effects at once
    expect(runs(() => pBatch(() => (pa.value = 5)))).toEqual(['10/40', '10/50'])
    ;[stop, pre, offM, offA].forEach((f) => f())
  })
})

describe('batch() across libraries', () => {
  it('inside eddy batch, a mirrored Preact signal is stale; inside Preact batch, the mirrored eddy signal is', () => {
    const p = pSignal(0)
    const e = new Signal(0)
    const off = mirrorPreact(p, e)
    const inEddy = batch(() => ((e.value = 1), p.value))
    const inPreact = pBatch(() => ((p.value = 2), e.value))
    expect([inEddy, inPreact]).toEqual([0, 1])
    expect([p.peek(), e.peek()]).toEqual([2, 2])
    off()
  })
})
