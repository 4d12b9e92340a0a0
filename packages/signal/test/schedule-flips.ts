// Shared by the happy-dom and Chromium copies of the test (Chromium runs a real 'animationFrame').
import { expect, it } from 'vitest'
import { Signal, configure, flush, settled } from '@eddy/signal'

const tick = () => new Promise((r) => setTimeout(r, 0))
const ops: Record<string, () => void> = {
  F: () => flush(),
  M: () => configure({ schedule: 'microtask' }),
  A: () => configure({ schedule: 'animationFrame' }),
  S: () => configure({ schedule: (f) => f() }),
  T: () => configure({ schedule: (f) => setTimeout(f) }),
  D: () => configure({ schedule: () => {} }),
}
const burst = async (seq: string, at: number) => {
  const s = new Signal(0)
  let renders = 0
  const el = document.createElement('i')
  s.bind(el, { format: (v) => (renders++, v) })
  flush()
  renders = 0
  const writer = async (w: number) => {
    for (let k = 1; k <= 50; k++) {
      s.value = w * 1000 + k
      if (w == 0 && k == at) for (const c of seq) ops[c]!()
      // end in microtask
      if (w == 0 && k == at + 5) configure({ schedule: 'microtask' })
      await Promise.resolve()
    }
  }
  await Promise.all(Array.from({ length: 10 }, (_, w) => writer(w)))
  let done = false
  void settled().then(() => (done = true))
  for (let i = 0; i < 10 && !done; i++) await tick()
  for (let i = 0; i < 3; i++) await tick()
  return { renders, done, text: el.textContent, last: String(s.value) }
}
/** Defines the test: every sequence of up to 3 flush()/configure() calls inside a burst of microtask writes. */
export function scheduleFlips(): void {
  // Every sequence of up to 3 of flush()/configure() calls inside a burst of microtask writes: no doubled chain, the
  // last value rendered, settled() resolved (the browser copy runs a real animationFrame).
  it('schedule flips during a burst', async () => {
    const base = (await burst('', 1)).renders
    const letters = Object.keys(ops)
    const seqs: string[] = []
    for (const a of letters) { seqs.push(a); for (const b of letters) { seqs.push(a + b); for (const c of letters) seqs.push(a + b + c) } }
    const bad: string[] = []
    for (const seq of seqs) for (const at of [1, 20]) {
      const r = await burst(seq, at)
      // a synchronous schedule left for 5 rounds renders at each write: its count is not a doubling
      const sync = seq.replace(/F/g, '').endsWith('S')
      if ((!sync && r.renders > base + 10) || !r.done || r.text != r.last) bad.push(`${seq}@${at}: ${JSON.stringify(r)}`)
    }
    console.log('base', base, '\n' + bad.join('\n'))
    expect(bad).toEqual([])
  }, 120_000)
}
