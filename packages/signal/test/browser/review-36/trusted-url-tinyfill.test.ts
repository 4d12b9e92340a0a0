// The Trusted Types "tinyfill" (stop 36's review of trustedUrl): it failed on 42015ee-c0a4123.
import { afterEach, describe, expect, it } from 'vitest'
import { Signal, flush } from '@eddy/signal'
import { catchReports, el } from './helpers.ts'

const cleanups: (() => void)[] = []
afterEach(() => {
  cleanups.splice(0).forEach((f) => f())
  document.querySelectorAll('[data-r36]').forEach((e) => e.remove())
})

describe('the Trusted Types "tinyfill" breaks no { attr } or URL binding', () => {
  // web.dev and the W3C trusted-types README recommend, for browsers without Trusted Types:
  //   if (typeof trustedTypes == 'undefined') trustedTypes = { createPolicy: (n, rules) => rules }
  // It has no isScriptURL: `trustedTypes?.isScriptURL(value)` throws "isScriptURL is not a function" at every
  // render of every { attr } binding (writeAttribute calls trustedUrl for any attribute, not only URLs) and of
  // every URL property binding, until it became `isScriptURL?.(value)`.
  it("{ attr: 'title' }, { attr: 'href' } and the 'href' property render under the tinyfill", () => {
    const real = Object.getOwnPropertyDescriptor(window, 'trustedTypes')!
    Object.defineProperty(window, 'trustedTypes', { configurable: true, writable: true, value: { createPolicy: (_n: string, rules: object) => rules } })
    cleanups.push(() => Object.defineProperty(window, 'trustedTypes', real))
    const r = catchReports()
    cleanups.push(r.restore)
    const [p, a, b] = [el('p'), el('a'), el('a')]
    new Signal('Hello').bind(p, { attr: 'title' })
    const url = new Signal('/home')
    url.bind(a, { attr: 'href' })
    url.bind(b, 'href')
    flush()
    expect(r.errors).toEqual([])
    expect(p.getAttribute('title')).toBe('Hello')
    expect(a.getAttribute('href')).toBe('/home')
    expect(b.getAttribute('href')).toBe('/home')
  })
})
