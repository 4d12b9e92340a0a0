import { describe, expect, it } from 'vitest'
import { Signal, flush } from '@eddy/signal'

describe('Signal (Chromium)', () => {
  describe('.bind()', () => {
    it('should make 1,000 writes in one task cost one DOM mutation, with the last value', async () => {
      const el = document.createElement('p')
      document.body.append(el)
      const s = new Signal(0)
      s.bind(el)
      flush()
      const records: MutationRecord[] = []
      const observer = new MutationObserver((list) => records.push(...list))
      observer.observe(el, { childList: true, characterData: true, subtree: true })
      for (let i = 1; i <= 1000; i++) s.value = i
      await new Promise((r) => setTimeout(r, 0))
      records.push(...observer.takeRecords())
      observer.disconnect()
      expect(el.textContent).toBe('1000')
      expect(records).toHaveLength(1)
      el.remove()
    })
  })
})
