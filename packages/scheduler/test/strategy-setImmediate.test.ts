import { describe, expect, it } from 'vitest'
import { loadReal } from './fake-host.ts'
import { strategyContract } from './strategy-contract.ts'

describe('strategy: setImmediate', () => {
  strategyContract('setImmediate')

  it('should be what Node (and happy-dom on Node) detects, and run on the real setImmediate', async () => {
    const mod = await loadReal('setImmediate')
    expect(mod.strategy).toBe('setImmediate')
    const log: string[] = []
    const done = new Promise<void>((resolve) => mod.macrotask(() => { log.push('a'); resolve() }))
    setTimeout(() => log.push('timeout'), 0)
    log.push('sync')
    await done
    expect(log[0]).toBe('sync')
    expect(log).toContain('a')
  })
})
