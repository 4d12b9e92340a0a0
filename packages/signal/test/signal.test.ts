import { describe, expect, it } from 'vitest'
import { Signal, flush } from '@eddy/signal'

describe('Signal', () => {
  describe('.bind()', () => {
    it('should coalesce 1,000 writes in one task into one DOM write with the last value', async () => {
      const el = document.createElement('p')
      const s = new Signal(0)
      s.bind(el)
      flush()
      let writes = 0
      let proto = Object.getPrototypeOf(el)
      while (!Object.getOwnPropertyDescriptor(proto, 'textContent')) proto = Object.getPrototypeOf(proto)
      const text = Object.getOwnPropertyDescriptor(proto, 'textContent')!
      Object.defineProperty(el, 'textContent', {
        get: () => text.get!.call(el),
        set: (v: string) => (writes++, text.set!.call(el, v)),
      })
      for (let i = 1; i <= 1000; i++) s.value = i
      expect(el.textContent).toBe('0')
      await Promise.resolve()
      await new Promise((r) => setTimeout(r, 0))
      expect(el.textContent).toBe('1000')
      expect(writes).toBe(1)
    })
  })
})
