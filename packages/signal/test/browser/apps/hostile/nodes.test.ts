// A hostile reviewer's nodes: accessors that throw, fake and proxied nodes, nodes of XML/SVG documents made by
// DOMParser, of a frame that navigated or whose document was re-opened, moved to another document from a format.
// Expected: a clear error at bind() for what cannot be a node, a reported error per render for a node whose DOM
// accessors throw, the other bindings unaffected, nothing stuck.
import { describe, expect, it } from 'vitest'
import { Signal, flush, settled } from '@eddy/signal'
import { sandbox } from '../../dom.ts'
import { stillRenders } from './still.ts'

const box = sandbox()

describe('elements whose accessors fight back', () => {
  it('a textContent setter that throws: reported at each render, the others render, fixed later it renders', async () => {
    const bad = box.root.appendChild(document.createElement('div'))
    const good = box.root.appendChild(document.createElement('div'))
    Object.defineProperty(bad, 'textContent', {
      configurable: true,
      get: () => 'x',
      set: () => {
        throw new Error('setter refuses')
      },
    })
    const s = new Signal('a')
    s.bind(bad)
    s.bind(good)
    await settled()
    s.value = 'b'
    await settled()
    expect(box.msgs()).toEqual(['Error: setter refuses', 'Error: setter refuses'])
    expect(good.textContent).toBe('b')
    delete (bad as any).textContent
    s.value = 'c'
    await settled()
    expect(bad.textContent).toBe('c')
    await stillRenders(box.root)
  })

  it('a textContent getter that throws: reported, nothing written', async () => {
    const bad = box.root.appendChild(document.createElement('div'))
    Object.defineProperty(bad, 'textContent', {
      get: () => {
        throw new Error('getter refuses')
      },
    })
    new Signal('a').bind(bad)
    await settled()
    expect(box.msgs()).toEqual(['Error: getter refuses'])
    await stillRenders(box.root)
  })

  it('an <input> whose value getter throws, bound two-way: render error reported, the event changes nothing', async () => {
    const input = box.root.appendChild(document.createElement('input'))
    const s = new Signal('a')
    s.bind(input, { model: 'input' })
    await settled()
    const proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!
    Object.defineProperty(input, 'value', {
      configurable: true,
      get() {
        throw new Error('value refuses')
      },
      set: proto.set,
    })
    s.value = 'b'
    await settled()
    expect(box.msgs()).toEqual(['Error: value refuses'])
    // the listener's error goes where a listener's errors go (the page's error event); the signal keeps its value
    const uncaught: string[] = []
    const onError = (e: ErrorEvent) => (e.preventDefault(), uncaught.push(e.error?.message))
    window.addEventListener('error', onError)
    input.dispatchEvent(new Event('input'))
    window.removeEventListener('error', onError)
    expect(uncaught).toEqual(['value refuses'])
    expect(s.value).toBe('b')
    delete (input as any).value
    input.value = 'typed'
    input.dispatchEvent(new Event('input'))
    expect(s.value).toBe('typed')
  })

  it('setAttribute and classList overridden to throw: reported per binding, others render', async () => {
    const el = box.root.appendChild(document.createElement('div'))
    el.setAttribute = () => {
      throw new Error('no attributes')
    }
    Object.defineProperty(el, 'classList', { get: () => null })
    const s = new Signal(1)
    s.bind(el, { attr: 'data-n' })
    s.bind(el, { class: 'on' })
    s.bind(el)
    await settled()
    expect(box.msgs()).toEqual(['Error: no attributes', expect.stringMatching(/^TypeError: .*null/)])
    expect(el.textContent).toBe('1')
  })
})

describe('things that are not quite nodes', () => {
  it('a node-like object whose nodeType getter throws: bind() throws that error, nothing bound', () => {
    const fake = {
      get nodeType(): number {
        throw new Error('nodeType refuses')
      },
    }
    expect(() => new Signal(0).bind(fake as any)).toThrow('nodeType refuses')
  })

  it('the Document itself and a DocumentType as text targets: refused (their textContent is null and ignores writes)', async () => {
    const doc = document.implementation.createHTMLDocument('t')
    const s = new Signal('text')
    // Accepted before, they showed nothing, ever, and said nothing.
    expect(() => s.bind(doc)).toThrow('bind: expected an Element or a Text node, got #document')
    expect(() => s.bind(doc.doctype!)).toThrow('bind: expected an Element or a Text node, got html')
    await settled()
    expect([doc.textContent, doc.doctype!.textContent]).toEqual([null, null])
    expect(box.msgs()).toEqual([])
  })
})

describe('nodes of other documents', () => {
  it('DOMParser XML: text and attributes bind; a DOM property on a plain Element is a silent expando', async () => {
    const xml = new DOMParser().parseFromString('<root><item id="a"/><x:script xmlns:x="http://www.w3.org/1999/xhtml"/></root>', 'application/xml')
    const item = xml.querySelector('item')!
    const s = new Signal('v1')
    s.bind(item)
    s.bind(item, { attr: 'label' })
    s.bind(item, 'title')
    expect(() => s.bind(xml.documentElement.lastChild!)).toThrow('bind: refusing a <script> node')
    await settled()
    expect(new XMLSerializer().serializeToString(item)).toBe('<item id="a" label="v1">v1</item>')
    // `title` is an HTMLElement property: on an XML Element it is a JS property the document never sees
    expect((item as any).title).toBe('v1')
    expect(box.msgs()).toEqual([])
  })

  it('DOMParser SVG: href is URL-checked under any prefix; <svg:script> refused; className reports', async () => {
    const svg = new DOMParser().parseFromString(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:l="http://www.w3.org/1999/xlink"><a l:href="#x"><text>t</text></a><script>1</script></svg>',
      'image/svg+xml',
    )
    const a = svg.querySelector('a')!
    const url = new Signal('#ok')
    url.bind(a, { attr: 'l:href' })
    url.bind(a, { attr: 'href' })
    expect(() => url.bind(svg.querySelector('script')!)).toThrow('bind: refusing a <script> node')
    url.value = ' JavaScript:alert(1)'
    await settled()
    expect(box.msgs()).toEqual(['TypeError: bind: refusing a javascript: URL', 'TypeError: bind: refusing a javascript: URL'])
    const cls = new Signal('c')
    cls.bind(a, 'className')
    await settled()
    expect(box.msgs().at(-1)).toMatch(/^TypeError: .*className/)
    await stillRenders(box.root)
  })

  it('a node moved into another document by its own format, mid-flush, renders there', async () => {
    const other = document.implementation.createHTMLDocument('o')
    const el = box.root.appendChild(document.createElement('p'))
    const s = new Signal('a')
    s.bind(el, { format: (v) => (other.body.append(el), v) })
    s.bind(el, { attr: 'data-v' })
    await settled()
    expect([el.ownerDocument === other, el.textContent, el.getAttribute('data-v')]).toEqual([true, 'a', 'a'])
  })

  it('a frame that navigated, and one whose document was re-opened: the old nodes are written silently, others render', async () => {
    const f = document.createElement('iframe')
    f.srcdoc = '<p id=p>0</p>'
    box.root.append(f)
    await new Promise((r) => f.addEventListener('load', r, { once: true }))
    const oldP = f.contentDocument!.getElementById('p')!
    const s = new Signal('a')
    s.bind(oldP)
    s.bind(f.contentDocument!.body, { attr: 'data-s' })
    await settled()
    f.contentDocument!.open()
    f.contentDocument!.write('<p id=q>new</p>')
    f.contentDocument!.close()
    s.value = 'b'
    await settled()
    expect(oldP.textContent).toBe('b')
    f.srcdoc = '<p>navigated</p>'
    await new Promise((r) => f.addEventListener('load', r, { once: true }))
    s.value = 'c'
    await settled()
    expect(oldP.textContent).toBe('c')
    expect(box.msgs()).toEqual([])
    await stillRenders(box.root)
  })

  it("a frame document's location bound, after the frame is removed: no navigation, no error", async () => {
    const f = document.createElement('iframe')
    f.srcdoc = '<p>x</p>'
    box.root.append(f)
    await new Promise((r) => f.addEventListener('load', r, { once: true }))
    const doc = f.contentDocument!
    const loc = new Signal('about:blank#1')
    loc.bind(doc, 'location')
    await settled()
    f.remove()
    loc.value = 'about:blank#2'
    await settled()
    expect(box.msgs()).toEqual([])
    loc.value = 'javascript:parent.__pwn=1'
    await settled()
    expect(box.msgs()).toEqual(['TypeError: bind: refusing a javascript: URL'])
    flush()
  })
})
