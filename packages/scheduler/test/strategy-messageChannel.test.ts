import { describe, expect, it } from 'vitest'
import { load, loadReal } from './fake-host.ts'
import { strategyContract } from './strategy-contract.ts'

describe('strategy: messageChannel', () => {
  strategyContract('messageChannel')

  it('should create ONE channel, lazily, shared by every queue', async () => {
    const { host, mod } = await load('messageChannel')
    expect(host.channels).toBe(0)
    mod.macrotask(() => {})
    mod.createQueue().macrotask(() => {})
    expect(host.channels).toBe(1)
  })

  it('should ref the port while a callback waits and unref it when none does (so Node can exit)', async () => {
    const { host, mod } = await load('messageChannel')
    mod.macrotask(() => {})
    mod.createQueue().macrotask(() => {})
    host.wake()
    expect(host.log).toEqual(['ref', 'post:messageChannel', 'ref', 'post:messageChannel', 'wake:messageChannel'])
    host.wake()
    expect(host.log.slice(5)).toEqual(['wake:messageChannel', 'unref'])
  })

  it('should run on the real (Node) MessageChannel and let nothing hang', async () => {
    const mod = await loadReal('messageChannel')
    expect(mod.strategy).toBe('messageChannel')
    const order: number[] = []
    await new Promise<void>((resolve) => {
      mod.macrotask(() => order.push(1))
      mod.macrotask(() => { order.push(2); resolve() })
    })
    expect(order).toEqual([1, 2])
  })
})
