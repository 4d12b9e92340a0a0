// The batch revert (bcbbb0d), from a review: stack overflows where the stack is nearly full, in batches that write and
// put back (built dist).
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as source from '@eddy/signal'
import { nearlyFull } from './overflow-cases.ts'

const dist = join(fileURLToPath(import.meta.url), '../../dist/index.js')
const lib: typeof source = await import(/* @vite-ignore */ pathToFileURL(dist).href)
const { Signal, computed, effect, batch } = lib
const SNAP = 1 << 13

describe('batch revert under stack overflow (dist)', () => {
  for (let round = 0; round < 5; round++)
    it(`round ${round}: nothing stuck, nothing skipped`, () => {
      // fresh signals each time, so the first write of each (cold-ish) lands near the limit
      const made: InstanceType<typeof Signal<number>>[] = []
      const seen: number[][] = []
      let i = 0
      nearlyFull(() => {
        const s = new Signal(0)
        const c = computed(() => s.value + 1)
        const mine: number[] = []
        effect(() => void mine.push(c.value, s.value))
        made.push(s)
        seen.push(mine)
        const k = ++i
        batch(() => {
          s.value = k
          s.value = 0
        })
      })
      let stuck = 0
      for (const s of made) if ((s as any)._flags & SNAP) stuck++
      // after the storm: a top-level revert and a change on each
      let wrong = 0
      let extra = 0
      made.forEach((s, j) => {
        const before = seen[j].length
        const v0 = s.peek()
        batch(() => ((s.value = v0 === 7 ? 8 : 7), (s.value = v0)))
        if (seen[j].length !== before) extra++
        s.value = 3
        if (seen[j].slice(-2).join() !== '4,3') wrong++
      })
      console.log(`made ${made.length}, SNAP stuck ${stuck}, extra runs after revert ${extra}, wrong ${wrong}`)
      expect({ stuck, wrong }).toEqual({ stuck: 0, wrong: 0 })
    })
})
