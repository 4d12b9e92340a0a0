// A burst of writes from many microtasks: 10 writers each write one bound signal `writes` times, one write per
// microtask. Shared by the tests of the microtask schedule's single flush chain (happy-dom and Chromium).
import { Signal, flush, settled } from '@eddy/signal'

/** Runs the burst, calling `after(w, k)` after writer `w`'s `k`-th write (from 1); resolves with the renders. */
export async function burstRenders(after: (w: number, k: number) => void = () => {}, writes = 100): Promise<number> {
  const s = new Signal(0)
  let renders = 0
  s.bind(document.createElement('i'), { format: (v) => (renders++, v) })
  flush()
  renders = 0
  const writer = async (w: number) => {
    for (let k = 1; k <= writes; k++) {
      s.value = w * 1000 + k
      after(w, k)
      await Promise.resolve()
    }
  }
  await Promise.all(Array.from({ length: 10 }, (_, w) => writer(w)))
  await settled()
  return renders
}
