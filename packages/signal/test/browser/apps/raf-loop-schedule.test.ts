// Minimal repro, no game: a requestAnimationFrame loop that writes a bound signal each frame, under each schedule.
// Per frame (the timestamp every rAF callback of one frame shares): how many DOM writes, and whether the DOM shows the
// value written in that frame by the time the frame's callbacks are done.
import { afterEach, expect, it, vi } from 'vitest'
import { Signal, configure, flush } from '@eddy/signal'

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

async function run(schedule: 'microtask' | 'animationFrame', order: 'first' | 'last', n = 40) {
  configure({ schedule })
  const realRaf = window.requestAnimationFrame.bind(window)
  let ts = 0
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => realRaf((t) => ((ts = t), cb(t))))
  const el = document.body.appendChild(document.createElement('output'))
  const tick = new Signal(0)
  tick.bind(el)
  const writes = new Map<number, string[]>() // frame ts -> texts written in it
  const wrote = new Map<number, number>() // frame ts -> value the loop wrote in it
  new MutationObserver((l) => l.forEach(() => writes.set(ts, [...(writes.get(ts) ?? []), el.textContent!]))).observe(el, {
    childList: true,
    characterData: true,
    subtree: true,
  })
  let i = 0
  await new Promise<void>((done) => {
    const loop = (t: number) => {
      if (++i > n) return done()
      if (order === 'first') requestAnimationFrame(loop)
      tick.value = i
      wrote.set(t, i)
      if (order === 'last') requestAnimationFrame(loop)
    }
    requestAnimationFrame(loop)
  })
  const rows = [...wrote].slice(3, -3).map(([t, v]) => ({ v, w: writes.get(t) ?? [] }))
  return {
    perFrame: rows.map((r) => r.w.length).join(''),
    framesShowingTheirOwnValue: rows.filter((r) => r.w.at(-1) === String(r.v)).length,
    frames: rows.length,
  }
}

it.each([
  ['microtask', 'first'],
  ['microtask', 'last'],
  ['animationFrame', 'first'],
  ['animationFrame', 'last'],
] as const)('schedule %s, loop calls requestAnimationFrame %s: one DOM write per frame, showing that frame\'s value', async (schedule, order) => {
  const r = await run(schedule, order)
  console.log(`${schedule}/${order}: writes per frame ${r.perFrame}; frames whose DOM shows their own value: ${r.framesShowingTheirOwnValue}/${r.frames}`)
  expect(r.perFrame).toBe('1'.repeat(r.frames))
  expect(r.framesShowingTheirOwnValue).toBe(r.frames)
})
