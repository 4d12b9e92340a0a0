// Bindings where Trusted Types are missing (happy-dom has no trustedTypes) or a tinyfill stands in for them.
import { afterEach, describe, expect, it } from 'vitest'
import { Signal, flush } from '@eddy/signal'

afterEach(() => {
  delete (globalThis as any).trustedTypes
  document.body.replaceChildren()
})

describe('trustedUrl where Trusted Types are missing or a tinyfill', () => {
  it('no trustedTypes (happy-dom): URL and other attributes render their text', () => {
    expect((globalThis as any).trustedTypes).toBeUndefined()
    const a = document.createElement('a')
    new Signal('/x').bind(a, { attr: 'href' })
    new Signal('t').bind(a, { attr: 'title' })
    flush()
    expect(a.getAttribute('href')).toBe('/x')
    expect(a.getAttribute('title')).toBe('t')
  })

  it('the tinyfill { createPolicy: (n, rules) => rules } (no isScriptURL) does not break { attr } renders', () => {
    ;(globalThis as any).trustedTypes = { createPolicy: (_n: string, rules: object) => rules }
    const a = document.createElement('a')
    // Where there is no reportError (happy-dom), the render error is thrown by the flush.
    expect(() => {
      new Signal('/y').bind(a, { attr: 'href' })
      new Signal('t').bind(a, { attr: 'title' })
      flush()
    }).not.toThrow()
    expect(a.getAttribute('href')).toBe('/y')
    expect(a.getAttribute('title')).toBe('t')
  })
})
