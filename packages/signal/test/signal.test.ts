import { describe, expect, it, vi } from 'vitest'
import { Signal, computed, effect, batch, untracked } from '@eddy/signal'

describe('Signal', () => {
  it('should stand for its value in JSON, arithmetic and template literals, tracked as .value is', () => {
    const count = new Signal(3)
    const doubled = computed(() => count.value * 2)
    // They read `{"s":{"_flags":0,...}}` and '[object Object]'.
    expect(JSON.stringify({ count, doubled })).toBe('{"count":3,"doubled":6}')
    expect(`${count} and ${doubled}`).toBe('3 and 6')
    expect(+count + +doubled).toBe(9)
    const seen: string[] = []
    const stop = effect(() => void seen.push(`${count}`))
    count.value = 4
    expect(seen).toEqual(['3', '4'])
    stop()
  })

  it('should track a read through valueOf or toJSON, in a computed and in an effect', () => {
    const count = new Signal(1)
    const plus = computed(() => +count)
    const doubled = computed(() => (count as unknown as number) * 2)
    const seen: string[] = []
    const stop = effect(() => void seen.push(JSON.stringify({ count })))
    expect([plus.value, doubled.value]).toEqual([1, 2])
    count.value = 2
    expect([plus.value, doubled.value]).toEqual([2, 4])
    expect(seen).toEqual(['{"count":1}', '{"count":2}'])
    stop()
  })

  it('should work with and without new, with methods on Signal.prototype', () => {
    const a = new Signal(1)
    const b = Signal(2)
    expect(a).toBeInstanceOf(Signal)
    expect(b).toBeInstanceOf(Signal)
    expect(a.value + b.value).toBe(3)
    expect(Object.getOwnPropertyNames(a).every((k) => k.startsWith('_'))).toBe(true)
    expect(Object.getOwnPropertyDescriptor(Signal.prototype, 'value')?.get).toBeTypeOf('function')
  })

  it('should initialize `this` when called on an instance of Signal: ES5 inheritance, as TypeScript (ES5) and Babel (loose) emit it', () => {
    // `_super.call(this, v) || this`: it made a plain signal and left `this` bare ("c.inc is not a function").
    function Counter(this: any, v: number) {
      const self = (Signal as any).call(this, v) || this
      self.step = 2
      return self
    }
    Counter.prototype = Object.create(Signal.prototype, { constructor: { value: Counter, writable: true, configurable: true } })
    Counter.prototype.inc = function (this: any) {
      this.value += this.step
    }
    const c = new (Counter as any)(3)
    const seen: number[] = []
    const stop = effect(() => void seen.push(c.value))
    c.inc()
    stop()
    expect([c instanceof Counter, c instanceof Signal, seen]).toEqual([true, true, [3, 5]])
    // Called on anything else (a namespace object, a plain one), it still makes a new signal.
    const ns = { Signal }
    const made = ns.Signal(1)
    expect([made instanceof Signal, made !== (ns as unknown), made.value]).toEqual([true, true, 1])
  })

  describe('.value', () => {
    it('should read and write', () => {
      const s = new Signal('a')
      s.value = 'b'
      expect(s.value).toBe('b')
    })

    it('should treat a write equal by Object.is as a no-op', () => {
      const s = new Signal<number>(NaN)
      const seen: number[] = []
      s.subscribe((v) => seen.push(v))
      s.value = NaN
      s.value = 0
      s.value = -0
      s.value = -0
      expect(seen).toEqual([NaN, 0, -0])
    })

    it('should use the equals option to decide whether a write is a change', () => {
      const s = new Signal({ id: 1, n: 0 }, { equals: (a, b) => a.id === b.id })
      const fn = vi.fn()
      s.subscribe(fn)
      s.value = { id: 1, n: 1 }
      expect(fn).toHaveBeenCalledTimes(1)
      expect(s.value.n).toBe(0)
      s.value = { id: 2, n: 2 }
      expect(fn).toHaveBeenCalledTimes(2)
    })

    it('should change nothing when equals throws', () => {
      const s = new Signal(1, {
        equals: (a, b) => {
          if (b === 99) throw new Error('equals')
          return a === b
        },
      })
      const seen: number[] = []
      effect(() => {
        seen.push(s.value)
      })
      expect(() => {
        s.value = 99
      }).toThrow('equals')
      expect(s.value).toBe(1)
      s.value = 2
      expect(seen).toEqual([1, 2])
    })

    it('should throw a TypeError naming equals when it is not a function', () => {
      expect(() => new Signal(0, { equals: 'x' as never })).toThrow(TypeError)
      expect(() => new Signal(0, { equals: 'x' as never })).toThrow(/^equals: expected a function, got string$/)
    })

    it('should throw a TypeError naming options when they are not an object (a comparison passed in their place)', () => {
      expect(() => new Signal(0, ((a: number, b: number) => a === b) as never)).toThrow(
        /^options: expected an object, got function$/,
      )
      expect(() => Signal(0, 'x' as never)).toThrow(TypeError)
      expect(() => Signal(0, 'x' as never)).toThrow(/^options: expected an object, got string$/)
      expect(() => new Signal(0, null as never)).toThrow(/^options: expected an object, got null$/)
      expect(new Signal(0, undefined).value).toBe(0)
    })
  })

  describe('.peek()', () => {
    it('should read without tracking', () => {
      const s = new Signal(1)
      let runs = 0
      effect(() => {
        runs++
        s.peek()
      })
      s.value = 2
      expect(runs).toBe(1)
      expect(s.peek()).toBe(2)
    })
  })

  describe('.subscribe()', () => {
    it('should call fn now, then after each change, until unsubscribed', () => {
      const s = new Signal(1)
      const seen: number[] = []
      const off = s.subscribe((v) => seen.push(v))
      s.value = 2
      s.value = 2
      s.value = 3
      off()
      s.value = 4
      expect(seen).toEqual([1, 2, 3])
    })

    it('should return a function that also works as Symbol.dispose', () => {
      const s = new Signal(1)
      const fn = vi.fn()
      const off = s.subscribe(fn)
      const key = Symbol.dispose ?? Symbol.for('Symbol.dispose')
      ;(off as unknown as Record<symbol, () => void>)[key]!()
      s.value = 2
      expect(fn).toHaveBeenCalledTimes(1)
    })

    it('should not track what the callback reads', () => {
      const s = new Signal(1)
      const other = new Signal(0)
      const fn = vi.fn(() => other.value)
      s.subscribe(fn)
      other.value = 1
      expect(fn).toHaveBeenCalledTimes(1)
    })

    it('should throw a TypeError naming fn when it is not a function', () => {
      expect(() => new Signal(0).subscribe(null as never)).toThrow(/^subscribe: expected a function, got null$/)
    })

    it('on a computed that throws: throws now, and later skips fn while it throws, reporting each error', () => {
      const input = new Signal('{"n":1}')
      const n = computed(() => JSON.parse(input.value).n as number)
      const bad = new Signal('{')
      const never = computed(() => JSON.parse(bad.value))
      expect(() => never.subscribe(() => {})).toThrow(SyntaxError)
      expect((never as unknown as { _subs?: unknown })._subs).toBeUndefined()
      const seen: number[] = []
      const reported: unknown[] = []
      vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
      try {
        n.subscribe((v) => seen.push(v))
        input.value = '{"n":'
        input.value = '{"n'
        expect(reported.map((e) => (e as Error).name)).toEqual(['SyntaxError', 'SyntaxError'])
        input.value = '{"n":2}'
        expect(seen).toEqual([1, 2])
      } finally {
        vi.unstubAllGlobals()
      }
    })

    it('should name the mistake when subscribe is taken off its signal (useSyncExternalStore(s.subscribe))', () => {
      const s = new Signal(0)
      const { subscribe } = s
      const fn = vi.fn()
      expect(() => subscribe(fn)).toThrow(TypeError)
      expect(() => subscribe(fn)).toThrow(/^subscribe\(\) needs its signal: s\.subscribe\(fn\)$/)
      expect(fn).not.toHaveBeenCalled()
      // A computed's subscribe is the same method.
      const { subscribe: sub2 } = computed(() => s.value)
      expect(() => sub2(fn)).toThrow(/^subscribe\(\) needs its signal/)
    })

    it('should let a subscriber unsubscribe itself or a later one, and subscribe new ones, while it runs', () => {
      const s = new Signal(0)
      const seen: string[] = []
      const off = s.subscribe((v) => {
        seen.push(`a${v}`)
        if (v === 1) off()
      })
      let offC = (): void => {}
      s.subscribe((v) => {
        if (v === 1) offC = s.subscribe((w) => seen.push(`c${w}`))
        if (v === 3) offC() // before c runs in this flush: c does not see 3
      })
      s.value = 1
      s.value = 2
      s.value = 3
      s.value = 4
      expect(seen).toEqual(['a0', 'a1', 'c1', 'c2'])
      expect((s as unknown as { _subs: { _nextSub?: unknown } })._subs._nextSub).toBeUndefined()
    })

    it('should subscribe to a computed, and unsubscribe from it', () => {
      const s = new Signal(1)
      const c = computed(() => s.value * 10)
      const seen: number[] = []
      const off = c.subscribe((v) => seen.push(v))
      s.value = 2
      off()
      s.value = 3
      expect(seen).toEqual([10, 20])
      expect(c.value).toBe(30)
    })
  })
})

describe('batch', () => {
  it('should throw a TypeError naming batch when fn is not a function, and leave no batch open', () => {
    expect(() => batch(1 as never)).toThrow(/^batch: expected a function, got number$/)
    const a = new Signal(0)
    const seen: number[] = []
    effect(() => void seen.push(a.value))
    a.value = 1
    expect(seen).toEqual([0, 1])
  })

  it('should run effects once, after the outermost batch, and return the value', () => {
    const a = new Signal(1)
    const b = new Signal(1)
    const seen: number[] = []
    effect(() => {
      seen.push(a.value + b.value)
    })
    const r = batch(() => {
      a.value = 2
      batch(() => {
        b.value = 3
      })
      expect(seen).toEqual([2])
      return 'done'
    })
    expect(r).toBe('done')
    expect(seen).toEqual([2, 5])
  })

  it('should nest inside an effect inside a batch', () => {
    const a = new Signal(0)
    const b = new Signal(0)
    const seen: string[] = []
    effect(() => {
      seen.push(`${a.value}${b.value}`)
    })
    batch(() => {
      a.value = 1
      const stop = effect(() => {
        batch(() => {
          b.value = a.value + 1
        })
      })
      a.value = 2
      expect(seen).toEqual(['00'])
      stop()
    })
    // b was written by the first run (a = 1); the effect was disposed before it could run again for a = 2
    expect(seen).toEqual(['00', '22'])
    expect(b.value).toBe(2)
  })

  it('should let reads inside the batch see the new values', () => {
    const a = new Signal(1)
    const c = computed(() => a.value * 2)
    batch(() => {
      a.value = 5
      expect(c.value).toBe(10)
    })
  })

  it('should still run effects when the batch throws', () => {
    const a = new Signal(1)
    const fn = vi.fn(() => {
      a.value
    })
    effect(fn)
    expect(() =>
      batch(() => {
        a.value = 2
        throw new Error('x')
      }),
    ).toThrow('x')
    expect(fn).toHaveBeenCalledTimes(2)
  })
})

describe('untracked', () => {
  it('should call fn with no argument, as a plain call would (untracked(console.log) logs an empty line)', () => {
    expect(untracked((...args: unknown[]) => args.length)).toBe(0)
    const s = new Signal(0)
    let cleanupArgs = -1
    const stop = effect(() => { s.value; return (...args: unknown[]) => void (cleanupArgs = args.length) })
    stop()
    expect(cleanupArgs).toBe(0)
  })

  it('should throw a TypeError naming untracked when fn is not a function', () => {
    expect(() => untracked(null as never)).toThrow(/^untracked: expected a function, got null$/)
  })

  it('should read without subscribing and return the value', () => {
    const a = new Signal(1)
    const b = new Signal(1)
    let runs = 0
    const read: number[] = []
    effect(() => {
      runs++
      a.value
      read.push(untracked(() => b.value))
    })
    b.value = 2
    expect(runs).toBe(1)
    a.value = 2
    expect(runs).toBe(2)
    // The values themselves (b was 2 by the second run), not another read of the same field.
    expect(read).toEqual([1, 2])
  })
})
