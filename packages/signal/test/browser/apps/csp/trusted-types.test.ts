// What Trusted Types and style-src change for bindings (README, Security, "Content Security Policy and Trusted Types").
// Under frame.html's enforced policy.
import { afterEach, describe, expect, it } from 'vitest'
import { closeFrames, htmlPolicy, openCspFrame, tick, urlPolicy, type CspWindow } from './csp-harness.ts'

afterEach(closeFrames)

const messages = (win: CspWindow) => win.errors.map((e) => String(e))

describe('a TrustedScriptURL bound to a URL target is written as it is', () => {
  // A bank shows a statement PDF in <embed src> or <object data>. In Chromium under `require-trusted-types-for
  // 'script'` those are TrustedScriptURL sinks (the probe below shows it), so the app passes a TrustedScriptURL from
  // its policy. eddy's javascript:-URL check (urlOnly) returned String(value), and { attr } wrote String(value), so
  // the trusted value never reached the sink (found by the CSP trial, stop 36). Now: it renders, no error, no violation.
  it('the sinks: a string to <embed src> / <object data> is refused by the browser itself', async () => {
    const { win, doc } = await openCspFrame()
    const embed = doc.createElement('embed')
    expect(() => { embed.src = '/statement.pdf' }).toThrow(/TrustedScriptURL/)
    expect(() => { (doc.createElement('object') as any).data = '/statement.pdf' }).toThrow(/TrustedScriptURL/)
    embed.src = urlPolicy(win).createScriptURL('/statement.pdf') as any
    expect(embed.getAttribute('src')).toBe(new URL('/statement.pdf', win.location.href).href)
  })

  it("{ attr: 'src' } on an <embed> and the 'data' property of an <object> render a TrustedScriptURL", async () => {
    const { win, doc } = await openCspFrame()
    const { Signal, flush } = win.eddy
    const policy = urlPolicy(win)
    const embed = doc.createElement('embed')
    const object = doc.createElement('object')
    doc.body.append(embed, object)
    const statement = new Signal(policy.createScriptURL('/statements/2026-05.pdf'))
    statement.bind(embed, { attr: 'src' })
    statement.bind(object, 'data')
    flush()
    await tick(win)
    // Before stop 36: two TypeErrors "Failed to execute 'setAttribute' on 'Element': This document requires
    // 'TrustedScriptURL' assignment." (and the same for 'data'), two violations whose source is eddy's dist.
    expect(messages(win)).toEqual([])
    expect(win.violations).toEqual([])
    expect(embed.getAttribute('src')).toBe(new URL('/statements/2026-05.pdf', win.location.href).href)
    expect(object.getAttribute('data')).toBe(new URL('/statements/2026-05.pdf', win.location.href).href)
    // The next statement: rewritten; the same one again: not rewritten.
    statement.value = policy.createScriptURL('/statements/2026-06.pdf')
    flush()
    expect(embed.getAttribute('src')).toMatch(/2026-06\.pdf$/)
    expect(object.getAttribute('data')).toMatch(/2026-06\.pdf$/)
    // The javascript: check still holds for a trusted value (a policy that lets one through is refused all the same).
    const lax = (win as any).trustedTypes.createPolicy('default', { createScriptURL: (s: string) => s })
    statement.value = lax.createScriptURL('javascript:alert(1)')
    flush()
    await tick(win)
    expect(messages(win)).toEqual(['TypeError: bind: refusing a javascript: URL', 'TypeError: bind: refusing a javascript: URL'])
    expect(embed.getAttribute('src')).toMatch(/2026-06\.pdf$/)
  })
})

describe('a sanitizer that returns a string (DOMPurify without RETURN_TRUSTED_TYPE)', () => {
  // The browser refuses the string; the report a user gets names eddy's dist as the source (both in the README).
  it('is reported to the window, names eddy as its source, and the rest of the flush still renders', async () => {
    const { win, doc } = await openCspFrame()
    const { Signal, flush } = win.eddy
    const memo = doc.createElement('div')
    const label = doc.createElement('p')
    doc.body.append(memo, label)
    memo.textContent = 'old'
    const note = new Signal('Rent <b>May</b>')
    const title = new Signal('before')
    note.bind(memo, { html: true, sanitize: (html) => html.replace(/<(?!\/?b>)/g, '&lt;') })
    title.bind(label)
    title.value = 'after'
    flush()
    await tick(win)
    // The other binding of the same flush rendered; the HTML one left the node as it was.
    expect(label.textContent).toBe('after')
    expect(memo.innerHTML).toBe('old')
    // The error reached the frame's own `error` event (eddy's reportError), once.
    expect(messages(win)).toEqual([
      "TypeError: Failed to set the 'innerHTML' property on 'Element': This document requires 'TrustedHTML' assignment.",
    ])
    // And the reporting endpoint gets a violation whose source is eddy's writeHtml, with the value's first 40
    // characters as the sample.
    expect(win.violations).toHaveLength(1)
    expect(win.violations[0]).toMatchObject({
      directive: 'require-trusted-types-for',
      blockedURI: 'trusted-types-sink',
      sample: 'Element innerHTML|Rent <b>May</b>',
    })
    expect(win.violations[0]!.sourceFile).toMatch(/\/packages\/signal\/dist\/index\.js$/)
    // Each later change fails the same way: one error and one report per render.
    note.value = 'Rent <b>June</b>'
    flush()
    await tick(win)
    expect(win.errors).toHaveLength(2)
    expect(win.violations).toHaveLength(2)
    // Wrapping the same sanitizer in a policy fixes it (the README's recipe).
    const policy = htmlPolicy(win)
    note.bind(memo, { html: true, sanitize: (html) => policy.createHTML(html) })
    flush()
    expect(memo.innerHTML).toBe('Rent <b>June</b>')
  })
})

describe('style targets other than { style } are blocked silently, reported with eddy as the source', () => {
  // README, Security: "CSS is not checked: a <style> element's text, a `style` attribute or property take any CSS".
  // Under style-src 'self' the first two are blocked by the browser with no error: the attribute is stored (so eddy's
  // "already shown" check is satisfied) but not applied. Only the `style` property (CSSOM) and { style } work.
  it("{ attr: 'style' } and a <style>'s text: no error, not applied, a violation each; the 'style' property applies", async () => {
    const { win, doc } = await openCspFrame()
    const { Signal, flush } = win.eddy
    const css = new Signal('color: rgb(9, 9, 9)')
    const [a, b] = [doc.createElement('p'), doc.createElement('p')]
    const sheet = doc.createElement('style')
    doc.body.append(a, b, sheet)
    css.bind(a, { attr: 'style' })
    css.bind(b, 'style')
    new Signal('p { margin-left: 7px }').bind(sheet)
    flush()
    await tick(win)
    expect(win.errors).toEqual([])
    expect(a.getAttribute('style')).toBe('color: rgb(9, 9, 9)')
    expect(win.getComputedStyle(a).color).not.toBe('rgb(9, 9, 9)')
    expect(win.getComputedStyle(b).color).toBe('rgb(9, 9, 9)')
    expect(win.getComputedStyle(a).marginLeft).toBe('0px')
    // (Appending the empty <style> is reported too, from this file: only eddy's writes are counted here.)
    const fromEddy = win.violations.filter((v) => /\/packages\/signal\/dist\/index\.js$/.test(v.sourceFile))
    expect(fromEddy.map((v) => v.directive).sort()).toEqual(['style-src-attr', 'style-src-elem'])
  })
})
