import { describe, expect, it } from 'vitest'
import { load, loadReal } from './fake-host.ts'
import { strategyContract } from './strategy-contract.ts'

describe('strategy: setTimeout', () => {
  strategyContract('setTimeout')

  it('should post with no delay', async () => {
    const { host, mod } = await load('setTimeout')
    mod.macrotask(() => host.log.push('a'))
    expect(host.log).toEqual(['post:setTimeout'])
    host.advance(0)
    expect(host.log).toEqual(['post:setTimeout', 'wake:setTimeout', 'a'])
  })

  it('should run on the real setTimeout when nothing faster exists', async () => {
    const mod = await loadReal('setTimeout')
    expect(mod.strategy).toBe('setTimeout')
    await mod.yieldToMain()
    expect(await mod.probeTurnRate({ durationMs: 30 })).toBeGreaterThan(10)
  })
})
