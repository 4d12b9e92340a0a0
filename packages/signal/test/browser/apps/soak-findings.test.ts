// What a soak of a long-running page found: a documented V8 retention (pinned), and a burst's queue kept at its size.
import { describe, expect, it } from 'vitest'
import { Signal, computed, effect, flush } from '@eddy/signal'
import { subscribers } from '../dom.ts'
import { heapUsed, sleep } from './soak.ts'
import { collectUntil } from '../../../../../scripts/gc.ts'

describe('soak findings', () => {
  // README (bind): "let the getter reach no node. Reading none is not enough": a getter made in the component's
  // function, next to any closure that names the node (a listener, a `format`), shares that closure's context in V8
  // and reaches the node all the same, so the app's store keeps the page. In the soak, 1,800 routes dropped without
  // dispose kept all 1,800 pages (~2.9 KB and 9 store subscribers each), and every store write re-rendered them.
  // Made in a function of its own, as the README shows, the getter reaches nothing and the page goes.
  it('a store computed made beside a listener naming the node keeps the page; made in its own function, it goes', async () => {
    const user = new Signal('ada') // the app's store: lives all day
    const collected = new Set<string>()
    const registry = new FinalizationRegistry<string>((k) => collected.add(k))
    const upper = (s: Signal<string>) => computed(() => s.value.toUpperCase())
    const page = (key: string, own: boolean) => {
      const el = document.body.appendChild(document.createElement('p'))
      el.addEventListener('click', () => el.classList.toggle('on'))
      const shout = own ? upper(user) : computed(() => user.value.toUpperCase()) // reads no node
      shout.bind(el)
      flush()
      registry.register(el, key)
      el.remove() // the route changes, without dispose
    }
    page('own', true)
    page('beside', false)
    await collectUntil(() => collected.has('own') && collected.has('beside'))
    expect([...collected].sort()).toEqual(['own'])
    expect(subscribers(user)).toBe(1)
  })

  // One burst (a big import, a table of 200,000 cells built once) leaves the effect and render queues' arrays at its
  // size (README, Performance: ~5 B a slot, ~1 MB after 200,000 effects). Cutting them after a big drain was tried
  // and reverted: a page whose every write fills them past the cut (20,000 effects on one store) regrew them at
  // each write, 1.5x slower. What must hold: a high-water mark, not growth: a second burst keeps nothing more.
  it('a burst of 200,000 effects, run and disposed: a second burst keeps nothing more than the first', async () => {
    const burst = () => {
      const s = new Signal(0)
      const stops = Array.from({ length: 200_000 }, () => effect(() => void s.value))
      s.value = 1
      for (const stop of stops) stop()
    }
    const before = (await heapUsed()).cdp
    burst()
    await sleep(20)
    const first = (await heapUsed()).cdp - before
    burst()
    await sleep(20)
    const second = (await heapUsed()).cdp - before - first
    expect(second).toBeLessThan(300_000)
    expect(first).toBeLessThan(4_000_000)
  })
})
