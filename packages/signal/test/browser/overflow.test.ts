// Every stack-overflow case in Chromium, in cold code (see overflow-rounds.ts).
import { describe, it } from 'vitest'
import { actNames, overflowRounds } from './overflow-rounds.ts'

describe('stack overflow (built dist, cold, Chromium)', async () => {
  for (const name of await actNames())
    it(`should leave no effect, binding, computed or batch stuck when the stack overflows in ${name}`, () =>
      overflowRounds(name, 4))
})
