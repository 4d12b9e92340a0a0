import { afterEach, describe, expect, it, vi } from 'vitest'
import { Signal, batch, computed, configure, effect, flush, settled } from '@eddy/signal'

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
})

describe('flush', () => {
  it('should write pending renders synchronously', () => {
    const el = document.createElement('p')
    new Signal('now').bind(el)
    flush()
    expect(el.textContent).toBe('now')
  })

  it('should not subscribe the effect that calls it to what a format reads', () => {
    const unit = new Signal('px')
    const width = new Signal(1)
    const el = document.createElement('p')
    width.bind(el, { format: (v) => `${v}${unit.value}` })
    const layout = new Signal(0)
    let runs = 0
    effect(() => {
      layout.value
      runs++
      flush() // before reading layout
    })
    expect(el.textContent).toBe('1px')
    width.value = 2
    layout.value = 1
    expect(el.textContent).toBe('2px')
    unit.value = 'em'
    expect(runs).toBe(2)
  })

  it('should write a chain of 300 renders, each format writing the next one\'s signal, in one flush', () => {
    // Each render queues the next for a later round of the same flush: a chain, not a loop.
    const sigs = Array.from({ length: 301 }, () => new Signal(0))
    const els = sigs.map(() => document.createElement('p'))
    sigs.slice(0, -1).forEach((s, i) => s.bind(els[i]!, { format: (v) => ((sigs[i + 1]!.value = v + 1), v) }))
    sigs[300]!.bind(els[300]!)
    flush()
    sigs[0]!.value = 7
    expect(() => flush()).not.toThrow()
    expect(els[300]!.textContent).toBe('307')
  })
})

describe('settled', () => {
  it('should resolve once pending renders are written', async () => {
    const el = document.createElement('p')
    const s = new Signal(1)
    s.bind(el)
    await settled()
    expect(el.textContent).toBe('1')
    s.value = 2
    const p = settled()
    expect(el.textContent).toBe('1')
    await p
    expect(el.textContent).toBe('2')
    await settled()
  })

  it('should resolve when a render of the flush threw, its error reported, the other renders written', async () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    try {
      const boom = new Error('format')
      const s = new Signal(1)
      const bad = document.createElement('p')
      const good = document.createElement('p')
      s.bind(bad, { format: (v) => { if (v > 1) throw boom; return v } })
      s.bind(good)
      await settled()
      s.value = 2
      await settled()
      expect([bad.textContent, good.textContent]).toEqual(['1', '2'])
      expect(reported).toEqual([boom])
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('configure', () => {
  it('should post the renders that a throwing schedule left waiting when the schedule is switched', async () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    configure({ schedule: () => { throw new Error('no frames here') } })
    const el = document.createElement('p')
    new Signal('waiting').bind(el)
    expect(reported).toHaveLength(1)
    const done = settled()
    configure({ schedule: 'microtask' })
    await done
    expect(el.textContent).toBe('waiting')
    vi.unstubAllGlobals()
  })

  it('should post at the next write a render that a schedule switched to throws for, whose signal was already written', () => {
    // The first write, with a flush posted, marked the signal (its lone binding is queued: no need to notify again).
    // The new schedule threw and posted nothing, and the mark stayed: no later write of it posted anything, ever.
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    const dropped: (() => void)[] = []
    configure({ schedule: (f) => dropped.push(f) }) // a flush posted the old way that never comes
    const s = new Signal(0)
    const el = document.createElement('p')
    s.bind(el)
    s.value = 1
    let fail = true
    configure({
      schedule: (f) => {
        if (fail) throw new Error('not yet')
        f()
      },
    })
    expect(reported).toHaveLength(1)
    fail = false
    s.value = 2 // "tried again at the next write that leaves a render waiting"
    expect(el.textContent).toBe('2')
    vi.unstubAllGlobals()
  })

  it('should post at the next write a render that a schedule which wrote its signal and then threw left waiting', () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    const s = new Signal(0)
    const el = document.createElement('p')
    s.bind(el)
    flush()
    let fail = true
    configure({
      schedule: (f) => {
        if (!fail) return f()
        s.value = 10 // while the flush counts as posted: marks s (its lone binding is queued)
        throw new Error('not yet')
      },
    })
    s.value = 1
    expect(reported).toHaveLength(1)
    fail = false
    s.value = 2
    expect(el.textContent).toBe('2')
    vi.unstubAllGlobals()
  })

  it('should post ONE flush per checkpoint through a custom schedule', () => {
    const posted: (() => void)[] = []
    configure({ schedule: (f) => posted.push(f) })
    const els = [document.createElement('p'), document.createElement('p'), document.createElement('p')]
    const sigs = els.map((el, i) => {
      const s = new Signal(i)
      s.bind(el)
      return s
    })
    for (let i = 0; i < 100; i++) for (const s of sigs) s.value = i * 10
    expect(posted).toHaveLength(1)
    expect(els.map((e) => e.textContent)).toEqual(['', '', ''])
    posted[0]!()
    expect(els.map((e) => e.textContent)).toEqual(['990', '990', '990'])
    sigs[0]!.value = 1
    expect(posted).toHaveLength(2)
  })

  it("should flush before the next frame with 'animationFrame'", async () => {
    const raf = vi.spyOn(globalThis, 'requestAnimationFrame')
    configure({ schedule: 'animationFrame' })
    const el = document.createElement('p')
    new Signal('frame').bind(el)
    await Promise.resolve()
    expect(el.textContent).toBe('')
    expect(raf).toHaveBeenCalledTimes(1)
    await new Promise((r) => requestAnimationFrame(() => r(undefined)))
    expect(el.textContent).toBe('frame')
    raf.mockRestore()
  })

  it('should report a schedule that throws and keep posting later flushes', () => {
    const errors: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
    let fail = true
    const posted: (() => void)[] = []
    configure({ schedule: (f) => { if (fail) throw new Error('no frames here'); posted.push(f) } })
    const el = document.createElement('p')
    const s = new Signal('a')
    s.bind(el)
    expect(errors.map(String)).toEqual(['Error: no frames here'])
    fail = false
    s.value = 'b'
    expect(posted).toHaveLength(1)
    posted[0]!()
    expect(el.textContent).toBe('b')
    vi.unstubAllGlobals()
  })

  it('should post a flush again for renders left queued by a cycle cut-off, at the next write', () => {
    const posted: (() => void)[] = []
    configure({ schedule: (f) => posted.push(f) })
    const s = new Signal(0)
    const el = document.createElement('p')
    let loop = false
    s.bind(el, { format: (v) => { if (loop) s.value = v + 1; return v } })
    posted.shift()!()
    loop = true
    s.value = 1
    expect(() => posted.shift()!()).toThrow(/^Cycle detected/)
    loop = false
    // the binding is still queued, but no flush is posted: this write must post one
    s.value = -1
    expect(posted).toHaveLength(1)
    posted.shift()!()
    expect(el.textContent).toBe('-1')
  })

  it('should retry a throwing schedule at each write to a queued binding\'s signal, reporting once per write', () => {
    const errors: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
    let fail = false
    const posted: (() => void)[] = []
    configure({ schedule: (f) => { if (fail) throw new Error('no frames here'); posted.push(f) } })
    const el = document.createElement('p')
    const s = new Signal('a')
    s.bind(el)
    posted.shift()!()
    fail = true
    s.value = 'b'
    expect(errors).toHaveLength(1)
    fail = false
    s.value = 'c'
    expect(posted).toHaveLength(1)
    posted[0]!()
    expect(el.textContent).toBe('c')
    vi.unstubAllGlobals()
  })

  it('should post the pending renders the new way when the schedule changes before the old one flushed', async () => {
    const dropped: (() => void)[] = []
    configure({ schedule: (f) => dropped.push(f) })
    const el = document.createElement('p')
    const s = new Signal(0)
    s.bind(el)
    expect(dropped).toHaveLength(1)
    configure({ schedule: 'microtask' })
    s.value = 1
    await Promise.resolve()
    expect(el.textContent).toBe('1')
    // the old flush, if it comes after all, finds nothing to do; later writes post as usual
    dropped[0]!()
    s.value = 2
    await Promise.resolve()
    expect(el.textContent).toBe('2')
  })

  it('should lose no render with a throttle that keeps the first flush it is given and ignores the rest while it waits', () => {
    // A flush posted before a manual flush() still comes, and it is the only one this schedule will call: it must
    // render what was written since (each post giving a callback of its own that did nothing once stale lost it).
    let waiting: (() => void) | undefined
    configure({ schedule: (f) => void (waiting ??= f) })
    const tick = (): void => {
      const f = waiting
      waiting = undefined
      f?.()
    }
    const el = document.createElement('p')
    const s = new Signal(0)
    s.bind(el)
    flush()
    s.value = 1
    tick()
    expect(el.textContent).toBe('1')
    s.value = 2
    s.value = 3
    tick()
    expect(el.textContent).toBe('3')
  })

  it('should not post again when the schedule set is the same one', () => {
    const posted: (() => void)[] = []
    const schedule = (f: () => void): void => void posted.push(f)
    configure({ schedule })
    const el = document.createElement('p')
    new Signal(0).bind(el)
    configure({ schedule })
    configure({})
    expect(posted).toHaveLength(1)
  })

  it('should throw a TypeError naming schedule for a bad one', () => {
    expect(() => configure({ schedule: 5 as never })).toThrow(/^schedule: expected 'microtask', 'animationFrame' or a function, got number$/)
    // A misspelt name is shown, quoted.
    expect(() => configure({ schedule: 'raf' as never })).toThrow(/^schedule: expected 'microtask', 'animationFrame' or a function, got "raf"$/)
    expect(() => configure({ schedule: 'idle' as never })).toThrow(TypeError)
  })

  it('should throw a TypeError for options that are not an object (the schedule passed alone), and keep the schedule', async () => {
    const posted: (() => void)[] = []
    for (const bad of ['animationFrame', (f: () => void) => posted.push(f), null, undefined])
      expect(() => configure(bad as never)).toThrow(/^configure: expected an object, got (string|function|null|undefined)$/)
    const el = document.createElement('p')
    new Signal('shown').bind(el)
    await Promise.resolve()
    expect(el.textContent).toBe('shown')
    expect(posted).toHaveLength(0)
  })
})

describe('configure (synchronous schedule)', () => {
  it('should keep rendering with a schedule that flushes synchronously', () => {
    configure({ schedule: (f) => f() })
    const el = document.createElement('p')
    const s = new Signal(1)
    s.bind(el)
    expect(el.textContent).toBe('1')
    s.value = 2
    expect(el.textContent).toBe('2')
    s.value = 3
    expect(el.textContent).toBe('3')
    configure({ schedule: 'microtask' })
  })

  it('should render a diamond once per write, never with a half-propagated value', () => {
    configure({ schedule: (f) => f() })
    const s = new Signal(1)
    const a = computed(() => s.value * 2)
    const b = computed(() => s.value * 3)
    const el = document.createElement('p')
    const writes: string[] = []
    const text = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent')!
    Object.defineProperty(el, 'textContent', {
      get: () => text.get!.call(el),
      set: (v: string) => { writes.push(v); text.set!.call(el, v) },
    })
    computed(() => `${a.value} + ${b.value}`).bind(el)
    s.value = 2
    s.value = 3
    expect(writes).toEqual(['2 + 3', '4 + 6', '6 + 9'])
  })

  it('should render once after a batch, with its final values', () => {
    const seen: string[] = []
    configure({ schedule: (f) => { f(); seen.push(el.textContent!) } })
    const a = new Signal(1)
    const b = new Signal(1)
    const el = document.createElement('p')
    computed(() => `${a.value}+${b.value}`).bind(el)
    seen.length = 0
    batch(() => {
      a.value = 2
      b.value = 2
      expect(el.textContent).toBe('1+1')
    })
    expect(el.textContent).toBe('2+2')
    expect(seen).toEqual(['2+2'])
  })

  it('should render an effect\'s writes after the effect ran', () => {
    configure({ schedule: (f) => f() })
    const s = new Signal(0)
    const el = document.createElement('p')
    s.bind(el)
    const dispose = effect(() => {
      s.value = 5
      expect(el.textContent).toBe('0')
    })
    expect(el.textContent).toBe('5')
    dispose()
  })
})

// The README's recipe: 'animationFrame' asks for its frame in a microtask, after the code that wrote.
it("'animationFrame' under fake timers: a write, a microtask, then the next frame renders", async () => {
  vi.useFakeTimers()
  try {
    configure({ schedule: 'animationFrame' })
    const el = document.createElement('p')
    const s = new Signal(0)
    s.bind(el)
    await Promise.resolve()
    vi.advanceTimersToNextFrame()
    expect(el.textContent).toBe('0')
    s.value = 1
    await Promise.resolve()
    vi.advanceTimersToNextFrame()
    expect(el.textContent).toBe('1')
  } finally {
    vi.useRealTimers()
    flush()
    configure({ schedule: 'microtask' })
  }
})
