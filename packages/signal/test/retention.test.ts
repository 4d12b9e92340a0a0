// An effect disposed by a getter during its own check: the computed it read found fresh must not keep it (and its
// closure) through the link it parked as its way back up (graph.ts: back()).
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { Signal, computed, effect, type Computed, type Dispose } from '@eddy/signal'

setFlagsFromString('--expose-gc')
const gc: () => void = runInNewContext('gc')
// A WeakRef keeps its target alive until the end of the job that made it: collect in a later task.
const collect = async () => {
  await new Promise((r) => setTimeout(r, 0))
  gc()
}

type Box = { stop?: Dispose }

// Its own scope, so that no other closure shares the context holding `big`.
function makeEffect(c: Computed<number>, s: Signal<number>, box: Box) {
  const big = { payload: new Array(1e5).fill(1) }
  const x = computed(() => s.value * 0) // a second source, read by the effect only
  const refs = { big: new WeakRef(big), x: new WeakRef(x) }
  box.stop = effect(() => {
    c.value
    x.value
    void big
  })
  return refs
}

// s -> b -> c -> effect (which also reads x). With `viaGetter`, b's getter disposes the effect when s becomes 1;
// b's value stays 0 for s < 2, so c is found fresh and is not recomputed.
function setup(viaGetter: boolean) {
  const s = new Signal(0)
  const box: Box = {}
  const b = computed(() => {
    const v = s.value
    if (viaGetter && v === 1 && box.stop) {
      box.stop()
      box.stop = undefined
    }
    return v >= 2 ? v : 0
  })
  const c = computed(() => b.value)
  const refs = makeEffect(c, s, box)
  return { s, c, box, refs }
}

const alive = (refs: ReturnType<typeof makeEffect>) => ({ big: !!refs.big.deref(), x: !!refs.x.deref() })

describe('a disposed effect is not kept by the computeds it read', () => {
  it('collects an effect disposed by a getter during its own check', async () => {
    const { s, c, box, refs } = setup(true)
    s.value = 1 // runEffect -> checkDirty(e): e -> c (ALONE) -> b; b's getter disposes e; c found fresh
    expect(box.stop).toBeUndefined()
    expect(c.value).toBe(0)
    s.value = 0 // b recomputes to 0 again: c still fresh, not recomputed
    expect(c.value).toBe(0)
    await collect()
    expect(alive(refs)).toEqual({ big: false, x: false })
    s.value = 3 // c recomputes
    expect(c.value).toBe(3)
  })

  it('collects an effect disposed by a getter during its own check, once c recomputes', async () => {
    const { s, c, refs } = setup(true)
    s.value = 1
    s.value = 3
    expect(c.value).toBe(3) // recompute(c) resets _depsTail
    await collect()
    expect(alive(refs)).toEqual({ big: false, x: false })
  })

  it('collects an effect disposed normally (outside a check)', async () => {
    const { s, c, box, refs } = setup(false)
    s.value = 1
    box.stop!()
    box.stop = undefined
    expect(c.value).toBe(0)
    await collect()
    expect(alive(refs)).toEqual({ big: false, x: false })
  })
})

// A cycle's members are sources of each other (each is linked to the one it read while that one ran, so that it hears
// when the cycle is broken): README, "Errors and cycles". Once the cycle is broken and one of them is read, their
// sources no longer hold them.
describe('a cycle of computeds, after its last effect', () => {
  // Its own scope: only `read` (dropped by the test) holds the computeds.
  function cycle(s: Signal<number>, sw: Signal<boolean>) {
    const big = { payload: new Array(1e5).fill(1) }
    const a: Computed<number> = computed(() => (sw.value ? s.value + b.value : s.value) + big.payload.length * 0)
    const b: Computed<number> = computed(() => a.value + 1)
    const stop = effect(() => {
      try {
        b.value
      } catch {}
    })
    return { read: () => a.value, stop, refs: { big: new WeakRef(big), a: new WeakRef(a), b: new WeakRef(b) } }
  }

  it('lets them go once the cycle is broken and one of them is read', async () => {
    const s = new Signal(1)
    const sw = new Signal(true)
    const made: Partial<ReturnType<typeof cycle>> = cycle(s, sw)
    const refs = made.refs!
    expect(() => made.read!()).toThrow('Cycle detected')
    made.stop!()
    sw.value = false
    expect(made.read!()).toBe(1)
    made.read = made.stop = undefined
    await collect()
    expect({ big: !!refs.big.deref(), a: !!refs.a.deref(), b: !!refs.b.deref() }).toEqual({ big: false, a: false, b: false })
  })
})
