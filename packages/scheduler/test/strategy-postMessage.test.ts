import { describe, expect, it } from 'vitest'
import { load, microtasks } from './fake-host.ts'
import { strategyContract } from './strategy-contract.ts'

describe('strategy: postMessage', () => {
  strategyContract('postMessage')

  it('should ignore messages with another key or from another source', async () => {
    const { host, mod } = await load('postMessage')
    mod.macrotask(() => host.log.push('ran'))
    host.message('hello', globalThis)
    host.message(undefined, globalThis)
    // Our own key, but from another window (an iframe, say): the source check rejects it.
    const ours = host.log.length
    host.message(host.messages[0], {})
    expect(host.log.slice(ours)).toEqual([])
    expect(host.log).toEqual(['post:postMessage'])
    host.wake()
    expect(host.log).toEqual(['post:postMessage', 'wake:postMessage', 'ran'])
  })

  it('should use a private key and run only for messages from its own window', async () => {
    const { host, mod } = await load('postMessage')
    mod.macrotask(() => host.log.push('ran'))
    const [key] = host.messages
    // A random number: no page posts it by chance.
    expect(key).toEqual(expect.any(Number))
    expect(key).not.toBe(0)
    // The right key from another source (an iframe replaying it) runs nothing...
    host.message(key, { foreign: true })
    await microtasks()
    expect(host.log).toEqual(['post:postMessage'])
    // ...and every post uses the same key, so one listener serves every queue.
    mod.createQueue().macrotask(() => host.log.push('other'))
    expect(host.messages).toEqual([key, key])
    host.wake()
    host.wake()
    expect(host.log.filter((e) => !e.startsWith('post:') && !e.startsWith('wake:'))).toEqual(['ran', 'other'])
  })

  it('should run for its own key posted with no source, as jsdom posts a window\'s own messages', async () => {
    const { host, mod } = await load('postMessage')
    mod.macrotask(() => host.log.push('ran'))
    host.message(host.messages[0], null)
    expect(host.log).toEqual(['post:postMessage', 'ran'])
    // Another key with no source still runs nothing.
    mod.macrotask(() => host.log.push('again'))
    host.message('hello', null)
    expect(host.log).toEqual(['post:postMessage', 'ran', 'post:postMessage'])
  })

  it('should not be detected in a worker-like global (no window)', async () => {
    const { mod } = await load('setTimeout')
    expect(mod.strategy).toBe('setTimeout')
  })
})
