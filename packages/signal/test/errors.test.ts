// Several errors at once: none is lost, whether the host has `reportError` or not, and whatever `reportError` does.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Signal, batch, configure, effect } from '@eddy/signal'

afterEach(() => {
  vi.unstubAllGlobals()
})

/** What `fn` throws (fails the test if it returns). */
function thrown(fn: () => void): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

/** Two effects on `s` that throw `first` and `second` once `s` is truthy, and one that counts its runs. */
function twoThrowing(s: Signal<number>, first: unknown, second: unknown): { runs: number } {
  const counter = { runs: 0 }
  effect(() => {
    if (s.value) throw first
  })
  effect(() => {
    s.value
    counter.runs++
  })
  effect(() => {
    if (s.value) throw second
  })
  return counter
}

describe('several errors without reportError', () => {
  it('should throw an AggregateError holding every error of a flush, in order, after running the others', () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    const first = new Error('first')
    const second = new Error('second')
    const counter = twoThrowing(s, first, second)
    const error = thrown(() => (s.value = 1))
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors).toEqual([first, second])
    expect(counter.runs).toBe(2)
  })

  it('should still throw a lone error as it is', () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    const only = { reason: 'not an Error' }
    effect(() => {
      if (s.value) throw only
    })
    expect(thrown(() => (s.value = 1))).toBe(only)
  })

  it('should throw both the error of a batch function and the error of an effect it triggered', () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    const fromEffect = new Error('effect')
    const fromBatch = new Error('batch')
    effect(() => {
      if (s.value) throw fromEffect
    })
    const error = thrown(() =>
      batch(() => {
        s.value = 1
        throw fromBatch
      }),
    )
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors).toEqual([fromBatch, fromEffect])
  })

  it("should throw both the first run's error of a new effect and the error of an effect it triggered", () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    const fromOther = new Error('other')
    const fromNew = new Error('new')
    effect(() => {
      if (s.value) throw fromOther
    })
    const error = thrown(() =>
      effect(() => {
        s.value = 1
        throw fromNew
      }),
    )
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors).toEqual([fromNew, fromOther])
  })

  it('should throw both the error that disposes a new effect and the error of its cleanup', () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    const fromOther = new Error('other')
    const fromCleanup = new Error('cleanup')
    effect(() => {
      if (s.value) throw fromOther
    })
    const error = thrown(() =>
      effect(() => {
        s.value = 1
        return () => {
          throw fromCleanup
        }
      }),
    )
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors).toEqual([fromOther, fromCleanup])
  })

  it('should throw an error reported before a cycle together with the cycle, and not from a later write', () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    const loop = new Signal(0)
    const early = new Error('early')
    effect(() => {
      if (s.value) throw early
    })
    effect(() => {
      if (s.value) loop.value = loop.value + 1
    })
    const error = thrown(() => (s.value = 1))
    expect(error).toBeInstanceOf(AggregateError)
    const [a, b] = (error as AggregateError).errors
    expect(a).toBe(early)
    expect(String(b)).toMatch(/^Error: Cycle detected/)
    // An unrelated write that runs an effect without error must not throw the old error.
    const other = new Signal(0)
    let runs = 0
    effect(() => {
      other.value
      runs++
    })
    expect(() => (other.value = 1)).not.toThrow()
    expect(runs).toBe(2)
  })
})

describe('a reportError that throws', () => {
  it('should not stop the other effects, and its error is thrown after the flush', () => {
    const failure = new Error('reportError failed')
    const seen: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => {
      seen.push(e)
      throw failure
    })
    const s = new Signal(0)
    const first = new Error('first')
    const second = new Error('second')
    const counter = twoThrowing(s, first, second)
    const error = thrown(() => (s.value = 1))
    expect(seen).toEqual([first, second])
    expect(counter.runs).toBe(2)
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors).toEqual([first, second])
    // Nothing stays queued or flagged: the next write runs every effect again.
    expect(thrown(() => (s.value = 2))).toBeInstanceOf(AggregateError)
    expect(counter.runs).toBe(3)
  })
})

describe('review: errors from posting or running the render flush', () => {
  afterEach(() => {
    configure({ schedule: 'microtask' })
  })

  it('should throw both an effect error and the error of a render flushed at once by the schedule', () => {
    vi.stubGlobal('reportError', undefined)
    configure({ schedule: (f) => f() })
    const s = new Signal(0)
    const fromEffect = new Error('effect')
    const fromRender = new Error('render')
    const node = document.createElement('div')
    s.bind(node, {
      format: (v) => {
        if (v) throw fromRender
        return v
      },
    })
    effect(() => {
      if (s.value) throw fromEffect
    })
    const error = thrown(() => (s.value = 1))
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors).toEqual([fromEffect, fromRender])
  })

  it('should throw both an effect error and the error of a schedule that throws', () => {
    vi.stubGlobal('reportError', undefined)
    const fromSchedule = new Error('schedule')
    configure({
      schedule: () => {
        throw fromSchedule
      },
    })
    const s = new Signal(0)
    const fromEffect = new Error('effect')
    effect(() => {
      if (s.value) throw fromEffect
    })
    // Binding posts a flush: the schedule throws already.
    expect(thrown(() => s.bind(document.createElement('div')))).toBe(fromSchedule)
    const error = thrown(() => (s.value = 1))
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors).toEqual([fromEffect, fromSchedule])
  })
})

describe('review: one flat AggregateError', () => {
  it('should list the error of a batch function and each of several effect errors, flat and in order', () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    const fromBatch = new Error('batch')
    const first = new Error('first')
    const second = new Error('second')
    twoThrowing(s, first, second)
    const error = thrown(() =>
      batch(() => {
        s.value = 1
        throw fromBatch
      }),
    )
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors).toEqual([fromBatch, first, second])
  })

  it("should list a first run's error, its effects' errors and the cycle its writes started, flat, cycle last", () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    const loop = new Signal(0)
    const fromOther = new Error('other')
    const fromNew = new Error('new')
    effect(() => {
      if (s.value) throw fromOther
    })
    effect(() => {
      if (s.value) loop.value = loop.value + 1
    })
    const error = thrown(() =>
      effect(() => {
        s.value = 1
        throw fromNew
      }),
    )
    expect(error).toBeInstanceOf(AggregateError)
    const errors = (error as AggregateError).errors
    expect(errors.slice(0, 2)).toEqual([fromNew, fromOther])
    expect(String(errors[2])).toMatch(/^Error: Cycle detected/)
    expect(errors).toHaveLength(3)
  })
})

describe("review: a user's AggregateError", () => {
  it('should be kept whole, not spread into the one that combines it', () => {
    vi.stubGlobal('reportError', undefined)
    const s = new Signal(0)
    const own = new AggregateError([new Error('a'), new Error('b')], 'own')
    const second = new Error('second')
    twoThrowing(s, own, second)
    const error = thrown(() => (s.value = 1))
    expect((error as AggregateError).errors).toEqual([own, second])
  })
})
