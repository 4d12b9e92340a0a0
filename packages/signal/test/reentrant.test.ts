// User code that runs while the library is in the middle of its own work: getters run by a check, effect bodies
// and cleanups run by the drain, formats run by the flush. Whatever it does (write, dispose, create, flush), no
// update is lost, nothing runs after it is disposed, and nothing is left stuck.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Signal, batch, computed, configure, effect, flush, settled, untracked } from '@eddy/signal'

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
})

describe('a getter that writes a signal', () => {
  it('should not leave an effect that read the signal before with the old value', () => {
    const s = new Signal(0)
    const t = new Signal(0)
    const c = computed(() => {
      t.value = s.value
      return 0
    })
    const seen: number[][] = []
    effect(() => void seen.push([t.value, c.value]))
    s.value = 1
    expect(seen).toEqual([
      [0, 0],
      [1, 0],
    ])
  })

  it('should not leave a computed on the way that read the signal before with the old value', () => {
    const s = new Signal(0)
    const t = new Signal(0)
    const c = computed(() => {
      t.value = s.value
      return 0
    })
    const d = computed(() => t.value + c.value)
    const seen: number[] = []
    effect(() => void seen.push(d.value))
    s.value = 1
    expect(d.value).toBe(1)
    expect(seen).toEqual([0, 1])
  })

  it('should not leave an unwatched computed that read the signal before with the old value', () => {
    const s = new Signal(0)
    const t = new Signal(0)
    const c = computed(() => {
      t.value = s.value
      return 0
    })
    const u = computed(() => t.value + c.value)
    expect(u.value).toBe(0)
    s.value = 1
    expect(u.value).toBe(1)
    expect(u.value).toBe(1)
  })

  it('should not leave an unwatched computed that read the signal through another unwatched one with the old value', () => {
    const s = new Signal(0)
    const t = new Signal(0)
    // Nothing watches them, so nothing flags `read` when c's getter writes t: u's check, which found `read` fresh
    // before that write, must take it as changed.
    const read = computed(() => t.value)
    const c = computed(() => {
      t.value = s.value
      return 0
    })
    const u = computed(() => read.value + c.value)
    expect(u.value).toBe(0)
    s.value = 1
    // As computed from scratch: t is 1, so read is 1 and u is 1 + 0.
    expect(u.value).toBe(1)
    expect(read.value).toBe(1)
    expect(u.value).toBe(1)
  })

  it('should not leave what first reads a computed with its value from before its getter wrote a signal it read', () => {
    for (const reader of ['effect', 'binding']) {
      const s = new Signal(1)
      const echo = new Signal(0)
      // c reads echo, then b (echo is still 0), whose getter writes echo: c must run again
      const b = computed(() => (echo.value = s.value * 2))
      const c = computed(() => (echo.value === 0 ? b.value : echo.value * 10))
      const seen: number[] = []
      const el = document.createElement('p')
      if (reader === 'effect') effect(() => void seen.push(c.value))
      else c.bind(el)
      flush()
      expect(c.value).toBe(20)
      if (reader === 'effect') expect(seen).toEqual([2, 20])
      else expect(el.textContent).toBe('20')
      // c reads b again, which writes echo again
      s.value = 2
      echo.value = 0
      flush()
      expect(c.value).toBe(40)
      if (reader === 'effect') expect(seen).toEqual([2, 20, 40])
      else expect(el.textContent).toBe('40')
    }
  })

  it('should still cut off an effect when the signal it writes is read by none of them', () => {
    const s = new Signal(0)
    const recomputes = new Signal(0)
    const c = computed(() => {
      untracked(() => recomputes.value++)
      return s.value > 10
    })
    let runs = 0
    effect(() => {
      c.value
      runs++
    })
    s.value = 1
    s.value = 2
    expect(recomputes.peek()).toBe(3)
    expect(runs).toBe(1)
  })
})

describe('flush() called by a getter', () => {
  it('should not render a computed that depends on the one being checked (a false "Cycle detected", cached)', async () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    const s = new Signal(0)
    const other = new Signal(1)
    const b = computed(() => {
      const v = s.value
      flush()
      return v
    })
    const c = computed(() => b.value * 2)
    const x = computed(() => other.value + c.value)
    const el = document.createElement('p')
    x.bind(el)
    effect(() => void c.value)
    flush()
    expect(el.textContent).toBe('1')
    s.value = 1
    s.value = 2
    await Promise.resolve()
    expect(reported).toEqual([])
    expect(x.value).toBe(5)
    expect(el.textContent).toBe('5')
  })

  it('should render at the next microtask, even with a schedule that flushes at once', async () => {
    configure({ schedule: (f) => f() })
    const s = new Signal(0)
    const shown = new Signal('a')
    const el = document.createElement('p')
    shown.bind(el)
    const c = computed(() => {
      shown.value = `b${s.value}`
      flush()
      return s.value
    })
    expect(c.value).toBe(0)
    await Promise.resolve()
    expect(el.textContent).toBe('b0')
    shown.value = 'c'
    expect(el.textContent).toBe('c')
  })

  // flush() reached from a computed's function through something that hides it from tracking: it must still wait
  // (it rendered mid-evaluation, read the computed, and cached a false "Cycle detected" for good).
  const hidden: [string, () => { getter: (v: number) => void; stops: (() => void)[] }][] = [
    ['untracked()', () => ({ getter: () => untracked(flush), stops: [] })],
    [
      'an effect that the getter creates',
      () => {
        const stops: (() => void)[] = []
        return { getter: () => void stops.push(effect(() => flush())), stops }
      },
    ],
    [
      "an effect that the getter's write runs",
      () => {
        const poke = new Signal(0)
        const stop = effect(() => {
          poke.value
          flush()
        })
        return { getter: (v) => void (poke.value = v), stops: [stop] }
      },
    ],
  ]
  it.each(hidden)('should wait for the next microtask when called through %s', async (_, setup) => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    const s = new Signal(1)
    const { getter, stops } = setup()
    const c = computed(() => {
      const v = s.value * 2
      getter(v)
      return v
    })
    const el = document.createElement('p')
    c.bind(el)
    flush()
    expect(el.textContent).toBe('2')
    s.value = 2
    expect(c.value).toBe(4)
    expect(c.value).toBe(4)
    await Promise.resolve()
    expect(reported).toEqual([])
    expect(el.textContent).toBe('4')
    for (const stop of stops) stop()
  })
})

describe('a getter that disposes or creates while it is checked', () => {
  it('should not run a sibling effect it disposed, which read the same computed', () => {
    const s = new Signal(0)
    let stop = (): void => {}
    const c = computed(() => {
      if (s.value === 1) stop()
      return s.value
    })
    const log: string[] = []
    effect(() => void log.push(`a${c.value}`))
    stop = effect(() => void log.push(`b${c.value}`))
    s.value = 1
    s.value = 2
    expect(log).toEqual(['a0', 'b0', 'a1', 'a2'])
  })

  it('should leave the chain consistent when it disposes every effect above a shared computed', () => {
    const s = new Signal(0)
    const stops: (() => void)[] = []
    const c = computed(() => {
      if (s.value === 1) for (const stop of stops) stop()
      return s.value
    })
    const d = computed(() => c.value + 1)
    const log: string[] = []
    stops.push(effect(() => void log.push(`a${d.value}`)))
    stops.push(effect(() => void log.push(`b${d.value}`)))
    s.value = 1
    s.value = 2
    expect(log).toEqual(['a1', 'b1'])
    expect(d.value).toBe(3)
    expect((s as unknown as { _subs?: unknown })._subs).toBeUndefined()
  })

  it('should render a binding it creates on the computed being checked', () => {
    const s = new Signal(0)
    const el = document.createElement('p')
    let bound = false
    const b = computed(() => {
      if (s.value && !bound) {
        bound = true
        c.bind(el)
      }
      return s.value
    })
    const c = computed(() => b.value * 2)
    const seen: number[] = []
    effect(() => void seen.push(c.value))
    s.value = 1
    flush()
    expect(el.textContent).toBe('2')
    s.value = 2
    flush()
    expect(seen).toEqual([0, 2, 4])
    expect(el.textContent).toBe('4')
  })

  /** Binds to `el` a computed of `s` whose getter disposes that binding when `s` is 1, and flushes. */
  const disposedByItsGetter = (format?: (value: unknown) => unknown) => {
    const s = new Signal(0)
    const el = document.createElement('p')
    let binding: { dispose(): void } | undefined
    const c = computed(() => {
      if (s.value === 1) binding!.dispose()
      return s.value
    })
    binding = format ? c.bind(el, { format }) : c.bind(el)
    flush()
    return { s, el }
  }

  it('should not render again a binding it disposed while that binding renders it', () => {
    const { s, el } = disposedByItsGetter()
    s.value = 1
    flush()
    s.value = 2
    flush()
    expect(el.textContent).toBe('1')
    expect((s as unknown as { _subs?: unknown })._subs).toBeUndefined()
  })

  it('should render through its format, once more, a binding its getter disposed while that binding renders it', () => {
    // The format was looked up after the read, which dropped it: "formats.get(...).get(...) is not a function".
    const { s, el } = disposedByItsGetter((v) => `#${v}`)
    s.value = 1
    expect(flush).not.toThrow()
    s.value = 2
    flush()
    expect(el.textContent).toBe('#1')
  })

  it('should run the effects of writes made in a batch it starts, once, with the final values', () => {
    const s = new Signal(0)
    const t = new Signal(0)
    const u = new Signal(0)
    const c = computed(() => {
      const v = s.value
      batch(() => {
        t.value = v
        u.value = v
      })
      return v
    })
    effect(() => void c.value)
    const seen: number[][] = []
    effect(() => void seen.push([t.value, u.value]))
    s.value = 1
    expect(seen).toEqual([
      [0, 0],
      [1, 1],
    ])
  })

  it('should cache and rethrow what it throws as it is, an Error or not, and report it to the effects', () => {
    for (const thrown of [undefined, null, 0, 'text']) {
      const reported: unknown[] = []
      vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
      const s = new Signal(0)
      const c = computed(() => {
        if (s.value === 1) throw thrown
        return s.value
      })
      const seen: unknown[] = []
      effect(() => void seen.push(c.value))
      s.value = 1
      expect(() => c.value).toThrow()
      let caught: unknown = 'nothing'
      try {
        c.value
      } catch (e) {
        caught = e
      }
      expect(caught).toBe(thrown)
      s.value = 2
      expect(seen).toEqual([0, 2])
      expect(reported).toEqual([thrown])
    }
  })
})

describe('an effect, cleanup or subscriber that disposes, creates or writes while it runs', () => {
  it('should run once more, not twice, when its cleanup writes what it reads', () => {
    const s = new Signal(0)
    const seen: number[] = []
    effect(() => {
      seen.push(s.value)
      return () => {
        if (s.peek() < 3) s.value = s.peek() + 1
      }
    })
    s.value = 1
    expect(s.peek()).toBe(2)
    expect(seen).toEqual([0, 2])
  })

  it('should stop an effect that an effect it created disposes, running its cleanup once', () => {
    const s = new Signal(0)
    const log: string[] = []
    let stopOuter = (): void => {}
    stopOuter = effect(() => {
      const v = s.value
      log.push(`outer ${v}`)
      if (v === 1)
        effect(() => {
          log.push(`inner ${s.value}`)
          stopOuter()
        })
      return () => log.push(`cleanup ${v}`)
    })
    s.value = 1
    s.value = 2
    expect(log).toEqual(['outer 0', 'cleanup 0', 'outer 1', 'inner 1', 'cleanup 1', 'inner 2'])
  })

  it('should render a binding a subscriber creates in place of a queued one it disposes', () => {
    const s = new Signal(0)
    const old = document.createElement('p')
    const next = document.createElement('p')
    let binding = s.bind(old)
    flush()
    s.subscribe((v) => {
      if (v === 1) {
        binding.dispose()
        binding = s.bind(next)
      }
    })
    s.value = 1
    flush()
    s.value = 2
    flush()
    expect([old.textContent, next.textContent]).toEqual(['0', '2'])
  })

  it('should rethrow a non-Error after the drain where reportError is missing, and run the other effects', () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    let others = 0
    effect(() => {
      if (s.value) throw undefined
    })
    effect(() => {
      s.value
      others++
    })
    let caught: unknown = 'nothing'
    try {
      s.value = 1
    } catch (e) {
      caught = e
    }
    expect(caught).toBe(undefined)
    expect(others).toBe(2)
  })

  it('should let an equals function read and write other signals', () => {
    const other = new Signal(0)
    const s = new Signal(0, {
      equals: (a, b) => {
        other.value = b
        return a === b
      },
    })
    const seen: number[] = []
    effect(() => void seen.push(s.value + other.value * 100))
    s.value = 1
    expect(seen.at(-1)).toBe(101)
  })

  it('should not track what an equals function reads: it is no source of the effect or computed that writes', () => {
    const mode = new Signal('strict')
    const s = new Signal(0, { equals: (a, b) => (mode.value === 'loose' ? Math.round(a) === Math.round(b) : a === b) })
    const src = new Signal(1)
    let runs = 0
    effect(() => void (runs++, (s.value = src.value)))
    let getters = 0
    const c = computed(() => (getters++, (s.value = src.value * 2), src.value))
    effect(() => void c.value)
    expect([runs, getters]).toEqual([1, 1])
    mode.value = 'loose'
    expect([runs, getters]).toEqual([1, 1])
    src.value = 2
    expect([runs, getters, s.value]).toEqual([2, 2, 4])
  })
})

describe('a format, or an effect calling flush(), that disposes or creates while the flush runs', () => {
  it('should not render a binding again once its own format disposed it', () => {
    const s = new Signal('a')
    const el = document.createElement('p')
    const binding = s.bind(el, {
      format: (v) => {
        if (v === 'b') binding.dispose()
        return v
      },
    })
    flush()
    s.value = 'b'
    flush()
    s.value = 'c'
    flush()
    expect(el.textContent).toBe('b')
  })

  it('should render in the same flush a binding a format creates, or one that replaces its own', () => {
    const s = new Signal(0)
    const t = new Signal('t')
    const el = document.createElement('p')
    const other = document.createElement('p')
    let binding: { dispose(): void }
    let replaced = false
    binding = s.bind(el, {
      format: (v) => {
        if (v === 1 && !replaced) {
          replaced = true
          binding.dispose()
          binding = s.bind(el, { format: (w) => `new ${w}` })
          t.bind(other)
        }
        return `old ${v}`
      },
    })
    flush()
    s.value = 1
    flush()
    expect([el.textContent, other.textContent]).toEqual(['new 1', 't'])
    s.value = 2
    flush()
    expect(el.textContent).toBe('new 2')
  })

  it('should not run an effect again that a format disposed during the flush the effect called', () => {
    const s = new Signal(0)
    const el = document.createElement('p')
    let stop = (): void => {}
    const seen: number[] = []
    s.bind(el, {
      format: (v) => {
        if (v === 1) stop()
        return v
      },
    })
    stop = effect(() => {
      seen.push(s.value)
      flush()
    })
    s.value = 1
    s.value = 2
    expect(seen).toEqual([0, 1])
    flush()
    expect(el.textContent).toBe('2')
  })

  it('should resolve settled() called by a format, and render what a format writes in the same flush', async () => {
    const s = new Signal(0)
    const t = new Signal(0)
    const el = document.createElement('p')
    const other = document.createElement('p')
    let done: Promise<void> | undefined
    s.bind(el, {
      format: (v) => {
        done ??= settled()
        t.value = v * 10
        return v
      },
    })
    t.bind(other)
    flush()
    await done
    s.value = 5
    flush()
    expect([el.textContent, other.textContent]).toEqual(['5', '50'])
  })

  it('should post with the schedule a format sets, once the flush is over', () => {
    const posted: (() => void)[] = []
    const s = new Signal(0)
    const t = new Signal(0)
    const el = document.createElement('p')
    const other = document.createElement('p')
    s.bind(el, {
      format: (v) => {
        configure({ schedule: (f) => posted.push(f) })
        t.value = v
        return v
      },
    })
    t.bind(other)
    flush()
    expect(posted).toHaveLength(0)
    t.value = 6
    expect(posted).toHaveLength(1)
    posted[0]!()
    expect(other.textContent).toBe('6')
  })
})

describe('a custom schedule that writes, binds, disposes and throws before or after it flushes', () => {
  it('should render the latest values and report what it throws', () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    const s = new Signal(0)
    const other = new Signal('o')
    const el = document.createElement('p')
    const el2 = document.createElement('p')
    const el3 = document.createElement('p')
    let binding: { dispose(): void } | undefined
    let posts = 0
    configure({
      schedule: (f) => {
        posts++
        other.value = `o${posts}`
        if (posts === 1) binding = other.bind(el2)
        if (posts === 2) {
          binding!.dispose()
          batch(() => (s.value = 100))
        }
        f()
        if (posts === 3) throw new Error('after the flush')
      },
    })
    s.bind(el)
    expect([el.textContent, el2.textContent]).toEqual(['0', 'o1'])
    s.value = 1
    expect([el.textContent, el2.textContent]).toEqual(['100', 'o1'])
    other.bind(el3)
    expect(el3.textContent).toBe('o3')
    expect(reported.map(String)).toEqual(['Error: after the flush'])
    s.value = 5
    expect(el.textContent).toBe('5')
  })
})

describe('bindings disposed early, and nodes moved before the render', () => {
  it('should render nothing for a binding disposed (twice) before its first render, and bind its signal again', () => {
    const s = new Signal(0)
    const el = document.createElement('p')
    const binding = s.bind(el)
    binding.dispose()
    binding.dispose()
    s.value = 1
    flush()
    expect(el.textContent).toBe('')
    const again = document.createElement('p')
    s.bind(again)
    s.value = 2
    flush()
    expect(again.textContent).toBe('2')
  })

  it('should render into a node removed from the document, or moved, between the write and the render', () => {
    const s = new Signal(0)
    const el = document.body.appendChild(document.createElement('p'))
    s.bind(el)
    flush()
    s.value = 1
    el.remove()
    flush()
    expect(el.textContent).toBe('1')
    const div = document.body.appendChild(document.createElement('div'))
    s.value = 2
    div.append(el)
    flush()
    expect(el.textContent).toBe('2')
    div.remove()
  })

  it('should refuse a Text node moved into a <script> before the render, render the others, and render it once out', () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    const s = new Signal('x')
    const text = document.createTextNode('')
    document.createElement('p').append(text)
    const t = new Signal('y')
    const other = document.createElement('p')
    t.bind(other)
    s.bind(text)
    flush()
    s.value = 'alert(1)'
    t.value = 'z'
    document.createElement('script').append(text)
    flush()
    expect([text.data, other.textContent, reported.length]).toEqual(['x', 'z', 1])
    document.createElement('p').append(text)
    s.value = 'ok'
    flush()
    expect(text.data).toBe('ok')
  })
})
