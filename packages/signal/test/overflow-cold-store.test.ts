// A stack overflow in a write where propagate's queue store is still cold (an IC miss is a runtime call that can
// overflow with no JS call made): the binding was flagged PENDING and never queued, so no later write queues it
// (propagate skips a PENDING leaf). README: "A stack overflow anywhere in the library's own work ... leaves nothing
// stuck". Found as the "lost binding" count of overflow-schedule.test.ts (1 of 20 rounds, always the first: cold).
import { afterEach, expect, it } from 'vitest'
import { Signal, flush } from '@eddy/signal'
import { resetSchedule } from './reset-schedule.ts'
import { nearlyFull } from './overflow-cases.ts'
import * as render from '../src/render.ts'

afterEach(resetSchedule)

const tick = () => new Promise((r) => setTimeout(r, 0))

it('an overflow in the first writes of a fresh module: the lone binding renders at a later write', async () => {
  const lost: number[] = []
  for (let round = 0; round < 5; round++) {
    const s = new Signal(0)
    const el = document.createElement('p')
    const b = s.bind(el)
    await tick()
    nearlyFull(() => {
      if (!render.scheduled) s.value++
    })
    await tick()
    flush()
    s.value = -1
    await tick()
    s.value = -2
    await tick()
    if (el.textContent != '-2') lost.push(round) // observed: [0], text '0' for good (binding PENDING, queue empty)
    b.dispose()
  }
  expect(lost).toEqual([])
})
