// Trial E: node kinds beyond plain elements: Comment, fragments and <template> content, normalize(), textarea,
// option, title, style, noscript, output, contenteditable, file inputs, progress/meter, details, hidden/inert, aria-*.
import { describe, expect, it } from 'vitest'
import { Signal, flush, settled } from '@eddy/signal'
import { observe, sandbox } from '../dom.ts'

const box = sandbox()

describe('non-element nodes', () => {
  // A text binding on a node that shows no text, or has none to set, is refused (it wrote for nothing, silently: the
  // closing comment marker after an empty server-rendered text, say). A Comment's `data`, named, is bound as asked.
  it('Comment, processing instruction, Document, doctype: refused as text', () => {
    const s = new Signal('a')
    const xml = new DOMParser().parseFromString('<?pi x?><r/>', 'application/xml')
    const nodes = [document.createComment('x'), xml.firstChild!, document, document.doctype!]
    expect(nodes.map((node) => node.nodeName)).toEqual(['#comment', 'pi', '#document', 'html'])
    for (const node of nodes) {
      expect(() => s.bind(node)).toThrow(`bind: expected an Element or a Text node, got ${node.nodeName}`)
      expect(() => s.bind(node, { format: String })).toThrow(`bind: expected an Element or a Text node, got ${node.nodeName}`)
    }
    // The nodes that do show text still bind: a CDATA section of an XML document, and a fragment before insertion.
    const cdata = xml.createCDATASection('x')
    const fragment = document.createDocumentFragment()
    s.bind(cdata)
    s.bind(fragment)
    flush()
    expect([cdata.data, fragment.textContent]).toEqual(['a', 'a'])
  })

  it("Comment: its data bound by name ('data'), coalesced, never parsed", () => {
    const c = document.createComment('x')
    box.root.append(c)
    const s = new Signal('a')
    s.bind(c, 'data')
    const o = observe(box.root)
    for (let i = 0; i < 100; i++) s.value = '--><b>' + i
    flush()
    expect(c.data).toBe('--><b>99')
    expect(box.root.querySelector('b')).toBeNull()
    expect(o.stop().length).toBe(1)
  })

  it('DocumentFragment / <template> content: bind before insertion, insert later', async () => {
    const t = document.createElement('template')
    t.innerHTML = '<li><span></span><a></a></li>'
    const frag = t.content
    const span = frag.querySelector('span')!, a = frag.querySelector('a')!
    const s = new Signal('one')
    s.bind(span)
    s.bind(a, { attr: 'title' })
    await settled()
    expect(span.textContent).toBe('one')
    box.root.append(frag)
    s.value = 'two'
    await settled()
    expect(box.root.querySelector('span')!.textContent).toBe('two')
    // a fragment itself: textContent replaces its children
    const f2 = document.createDocumentFragment()
    s.bind(f2)
    await settled()
    expect(f2.textContent).toBe('two')
    box.root.append(f2)
    s.value = 'three'
    await settled()
    expect(f2.textContent).toBe('three')   // written into the (now emptied) fragment, not the page
    expect(box.root.textContent).toContain('two')
    expect(box.msgs()).toEqual([])
  })

  it('a Text node bound, then merged away by normalize()', async () => {
    const p = document.createElement('p')
    box.root.append(p)
    const a = document.createTextNode('Hello, '), b = document.createTextNode('')
    p.append(a, b)
    const name = new Signal('Ada')
    name.bind(b)
    await settled()
    p.normalize()
    name.value = 'Grace'
    await settled()
    console.log('after normalize:', JSON.stringify(p.textContent), 'bound node connected:', b.isConnected)
    expect(p.textContent).toBe('Hello, Ada')   // stale: DOM semantics, the bound node left the tree
  })
})

describe('elements with special text or value', () => {
  it('<textarea>: text binding is its default value; after user edit the text binding no longer shows', async () => {
    const ta = document.createElement('textarea')
    box.root.append(ta)
    const s = new Signal('<b>a</b>')
    s.bind(ta)
    await settled()
    expect(ta.value).toBe('<b>a</b>')
    ta.value = 'user'
    s.value = 'b'
    await settled()
    expect(ta.textContent).toBe('b')
    expect(ta.value).toBe('user')
    const v = new Signal('x')
    v.bind(ta, 'value')
    await settled()
    expect(ta.value).toBe('x')
  })

  it('<option> text, <title>, document.title, <noscript>, <output>', async () => {
    box.root.innerHTML = '<select><option value=1></option></select><noscript></noscript><output></output>'
    const s = new Signal('<i>x</i>')
    s.bind(box.root.querySelector('option')!)
    s.bind(box.root.querySelector('noscript')!)
    s.bind(box.root.querySelector('output')!, { format: (v) => `=${v}` })
    const n = new Signal(3)
    n.bind(box.root.querySelector('output')!, 'value')
    const title = document.head.querySelector('title') ?? document.head.appendChild(document.createElement('title'))
    const old = document.title
    s.bind(title)
    await settled()
    expect(box.root.querySelector('option')!.text).toBe('<i>x</i>')
    expect(box.root.querySelector('noscript')!.childElementCount).toBe(0)
    expect(box.root.querySelector('output')!.value).toBe('3')
    expect(document.title).toBe('<i>x</i>')
    document.title = old
  })

  it('<style> text: written as CSS (README Security says nothing about CSS)', async () => {
    const st = document.createElement('style')
    box.root.append(st, Object.assign(document.createElement('p'), { id: 'victim' }))
    const userTheme = new Signal('#victim { color: red }')
    userTheme.bind(st)
    await settled()
    userTheme.value = '#victim { display: none }'
    await settled()
    const hidden = getComputedStyle(box.root.querySelector('#victim')!).display
    console.log('style injection: #victim display =', hidden)
    expect(hidden).toBe('none')   // CSS from the signal applies: a CSS-injection sink, not refused
    expect(box.msgs()).toEqual([])
  })

  it('contenteditable: one-way text replaces what the user typed on the next change', async () => {
    const d = document.createElement('div')
    d.contentEditable = 'true'
    box.root.append(d)
    const s = new Signal('draft')
    s.bind(d)
    await settled()
    d.innerHTML = 'user <b>bold</b>'
    s.value = 'server'
    await settled()
    expect(d.innerHTML).toBe('server')
  })

  it('a text binding on an <input> (no target): silently nothing shows', async () => {
    const i = document.createElement('input')
    box.root.append(i)
    const s = new Signal('hello')
    s.bind(i)
    await settled()
    // The text goes into a child text node, which an <input> does not show; no error says so.
    expect(i.value).toBe('')
    expect(i.childNodes.length).toBe(1)
    expect(i.textContent).toBe('hello')
    expect(box.msgs()).toEqual([])
  })

  it('<input type=file>: value property and { model }', async () => {
    const f = document.createElement('input')
    f.type = 'file'
    box.root.append(f)
    const v = new Signal('')
    v.bind(f, 'value')
    const m = new Signal('')
    // refused (a forms trial): its value is a fake path, which a script can only clear
    expect(() => m.bind(f, { model: 'change' })).toThrow(new TypeError('bind: model needs a form field, got a file input'))
    await settled()
    expect(box.msgs()).toEqual([])
    v.value = 'C:\\fakepath\\x.txt'
    await settled()
    console.log('file value write:', box.msgs())
    expect(box.msgs()).toEqual([expect.stringMatching(/^InvalidStateError/)])
    box.reported = []
    v.value = ''
    await settled()
    expect(box.msgs()).toEqual([])
  })

  it('<progress>/<meter> value, <details open>, hidden/inert properties', async () => {
    box.root.innerHTML = '<progress max=100></progress><meter min=0 max=1></meter><details><summary>s</summary>x</details><p>p</p>'
    const pr = box.root.querySelector('progress')!, me = box.root.querySelector('meter')!, de = box.root.querySelector('details')!, p = box.root.querySelector('p')!
    const n = new Signal<number | null>(40)
    n.bind(pr, 'value')
    n.bind(pr, { attr: 'value' })
    const m = new Signal(0.5)
    m.bind(me, 'value')
    const open = new Signal(true)
    open.bind(de, 'open')
    open.bind(p, 'hidden')
    open.bind(p, 'inert')
    const o = observe(box.root)
    await settled()
    expect(pr.value).toBe(40)
    expect(me.value).toBe(0.5)
    expect(de.open).toBe(true)
    expect(p.hidden).toBe(true)
    expect(p.inert).toBe(true)
    n.value = null
    await settled()
    expect(pr.hasAttribute('value')).toBe(false)
    expect(pr.position).toBe(-1)   // indeterminate
    de.open = false   // user closes it
    open.value = false
    open.value = true   // a change and back in one task: the binding renders true again, and reopens it
    await settled()
    expect(de.open).toBe(true)
    o.stop()
    expect(box.msgs()).toEqual([])
  })

  it("aria-* via { attr }: true/false/null/undefined/0/''", async () => {
    const b = document.createElement('button')
    box.root.append(b)
    const cases: [string, unknown, string | null][] = [
      ['aria-expanded', true, 'true'], ['aria-expanded', false, 'false'], ['aria-expanded', null, null],
      ['aria-expanded', undefined, null], ['aria-pressed', 'mixed', 'mixed'], ['aria-hidden', false, 'false'],
      ['aria-label', false, null], ['aria-label', '', ''], ['aria-label', 0, '0'], ['aria-label', true, ''],
      ['aria-valuenow', 0, '0'], ['aria-valuenow', NaN, 'NaN'], ['aria-current', 'page', 'page'], ['aria-current', false, 'false'],
      ['aria-invalid', true, 'true'], ['aria-checked', false, 'false'], ['aria-selected', true, 'true'], ['aria-busy', false, 'false'],
      ['aria-disabled', false, 'false'], ['aria-modal', true, 'true'], ['aria-required', false, 'false'], ['aria-readonly', false, 'false'],
      ['aria-multiselectable', false, 'false'], ['aria-multiline', false, 'false'], ['aria-atomic', false, 'false'], ['aria-haspopup', false, 'false'],
      ['aria-grabbed', false, 'false'], ['aria-live', false, null], ['ARIA-EXPANDED', false, 'false'],
    ]
    const bad: string[] = []
    for (const [name, v, want] of cases) {
      const s = new Signal<unknown>('seed')
      const bd = s.bind(b, { attr: name })
      flush()
      s.value = v
      flush()
      const got = b.getAttribute(name)
      if (got !== want) bad.push(`${name}=${String(v)}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`)
      bd.dispose()
      b.removeAttribute(name)
    }
    expect(bad).toEqual([])
  })

  it('odd namespaces: { model } on an SVG-namespace <input>, { style } on a plain XML element', async () => {
    box.root.innerHTML = '<svg><input></svg>'
    const svgInput = box.root.querySelector('svg input')!
    expect(svgInput.namespaceURI).toBe('http://www.w3.org/2000/svg')
    const s = new Signal('x')
    // No field, though named like one: it has no `value`, and nothing would ever be read (it was taken as a field).
    expect(() => s.bind(svgInput, { model: 'input' })).toThrow(new TypeError('bind: model needs a form field, got input'))
    const x = document.createElementNS('urn:x', 'box')
    box.root.append(x)
    expect(x.namespaceURI).toBe('urn:x')
    // An element with no `style` is refused at bind() (each render threw the engine's TypeError, reported).
    expect(() => new Signal(3).bind(x, { style: 'width' })).toThrow(new TypeError('bind: style needs a styled element, got box'))
    // A MathML element has one, and is bound.
    const mi = box.root.appendChild(document.createElementNS('http://www.w3.org/1998/Math/MathML', 'mi'))
    new Signal('red').bind(mi, { style: 'color' })
    await settled()
    expect([mi.style.color, box.msgs()]).toEqual(['red', []])
  })
})
