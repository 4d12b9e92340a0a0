import { describe, expect, it } from 'vitest'
import { load } from './fake-host.ts'
import { strategyContract } from './strategy-contract.ts'

describe('strategy: postTask', () => {
  strategyContract('postTask')

  it('should be preferred over every other primitive', async () => {
    const { host, mod } = await load('postTask')
    expect(mod.strategy).toBe('postTask')
    mod.macrotask(() => host.log.push('a'))
    host.wake()
    expect(host.log).toEqual(['post:postTask', 'wake:postTask', 'a'])
  })
})
