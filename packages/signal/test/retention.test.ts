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
