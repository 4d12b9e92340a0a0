// A hostile reviewer's re-entrancy: user code that eddy calls (formats, getters, cleanups, equals, schedules, the
// page's own 'error' listeners that the native reportError calls synchronously) calling back into eddy. Expected:
// nothing lost, nothing run twice for one change, no infinite loop, and no stuck scheduler afterwards.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Signal, batch, computed, configure, effect, flush, settled, type Binding } from '@eddy/signal'
import { stillRenders } from './still.ts'

let root: HTMLElement
const el = (tag = 'span') => root.appendChild(document.createElement(tag))
const ticks = async (n = 3) => {
  for (let i = 0; i < n; i++) await Promise.resolve()
}
const macro = () => new Promise((r) => setTimeout(r, 0))
// What reached the page's 'error' event: the native reportError (not stubbed here) dispatches it synchronously.
let errors: string[] = []
let onError: ((e: ErrorEvent) => void) | undefined
const listener = (e: ErrorEvent) => {
  e.preventDefault()
  errors.push(`${e.error?.name}: ${e.error?.message}`)
  onError?.(e)
}
beforeEach(() => {
  errors = []
  onError = undefined
  window.addEventListener('error', listener)
  root = document.body.appendChild(document.createElement('div'))
})
afterEach(() => {
  window.removeEventListener('error', listener)
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
  root.remove()
})

// A fresh bound signal renders at the next microtask checkpoint without flush(): no queue or schedule is stuck.
describe('bind() from inside a computed getter (a list computed that makes its rows)', () => {
  it('renders the rows it binds when the computed is read at top level', async () => {
    const label = new Signal('hello')
    const rows = computed(() => {
      const li = document.createElement('li')
      label.bind(li)
      return li
    })
    const li = el('ul').appendChild(rows.value)
    await macro()
    // expected: the first render comes with the next flush, as for any bind() (README, `.bind`)
    expect(li.textContent).toBe('hello')
  })

  it('settled() resolves after such a bind()', async () => {
    const label = new Signal('x')
    computed(() => label.bind(document.createElement('b'))).peek()
    let done = false
    settled().then(() => (done = true))
    await macro()
    await macro()
    expect(done).toBe(true)
  })

  it('renders the row after an unrelated write too (it waited for a write to a watched signal)', async () => {
    const label = new Signal('row')
    const li = computed(() => {
      const n = document.createElement('li')
      label.bind(n)
      return n
    }).value
    const unwatched = new Signal(0)
    unwatched.value = 1
    await macro()
    expect(li.textContent).toBe('row')
  })
})

describe("the page's error listener re-enters eddy (native reportError dispatches it synchronously)", () => {
  it('a render error whose listener writes, flushes, disposes the failing binding and rebinds', async () => {
    const a = el()
    const b = el()
    const s = new Signal(1)
    const t = new Signal('t0')
    let failing: Binding | undefined = s.bind(a, {
      format: (v) => {
        if (v == 2) throw new Error('format 2')
        return v
      },
    })
    t.bind(b)
    await settled()
    onError = () => {
      t.value = 'from listener'
      flush() // inside the flush: a no-op
      failing?.dispose()
      failing = undefined
      s.bind(a, { format: (v) => `rebound ${v}` })
    }
    s.value = 2
    await settled()
    expect(errors).toEqual(['Error: format 2'])
    expect(b.textContent).toBe('from listener')
    expect(a.textContent).toBe('rebound 2')
    await stillRenders(root)
  })

  it('an effect error whose listener writes the signal the effect reads: runs again, no loop', async () => {
    const s = new Signal(0)
    const seen: number[] = []
    const stop = effect(() => {
      seen.push(s.value)
      if (s.value % 2) throw new Error(`odd ${s.value}`)
    })
    onError = () => void s.value++
    s.value = 1
    expect(seen).toEqual([0, 1, 2])
    expect(errors).toEqual(['Error: odd 1'])
    stop()
    await stillRenders(root)
  })

  it('an effect that always throws and a listener that always writes: cut off with "Cycle detected", then fine', async () => {
    const s = new Signal(0)
    let runs = 0
    const stop = effect(() => {
      runs++
      if (s.value) throw new Error('always')
    })
    onError = (e) => {
      if (e.error?.message == 'always') s.value++
    }
    let thrown: unknown
    try {
      s.value = 1
    } catch (e) {
      thrown = e
    }
    expect(String(thrown)).toMatch(/Cycle detected/)
    expect(runs).toBeLessThan(1000)
    onError = undefined
    stop()
    await stillRenders(root)
  })

  it('a listener that calls configure() while the flush reports: the next writes use the new schedule', async () => {
    const a = el()
    const s = new Signal(0)
    s.bind(a, {
      format: (v) => {
        if (v == 1) throw new Error('one')
        return v
      },
    })
    await settled()
    const posted: (() => void)[] = []
    onError = () => configure({ schedule: (f) => void posted.push(f) })
    s.value = 1
    await settled()
    s.value = 2
    await macro()
    expect(a.textContent).toBe('0')
    expect(posted.length).toBe(1)
    posted[0]()
    expect(a.textContent).toBe('2')
  })
})

describe('batch nested and throwing', () => {
  it('an inner batch that throws, caught by the outer: one effect run and one render with the final values', async () => {
    const a = new Signal(0)
    const b = new Signal(0)
    const c = new Signal(0)
    const node = el()
    computed(() => `${a.value}${b.value}${c.value}`).bind(node)
    const seen: string[] = []
    const stop = effect(() => void seen.push(`${a.value}${b.value}${c.value}`))
    batch(() => {
      a.value = 1
      try {
        batch(() => {
          b.value = 1
          batch(() => {
            throw new Error('inner')
          })
        })
      } catch {}
      c.value = 1
    })
    expect(seen).toEqual(['000', '111'])
    await settled()
    expect(node.textContent).toBe('111')
    stop()
  })

  it('the outer batch throws after an inner one threw: the writes are applied, once, and the error is thrown', async () => {
    const a = new Signal(0)
    const node = el()
    a.bind(node)
    let runs = 0
    const stop = effect(() => void (a.value, runs++))
    expect(() =>
      batch(() => {
        a.value = 1
        try {
          batch(() => {
            a.value = 2
            throw new Error('inner')
          })
        } catch {}
        a.value = 3
        throw new Error('outer')
      }),
    ).toThrow('outer')
    expect(runs).toBe(2)
    await settled()
    expect(node.textContent).toBe('3')
    stop()
    await stillRenders(root)
  })

  it('1,000 nested batches that all throw: nothing stuck', async () => {
    const s = new Signal(0)
    const node = el()
    s.bind(node)
    const nest = (n: number): void =>
      batch(() => {
        s.value = n
        if (n) nest(n - 1)
        throw new Error('level ' + n)
      })
    expect(() => nest(1000)).toThrow('level 0')
    await settled()
    expect(node.textContent).toBe('0')
    await stillRenders(root)
  })
})

describe('re-entrant calls from inside a flush', () => {
  it('a format that calls flush(), awaits settled() and batch()es writes: all rendered, settled resolves', async () => {
    const a = el()
    const b = el()
    const s = new Signal(0)
    const t = new Signal(0)
    let resolved = 0
    s.bind(a, {
      format: (v) => {
        flush()
        settled().then(() => resolved++)
        batch(() => {
          t.value = v * 10
          t.value = v * 100
        })
        return v
      },
    })
    t.bind(b)
    s.value = 1
    await settled()
    await ticks()
    expect([a.textContent, b.textContent, resolved]).toEqual(['1', '100', 1])
    expect(errors).toEqual([])
  })

  it('an effect disposed from a format runs its cleanup once; the cleanup writes a bound signal that renders', async () => {
    const a = el()
    const b = el()
    const s = new Signal(0)
    const log = new Signal('none')
    let cleanups = 0
    const stop = effect(() => {
      s.value
      return () => {
        cleanups++
        log.value = 'cleaned ' + cleanups
      }
    })
    log.bind(b)
    s.bind(a, {
      format: (v) => {
        if (v == 1) stop()
        return v
      },
    })
    s.value = 1
    await settled()
    await ticks()
    // the effect's re-run for s=1 ran its cleanup once (cleanups 1), and stop() the next one (cleanups 2)
    expect(cleanups).toBe(2)
    expect(b.textContent).toBe('cleaned 2')
    stop()
    expect(cleanups).toBe(2)
  })

  it('a format that disposes every binding of the flush, including later ones: none of them renders', async () => {
    const nodes = Array.from({ length: 5 }, () => el())
    const s = new Signal('a')
    const bindings: Binding[] = []
    bindings.push(s.bind(nodes[0], { format: (v) => (bindings.forEach((b) => b.dispose()), v) }))
    for (const n of nodes.slice(1)) bindings.push(s.bind(n))
    await settled()
    // the format's own binding is still written (README), the others disposed before their turn
    expect(nodes.map((n) => n.textContent)).toEqual(['a', '', '', '', ''])
    await stillRenders(root)
  })

  it('a synchronous schedule whose flush re-enters through a format write: one render per binding per write', async () => {
    configure({ schedule: (f) => f() })
    const a = el()
    const b = el()
    const s = new Signal(0)
    const t = new Signal(0)
    let renders = 0
    t.bind(b, { format: (v) => (renders++, v) })
    s.bind(a, { format: (v) => ((t.value = v), v) })
    renders = 0
    s.value = 5
    expect([a.textContent, b.textContent, renders]).toEqual(['5', '5', 1])
  })

  it('a custom schedule that calls configure() before flushing: rendered once, nothing posted twice', async () => {
    let calls = 0
    configure({
      schedule: (f) => {
        calls++
        configure({ schedule: 'microtask' })
        f()
      },
    })
    const a = el()
    const s = new Signal(1)
    s.bind(a)
    expect(a.textContent).toBe('1')
    s.value = 2
    await ticks()
    expect([a.textContent, calls]).toEqual(['2', 1])
  })

  it('a custom schedule that throws the first time: the pending render is written at the next write', async () => {
    let n = 0
    const fn = (f: () => void) => {
      if (n++ == 0) throw new Error('schedule down')
      queueMicrotask(f)
    }
    configure({ schedule: fn })
    const a = el()
    const s = new Signal('a')
    s.bind(a)
    await macro()
    expect(errors).toEqual(['Error: schedule down'])
    s.value = 'b'
    await macro()
    expect(a.textContent).toBe('b')
  })
})

describe('an effect that flushes, measures and disposes itself (README: flush() "before reading layout")', () => {
  // The write of `open` runs the effect; it renders at once by flush(), disposes itself (a one-shot), then writes the
  // measured height, whose binding posts a flush. Back in the write of `open`, its lone subscriber is now the binding,
  // a flush is posted, so `open` is marked as if that binding were queued (NOTIFIED): it is not (it just rendered),
  // and every later write of `open` is a plain store. Observed: the panel shows "1" for good.
  it("keeps rendering the signal whose write ran it", async () => {
    const open = new Signal(0)
    const height = new Signal(0)
    const panel = el('div')
    const label = el()
    open.bind(panel)
    height.bind(label)
    await settled()
    const stop = effect(() => {
      if (!open.value) return
      flush()
      const h = panel.offsetHeight
      stop()
      height.value = h + 1
    })
    open.value = 1
    await settled()
    expect(panel.textContent).toBe('1')
    open.value = 2
    await macro()
    expect(panel.textContent).toBe('2')
    open.value = 3
    await macro()
    expect(panel.textContent).toBe('3')
  })

  it('the same with a one-shot subscribe()', async () => {
    const step = new Signal('a')
    const width = new Signal(0)
    const box = el('div')
    step.bind(box)
    width.bind(el())
    await settled()
    const off = step.subscribe((v) => {
      if (v == 'a') return
      flush()
      off()
      width.value = box.offsetWidth + 1
    })
    step.value = 'b'
    await macro()
    step.value = 'c'
    await macro()
    expect(box.textContent).toBe('c')
  })
})

describe('writes from effect cleanups and equals', () => {
  it("an effect whose cleanup writes the signal it reads, disposed in a batch: no run after dispose", () => {
    const s = new Signal(0)
    const seen: number[] = []
    const stop = effect(() => {
      seen.push(s.value)
      return () => void (s.value = s.peek() + 100)
    })
    batch(() => {
      s.value = 1
      stop()
    })
    expect(seen).toEqual([0])
    expect(s.value).toBe(101)
  })

  it('equals that writes the very signal being written: the outer write wins', () => {
    const s = new Signal(0, {
      equals: (a, b) => {
        if (b == 1) s.value = 99
        return a === b
      },
    })
    const seen: number[] = []
    const stop = effect(() => void seen.push(s.value))
    s.value = 1
    expect(s.value).toBe(1)
    expect(seen.at(-1)).toBe(1)
    stop()
  })
})

describe('no reportError at all (a page that deleted it): render errors are thrown by the flush', () => {
  for (const schedule of ['microtask', 'animationFrame'] as const) {
    it(`${schedule}: the uncaught error does not stop later renders`, async () => {
      vi.stubGlobal('reportError', undefined)
      configure({ schedule })
      const a = el()
      const b = el()
      const s = new Signal(0)
      s.bind(a, {
        format: (v) => {
          if (v == 1) throw new Error('no reportError')
          return v
        },
      })
      s.bind(b)
      await settled()
      s.value = 1
      await settled()
      await macro()
      expect(errors).toEqual(['Error: no reportError'])
      expect(b.textContent).toBe('1')
      s.value = 2
      await settled()
      expect([a.textContent, b.textContent]).toEqual(['2', '2'])
    })
  }
})
