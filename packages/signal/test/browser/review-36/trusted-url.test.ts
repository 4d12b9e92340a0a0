// Review of 42015ee (trustedUrl): a TrustedScriptURL is written as it is to URL targets. What held.
import { afterEach, describe, expect, it } from 'vitest'
import { Signal, flush } from '@eddy/signal'
import { blankFrame, catchReports, el, laxPolicy, mutations } from './helpers.ts'
import { closeFrames, openCspFrame, tick, urlPolicy } from '../apps/csp/csp-harness.ts'

const cleanups: (() => void)[] = []
afterEach(() => {
  cleanups.splice(0).forEach((f) => f())
  closeFrames()
  document.querySelectorAll('iframe,[data-r36]').forEach((e) => e.remove())
})
const reports = () => {
  const r = catchReports()
  cleanups.push(r.restore)
  return r.errors
}

describe('same realm, no enforcement (the test page)', () => {
  it("{ attr: 'href' } and the 'href' property take a TrustedScriptURL, and its text is 'already shown'", () => {
    const policy = laxPolicy()
    const [a, b] = [el('a'), el('a')]
    const url = new Signal<unknown>(policy.createScriptURL('/docs/a.pdf'))
    url.bind(a, { attr: 'href' })
    url.bind(b, 'href')
    flush()
    expect(a.getAttribute('href')).toBe('/docs/a.pdf')
    expect(b.getAttribute('href')).toBe('/docs/a.pdf')
    // A new TrustedScriptURL object with the same text, and then the plain string: no DOM write.
    expect(mutations(document.body, () => ((url.value = policy.createScriptURL('/docs/a.pdf')), flush()))).toBe(0)
    expect(mutations(document.body, () => ((url.value = '/docs/a.pdf'), flush()))).toBe(0)
    url.value = policy.createScriptURL('/docs/b.pdf')
    expect(mutations(document.body, () => flush())).toBe(2)
    expect(a.getAttribute('href')).toBe('/docs/b.pdf')
  })

  it('a javascript: TrustedScriptURL is refused, with controls and tabs in it too, and the node keeps its URL', () => {
    const errors = reports()
    const policy = laxPolicy()
    const a = el('a')
    const url = new Signal<unknown>('/ok')
    url.bind(a, { attr: 'href' })
    flush()
    for (const bad of ['javascript:alert(1)', ' \x01JaVa\tScRiPt:alert(1)', 'java\nscript:alert(1)']) {
      url.value = policy.createScriptURL(bad)
      flush()
    }
    expect(errors).toEqual(Array(3).fill('TypeError: bind: refusing a javascript: URL'))
    expect(a.getAttribute('href')).toBe('/ok')
  })

  it('a hostile plain object whose toString changes between calls: the checked text is the one written', () => {
    const errors = reports()
    for (const bind of [(s: Signal<unknown>) => s.bind(el('a'), { attr: 'href' }), (s: Signal<unknown>) => s.bind(el('iframe'), 'src')]) {
      let calls = 0
      const sly = { toString: () => (calls++ ? 'javascript:alert(1)' : '/safe') }
      bind(new Signal<unknown>(sly))
      flush()
      expect(calls).toBe(1) // stringified once, by the check
    }
    expect(errors).toEqual([])
    const [a, f] = [document.querySelector('a[data-r36]')!, document.querySelector('iframe[data-r36]')!]
    expect(a.getAttribute('href')).toBe('/safe')
    expect(f.getAttribute('src')).toBe('/safe')
  })

  it('a TrustedHTML or TrustedScript given to a URL target is written as its text (not trusted as a URL)', () => {
    const errors = reports()
    const policy = laxPolicy()
    const a = el('a')
    const url = new Signal<unknown>(policy.createHTML('/from-html'))
    url.bind(a, { attr: 'href' })
    flush()
    expect(a.getAttribute('href')).toBe('/from-html')
    url.value = policy.createScript('javascript:alert(1)')
    flush()
    expect(errors).toEqual(['TypeError: bind: refusing a javascript: URL'])
  })

  it("{ attr } on a non-URL attribute given a TrustedScriptURL writes its text; the same text again is no write", () => {
    const policy = laxPolicy()
    const p = el('p')
    const v = new Signal<unknown>(policy.createScriptURL('javascript:just-a-title'))
    v.bind(p, { attr: 'title' })
    flush()
    // Not a URL attribute: no javascript: check, as for a string.
    expect(p.getAttribute('title')).toBe('javascript:just-a-title')
    expect(mutations(p, () => ((v.value = 'javascript:just-a-title'), flush()))).toBe(0)
  })

  it("SVG: { attr: 'href' } on <a> and <image> takes a TrustedScriptURL and refuses a javascript: one", () => {
    const errors = reports()
    const policy = laxPolicy()
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg')
    svg.setAttribute('data-r36', '')
    const link = document.createElementNS('http://www.w3.org/2000/svg', 'a')
    const img = document.createElementNS('http://www.w3.org/2000/svg', 'image')
    svg.append(link, img)
    document.body.append(svg)
    const url = new Signal<unknown>(policy.createScriptURL('/chart.svg'))
    url.bind(link, { attr: 'href' })
    url.bind(img, { attr: 'xlink:href' })
    flush()
    expect(link.getAttribute('href')).toBe('/chart.svg')
    expect(img.getAttribute('xlink:href')).toBe('/chart.svg')
    url.value = policy.createScriptURL('javascript:alert(1)')
    flush()
    expect(errors).toEqual(Array(2).fill('TypeError: bind: refusing a javascript: URL'))
    expect(link.getAttribute('href')).toBe('/chart.svg')
  })

  it("a frame document's 'location' takes a TrustedScriptURL (navigates once; the same address again does not)", async () => {
    const errors = reports()
    const policy = laxPolicy()
    const { win, doc } = await blankFrame()
    const loc = new Signal<unknown>(policy.createScriptURL('about:blank#one'))
    loc.bind(doc, 'location')
    flush()
    expect(win.location.hash).toBe('#one')
    await new Promise((r) => setTimeout(r, 50)) // the first navigation's own hashchange
    let hashchanges = 0
    win.addEventListener('hashchange', () => hashchanges++)
    loc.value = policy.createScriptURL('about:blank#one')
    flush()
    loc.value = policy.createScriptURL('javascript:alert(1)')
    flush()
    await new Promise((r) => setTimeout(r, 50))
    expect(hashchanges).toBe(0)
    expect(errors).toEqual(['TypeError: bind: refusing a javascript: URL'])
  })

  it('a trustedTypes polyfill installed after eddy loaded is used at once; one that vouches for nothing changes nothing', () => {
    const real = Object.getOwnPropertyDescriptor(window, 'trustedTypes')!
    const made = new WeakSet<object>()
    // A polyfill's TrustedScriptURL (as the W3C polyfill's): a frozen instance, its text read by its class's toString.
    const text = new WeakMap<object, string>()
    class PolyScriptURL {
      toString() { return text.get(this)! }
      toJSON() { return text.get(this)! }
    }
    const fake = (s: string) => {
      const o = Object.freeze(new PolyScriptURL())
      text.set(o, s)
      made.add(o)
      return o
    }
    Object.defineProperty(window, 'trustedTypes', {
      configurable: true,
      value: { isScriptURL: (v: unknown) => made.has(v as object), isHTML: () => false },
    })
    cleanups.push(() => Object.defineProperty(window, 'trustedTypes', real))
    const errors = reports()
    const a = el('a')
    const url = new Signal<unknown>(fake('/poly.pdf'))
    url.bind(a, { attr: 'href' })
    flush()
    expect(a.getAttribute('href')).toBe('/poly.pdf')
    url.value = fake('javascript:alert(1)')
    flush()
    expect(errors).toEqual(['TypeError: bind: refusing a javascript: URL'])
    expect(a.getAttribute('href')).toBe('/poly.pdf')
  })

  it('a page with no trustedTypes at all (undefined): every URL target gets the text, as before', () => {
    const real = Object.getOwnPropertyDescriptor(window, 'trustedTypes')!
    Object.defineProperty(window, 'trustedTypes', { configurable: true, value: undefined })
    cleanups.push(() => Object.defineProperty(window, 'trustedTypes', real))
    expect((window as any).trustedTypes).toBeUndefined()
    const a = el('a')
    const url = new Signal<unknown>({ toString: () => '/plain' })
    url.bind(a, { attr: 'href' })
    url.bind(el('a'), 'href')
    flush()
    expect(a.getAttribute('href')).toBe('/plain')
  })
})

describe('across realms, under the enforced policy of apps/csp/frame.html', () => {
  it("eddy in the parent binds the frame's <embed>/<object> with the frame's TrustedScriptURL", async () => {
    const { win, doc } = await openCspFrame()
    const errors = reports()
    const policy = urlPolicy(win)
    const embed = doc.createElement('embed')
    const object = doc.createElement('object')
    doc.body.append(embed, object)
    const pdf = new Signal<unknown>(policy.createScriptURL('/statements/x.pdf'))
    pdf.bind(embed, { attr: 'src' })
    pdf.bind(object, 'data')
    flush()
    await tick(win)
    expect(errors).toEqual([])
    expect(win.violations).toEqual([])
    expect(embed.getAttribute('src')).toMatch(/\/statements\/x\.pdf$/)
    expect(object.getAttribute('data')).toMatch(/\/statements\/x\.pdf$/)
  })

  it("the frame's eddy binds its own <embed> with a TrustedScriptURL made by the parent's policy", async () => {
    const { win, doc } = await openCspFrame()
    const { Signal: FrameSignal, flush: frameFlush } = win.eddy
    const embed = doc.createElement('embed')
    doc.body.append(embed)
    const parentUrl = laxPolicy().createScriptURL(new URL('/p.pdf', location.href).href)
    const pdf = new FrameSignal<unknown>(parentUrl)
    pdf.bind(embed, { attr: 'src' })
    frameFlush()
    await tick(win)
    expect(win.errors.map(String)).toEqual([])
    expect(win.violations).toEqual([])
    expect(embed.getAttribute('src')).toMatch(/\/p\.pdf$/)
  })

  it('a string to the frame\'s <embed src> from the parent\'s eddy fails as the README says (TypeError, node kept)', async () => {
    const { win, doc } = await openCspFrame()
    const errors = reports()
    const embed = doc.createElement('embed')
    doc.body.append(embed)
    new Signal('/plain.pdf').bind(embed, { attr: 'src' })
    flush()
    await tick(win)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/TrustedScriptURL/)
    expect(embed.hasAttribute('src')).toBe(false)
  })
})
