import { afterEach, describe, expect, it, vi } from 'vitest'
import { Signal, computed, configure, effect, flush, settled } from '@eddy/signal'

/** Counts writes to `prop` on `target` (an own accessor shadowing the prototype's). */
function countWrites(target: object, prop: string): { count: number } {
  const counter = { count: 0 }
  let proto = Object.getPrototypeOf(target)
  while (!Object.getOwnPropertyDescriptor(proto, prop)) proto = Object.getPrototypeOf(proto)
  const desc = Object.getOwnPropertyDescriptor(proto, prop)!
  Object.defineProperty(target, prop, {
    configurable: true,
    get() {
      return desc.get!.call(this)
    },
    set(v) {
      counter.count++
      desc.set!.call(this, v)
    },
  })
  return counter
}

/** A <select> with one option per value. */
function selectOf(...values: string[]): HTMLSelectElement {
  const select = document.createElement('select')
  for (const v of values) {
    const option = document.createElement('option')
    option.value = option.textContent = v
    select.append(option)
  }
  return select
}

afterEach(() => {
  flush()
  vi.unstubAllGlobals()
})

describe('Signal', () => {
  describe('.bind() text', () => {
    it('should render as text at the next microtask, never as HTML', async () => {
      const el = document.createElement('p')
      const s = new Signal('<b>x</b>')
      s.bind(el)
      expect(el.textContent).toBe('')
      await Promise.resolve()
      expect(el.textContent).toBe('<b>x</b>')
      expect(el.children).toHaveLength(0)
    })

    it('should render null and undefined as empty, strings as-is, 0 and false as text', () => {
      const el = document.createElement('p')
      el.textContent = 'initial'
      const s = new Signal<unknown>(null)
      s.bind(el)
      flush()
      expect(el.textContent).toBe('')
      for (const [v, text] of [
        ['quoted?', 'quoted?'],
        [0, '0'],
        [false, 'false'],
        [undefined, ''],
        [42, '42'],
      ] as const) {
        s.value = v
        flush()
        expect(el.textContent).toBe(text)
      }
    })

    it("should write a Text node's data", () => {
      const node = document.createTextNode('a')
      const s = new Signal('b')
      s.bind(node)
      flush()
      expect(node.data).toBe('b')
    })

    it('should coalesce any number of writes into one DOM write with the latest value', async () => {
      const el = document.createElement('p')
      const s = new Signal(0)
      s.bind(el)
      flush()
      const writes = countWrites(el, 'textContent')
      for (let i = 1; i <= 1000; i++) s.value = i
      expect(el.textContent).toBe('0')
      await settled()
      expect(el.textContent).toBe('1000')
      expect(writes.count).toBe(1)
    })

    it('should write nothing when the value ends equal to what the DOM shows', () => {
      const el = document.createElement('p')
      const s = new Signal(1)
      s.bind(el)
      flush()
      const writes = countWrites(el, 'textContent')
      s.value = 2
      s.value = 1
      flush()
      expect(writes.count).toBe(0)
    })

    it('should make the node its text when a child element held the value (a server\'s link), not when comments split it', () => {
      // A `<p>` made from the server's HTML, bound to `value` and rendered; with the text writes the binding made.
      const render = (html: string, value: string) => {
        const el = document.createElement('p')
        el.innerHTML = html
        const writes = countWrites(el, 'textContent')
        new Signal(value).bind(el)
        flush()
        return { el, writes }
      }
      // A server's link or image inside the bound element: its text is the value, but the node is not that text.
      for (const [html, value] of [
        ['<a href="/u/1">Ada</a>', 'Ada'],
        ['Ada <b>Lovelace</b>', 'Ada Lovelace'],
        ['<img src="x.png">', ''],
      ] as const) {
        const { el, writes } = render(html, value)
        expect(writes.count).toBe(1)
        expect(el.innerHTML).toBe(value)
        expect(el.children).toHaveLength(0)
      }
      // Text nodes alone (split by comments, as a server renders adjacent texts) that read as the value: shown
      // already, nothing is written.
      for (const [html, value] of [
        ['Ada', 'Ada'],
        ['Ada <!-- -->Lovelace', 'Ada Lovelace'],
        ['', ''],
      ] as const) {
        const { el, writes } = render(html, value)
        expect(writes.count).toBe(0)
        expect(el.innerHTML).toBe(html)
      }
    })

    it('should bind a computed, and render only when its value changed', () => {
      const el = document.createElement('p')
      const s = new Signal(1)
      const parity = computed(() => (s.value % 2 ? 'odd' : 'even'))
      parity.bind(el)
      flush()
      expect(el.textContent).toBe('odd')
      const writes = countWrites(el, 'textContent')
      s.value = 3
      flush()
      expect(writes.count).toBe(0)
      s.value = 4
      flush()
      expect(el.textContent).toBe('even')
      expect(writes.count).toBe(1)
    })

    it('should apply format before writing', () => {
      const el = document.createElement('p')
      new Signal(3).bind(el, { format: (v) => `${v} items` })
      flush()
      expect(el.textContent).toBe('3 items')
    })

    it('should not re-render for what format reads (untracked); a computed bound instead does', () => {
      const width = new Signal(1)
      const unit = new Signal('px')
      const a = document.createElement('p')
      const b = document.createElement('p')
      width.bind(a, { format: (v) => `${v}${unit.value}` })
      computed(() => `${width.value}${unit.value}`).bind(b)
      flush()
      unit.value = 'em'
      flush()
      expect([a.textContent, b.textContent]).toEqual(['1px', '1em'])
    })
  })

  describe('.bind() targets', () => {
    it('should set a property', () => {
      const el = document.createElement('div')
      const s = new Signal('hello')
      s.bind(el, 'title')
      flush()
      expect(el.title).toBe('hello')
    })

    it('should not write a number again to a string property that shows it', () => {
      const el = document.createElement('div')
      const writes = countWrites(el, 'title')
      const n = new Signal(40)
      n.bind(el, 'title')
      flush()
      expect(el.title).toBe('40')
      n.value = 41
      n.value = 40
      flush()
      expect(writes.count).toBe(1)
      n.value = 7
      flush()
      expect(el.title).toBe('7')
      expect(writes.count).toBe(2)
    })

    it('should set an attribute, and remove it for null, undefined and false', () => {
      const el = document.createElement('div')
      const s = new Signal<unknown>(5)
      s.bind(el, { attr: 'data-count' })
      flush()
      expect(el.getAttribute('data-count')).toBe('5')
      for (const v of [null, undefined, false]) {
        s.value = 1
        flush()
        s.value = v
        flush()
        expect(el.hasAttribute('data-count')).toBe(false)
      }
      s.value = true
      flush()
      expect(el.getAttribute('data-count')).toBe('')
    })

    it('should write an ARIA state as "true" or "false", and remove it for null and undefined', () => {
      const el = document.createElement('button')
      const open = new Signal<boolean | null | undefined>(false)
      open.bind(el, { attr: 'aria-expanded' })
      new Signal(3).bind(el, { attr: 'ARIA-pressed', format: (n) => n > 2 })
      flush()
      expect(el.getAttribute('aria-expanded')).toBe('false')
      expect(el.getAttribute('aria-pressed')).toBe('true')
      open.value = true
      flush()
      expect(el.getAttribute('aria-expanded')).toBe('true')
      for (const v of [null, undefined]) {
        open.value = true
        flush()
        open.value = v
        flush()
        expect(el.hasAttribute('aria-expanded')).toBe(false)
      }
      // Only booleans: anything else is written as for any attribute.
      const label = new Signal<unknown>('Menu')
      label.bind(el, { attr: 'aria-label' })
      flush()
      expect(el.getAttribute('aria-label')).toBe('Menu')
      // Only the states that take "true" and "false": on the other aria-* attributes false removes.
      label.value = false
      new Signal(false).bind(el, { attr: 'aria-valuenow' })
      flush()
      expect([el.hasAttribute('aria-label'), el.hasAttribute('aria-valuenow')]).toEqual([false, false])
    })

    it('should write numbers in styles as they are where there is no CSS.supports to ask', () => {
      vi.stubGlobal('CSS', undefined)
      try {
        const el = document.createElement('div')
        new Signal(0.5).bind(el, { style: 'opacity' })
        new Signal(3).bind(el, { style: 'z-index' })
        flush()
        expect([el.style.opacity, el.style.zIndex]).toEqual(['0.5', '3'])
      } finally {
        vi.unstubAllGlobals()
      }
    })

    it('should toggle a class by truthiness', () => {
      const el = document.createElement('div')
      el.className = 'keep'
      const s = new Signal<unknown>(0)
      s.bind(el, { class: 'active' })
      flush()
      expect(el.className).toBe('keep')
      s.value = 'yes'
      flush()
      expect(el.classList.contains('active')).toBe(true)
      expect(el.classList.contains('keep')).toBe(true)
      s.value = null
      flush()
      expect(el.classList.contains('active')).toBe(false)
    })

    it('should toggle a class named like a URL attribute (action, data, src) by truthiness too', () => {
      const el = document.createElement('div')
      const count = new Signal(0)
      for (const name of ['action', 'data', 'src', 'href', 'location']) count.bind(el, { class: name })
      flush()
      expect(el.className).toBe('')
      count.value = 2
      flush()
      expect(el.className).toBe('action data src href location')
    })

    it("should write a Text node's data property as given, even text that starts like a javascript: URL", () => {
      const text = document.createTextNode('')
      new Signal('javascript: the good parts').bind(text, 'data')
      flush()
      expect(text.data).toBe('javascript: the good parts')
    })

    it("should pass an array or object to a custom element's data or src property as it is, and check strings", () => {
      class Chart extends HTMLElement {
        data: unknown = []
        src: unknown = null
      }
      customElements.define('x-bound-chart', Chart)
      const chart = document.createElement('x-bound-chart') as Chart
      const points = new Signal([1, 2, 3])
      points.bind(chart, 'data')
      const image = { url: 'a.png', width: 10 }
      new Signal(image).bind(chart, 'src')
      flush()
      expect(chart.data).toBe(points.peek())
      expect(chart.src).toBe(image)
      // A string is still checked, and so is what a native URL property or any attribute gets.
      const errors: unknown[] = []
      vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
      const bad = new Signal('javascript:alert(1)')
      bad.bind(chart, 'src')
      const object = document.createElement('object')
      bad.bind(object, 'data')
      const link = document.createElementNS('http://www.w3.org/2000/svg', 'a')
      new Signal(new URL('javascript:alert(1)')).bind(link, { attr: 'href' })
      flush()
      expect(chart.src).toBe(image)
      expect(object.data).toBe('')
      expect(link.hasAttribute('href')).toBe(false)
      expect(errors.map(String)).toEqual(Array(3).fill('TypeError: bind: refusing a javascript: URL'))
    })

    it('should set a style property (CSS name), through format', () => {
      const el = document.createElement('div')
      const s = new Signal(10)
      s.bind(el, { style: 'width', format: (v) => `${v}px` })
      const color = new Signal<string | null>('red')
      color.bind(el, { style: 'background-color' })
      flush()
      expect(el.style.width).toBe('10px')
      expect(el.style.backgroundColor).toBe('red')
      s.value = 20
      color.value = null
      flush()
      expect(el.style.width).toBe('20px')
      expect(el.style.backgroundColor).toBe('')
    })

    it('should write HTML only through the sanitizer', () => {
      const el = document.createElement('div')
      const sanitize = vi.fn((html: string) => html.replace(/<script[\s\S]*?<\/script>/gi, ''))
      const s = new Signal('<em>hi</em><script>alert(1)</script>')
      s.bind(el, { html: true, sanitize })
      flush()
      expect(sanitize).toHaveBeenCalledWith('<em>hi</em><script>alert(1)</script>')
      expect(el.innerHTML).toBe('<em>hi</em>')
    })
  })

  describe('.bind() model', () => {
    /** What typing `text` into a field does: its value, then an 'input' event. */
    const typeInto = (field: HTMLInputElement | HTMLTextAreaElement, text: string) => {
      field.value = text
      field.dispatchEvent(new Event('input'))
    }

    it('should bind a text input two-way on input events', () => {
      const input = document.createElement('input')
      const s = new Signal('a')
      s.bind(input, { model: 'input' })
      flush()
      expect(input.value).toBe('a')
      typeInto(input, 'typed')
      expect(s.value).toBe('typed')
      s.value = 'set'
      flush()
      expect(input.value).toBe('set')
    })

    it('should bind an optional text field (a Signal<string | null>): null shows as empty, text is written back', () => {
      const input = document.createElement('input')
      input.value = 'stale'
      const s = new Signal<string | null>(null)
      s.bind(input, { model: 'input' })
      flush()
      expect(input.value).toBe('')
      typeInto(input, 'typed')
      expect(s.value).toBe('typed')
      typeInto(input, '')
      expect(s.value).toBe('')
      s.value = 'set'
      flush()
      expect(input.value).toBe('set')
      s.value = null
      flush()
      expect(input.value).toBe('')
    })

    it('should keep a number signal a number', () => {
      const input = document.createElement('input')
      input.type = 'number'
      const s = new Signal(1)
      s.bind(input, { model: 'change' })
      input.value = '42'
      input.dispatchEvent(new Event('change'))
      expect(s.value).toBe(42)
    })

    it('should bind a textarea and a select', () => {
      const area = document.createElement('textarea')
      const text = new Signal('x')
      text.bind(area, { model: 'input' })
      const select = selectOf('a', 'b', 'c')
      const choice = new Signal('b')
      choice.bind(select, { model: 'change' })
      flush()
      expect(area.value).toBe('x')
      expect(select.value).toBe('b')
      typeInto(area, 'y')
      select.value = 'c'
      select.dispatchEvent(new Event('change'))
      expect(text.value).toBe('y')
      expect(choice.value).toBe('c')
    })

    it('should bind a <select multiple> to an array of the selected values', () => {
      const select = selectOf('a', 'b', 'c')
      select.multiple = true
      const chosen = new Signal(['a', 'c'])
      chosen.bind(select, { model: 'change' })
      flush()
      const selected = () => Array.from(select.options, (o) => o.selected)
      expect(selected()).toEqual([true, false, true])
      select.options[0]!.selected = false
      select.options[1]!.selected = true
      select.dispatchEvent(new Event('change'))
      expect(chosen.value).toEqual(['b', 'c'])
      chosen.value = []
      flush()
      expect(selected()).toEqual([false, false, false])
      chosen.value = 'b' as never
      flush()
      expect(selected()).toEqual([false, true, false])
      const numbers = new Signal([1, 3])
      const other = select.cloneNode(true) as HTMLSelectElement
      other.innerHTML = '<option value="1">1</option><option value="2">2</option><option value="3">3</option>'
      // Numbers render; what a change writes back is strings, so the types refuse the binding.
      // @ts-expect-error a number[] signal would get string[]
      numbers.bind(other, { model: 'change' })
      flush()
      expect(Array.from(other.options, (o) => o.selected)).toEqual([true, false, true])
    })

    it('should not write while an input method composes, and write its result when the composition ends', () => {
      const input = document.createElement('input')
      const s = new Signal('')
      // A subscriber that normalizes the value: rendered mid-composition, it cut the composition off.
      s.subscribe((v) => (s.value = v.toUpperCase()))
      s.bind(input, { model: 'input' })
      flush()
      input.value = 'k'
      input.dispatchEvent(new InputEvent('input', { isComposing: true }))
      input.value = 'か'
      input.dispatchEvent(new InputEvent('input', { isComposing: true }))
      expect(s.value).toBe('')
      input.value = 'ok 漢'
      input.dispatchEvent(new CompositionEvent('compositionend', { data: '漢' }))
      expect(s.value).toBe('OK 漢')
      // Plain typing still writes at each input.
      input.value = 'ok 漢 a'
      input.dispatchEvent(new InputEvent('input'))
      expect(s.value).toBe('OK 漢 A')
      // A 'change' model is not written at a composition's end (it waits for the change).
      const field = document.createElement('input')
      const t = new Signal('')
      t.bind(field, { model: 'change' })
      field.value = '漢'
      field.dispatchEvent(new CompositionEvent('compositionend', { data: '漢' }))
      expect(t.value).toBe('')
    })

    it('should not rewrite a number field while the user types a partial number', () => {
      const input = document.createElement('input')
      const n = new Signal(5)
      n.bind(input, { model: 'input' })
      flush()
      const writes = countWrites(input, 'value')
      for (const typed of ['', '-', '-0', '-0.', '-0.50', '1e']) {
        typeInto(input, typed)
        flush()
        expect(input.value).toBe(typed)
      }
      expect(writes.count).toBe(6)
      expect(n.value).toBeNaN()
      n.value = 7
      flush()
      expect(input.value).toBe('7')
    })

    it('should bind a checkbox to a boolean', () => {
      const box = document.createElement('input')
      box.type = 'checkbox'
      const s = new Signal(true)
      s.bind(box, { model: 'change' })
      flush()
      expect(box.checked).toBe(true)
      box.checked = false
      box.dispatchEvent(new Event('change'))
      expect(s.value).toBe(false)
      s.value = true
      flush()
      expect(box.checked).toBe(true)
      s.value = 0 as never
      flush()
      expect(box.checked).toBe(false)
    })

    /** Radios named 'size', valued `values`. */
    const radioGroup = (...values: string[]): HTMLInputElement[] =>
      values.map((v) => Object.assign(document.createElement('input'), { type: 'radio', name: 'size', value: v }))

    it('should bind a radio group to the checked value', () => {
      const radios = radioGroup('s', 'm', 'l')
      const size = new Signal('m')
      for (const r of radios) size.bind(r, { model: 'change' })
      flush()
      expect(radios.map((r) => r.checked)).toEqual([false, true, false])
      radios[2]!.checked = true
      radios[2]!.dispatchEvent(new Event('change'))
      expect(size.value).toBe('l')
      size.value = 's'
      flush()
      expect(radios.map((r) => r.checked)).toEqual([true, false, false])
    })

    it('should not write the value of a radio that is not checked, whatever event it gets', () => {
      const radios = radioGroup('s', 'm')
      const size = new Signal('m')
      size.bind(radios[0]!, { model: 'change' })
      size.bind(radios[1]!, { model: 'input' })
      flush()
      expect(radios.map((r) => r.checked)).toEqual([false, true])
      // Only the checked radio of a group holds the value: an event on another one (dispatched by a script) writes nothing.
      radios[0]!.dispatchEvent(new Event('change'))
      expect(size.value).toBe('m')
      size.value = 's'
      flush()
      expect(radios.map((r) => r.checked)).toEqual([true, false])
      radios[1]!.dispatchEvent(new Event('input'))
      expect(size.value).toBe('s')
    })

    it('should stop listening on dispose', () => {
      const input = document.createElement('input')
      const s = new Signal('a')
      const b = s.bind(input, { model: 'input' })
      flush()
      b.dispose()
      typeInto(input, 'b')
      expect(s.value).toBe('a')
    })
  })

  describe('.bind() repeated writes while a render is queued (the fast path)', () => {
    it('should render again after each flush', () => {
      const el = document.createElement('p')
      const s = new Signal(0)
      s.bind(el)
      for (let round = 1; round <= 3; round++) {
        for (let i = 1; i <= 5; i++) s.value = round * 10 + i
        flush()
        expect(el.textContent).toBe(String(round * 10 + 5))
      }
    })

    it('should notify a subscriber, effect or computed that joins while the render is queued', () => {
      const el = document.createElement('p')
      const s = new Signal(0)
      s.bind(el)
      s.value = 1
      s.value = 2
      const seen: number[] = []
      const off = s.subscribe((v) => seen.push(v))
      const ran: number[] = []
      const stop = effect(() => void ran.push(s.value))
      const c = computed(() => s.value * 10)
      const cSeen: number[] = []
      const offC = c.subscribe((v) => cSeen.push(v))
      s.value = 3
      s.value = 4
      expect(seen).toEqual([2, 3, 4])
      expect(ran).toEqual([2, 3, 4])
      expect(cSeen).toEqual([20, 30, 40])
      flush()
      expect(el.textContent).toBe('4')
      off()
      stop()
      offC()
    })

    it('should notify a subscriber that replaces a disposed binding', () => {
      const el = document.createElement('p')
      const s = new Signal(0)
      const b = s.bind(el)
      s.value = 1
      s.value = 2
      b.dispose()
      const seen: number[] = []
      const off = s.subscribe((v) => seen.push(v))
      s.value = 3
      expect(seen).toEqual([2, 3])
      off()
      const el2 = document.createElement('p')
      s.bind(el2)
      s.value = 4
      s.value = 5
      flush()
      expect(el2.textContent).toBe('5')
    })

    it('should let an unwatched computed see every write', () => {
      const s = new Signal(0)
      s.bind(document.createElement('p'))
      const c = computed(() => s.value + 1)
      for (let i = 1; i <= 3; i++) {
        s.value = i
        expect(c.value).toBe(i + 1)
      }
      flush()
    })

    it('should honour equals on repeated writes', () => {
      const el = document.createElement('p')
      const s = new Signal({ id: 1, n: 0 }, { equals: (a, b) => a.id === b.id })
      s.bind(el, { format: (v) => v.n })
      s.value = { id: 2, n: 1 }
      s.value = { id: 2, n: 2 }
      flush()
      expect(el.textContent).toBe('1')
    })
  })

  describe('.bind() disposal', () => {
    it('should stop rendering after dispose (also through Symbol.dispose)', () => {
      const el = document.createElement('p')
      const s = new Signal(1)
      const b = s.bind(el)
      flush()
      b.dispose()
      s.value = 2
      flush()
      expect(el.textContent).toBe('1')
      const b2 = s.bind(el)
      flush()
      const key = Symbol.dispose ?? Symbol.for('Symbol.dispose')
      ;(b2 as unknown as Record<symbol, () => void>)[key]!()
      s.value = 3
      flush()
      expect(el.textContent).toBe('2')
    })

    it('should release a bound computed when disposed', () => {
      const s = new Signal(1)
      const c = computed(() => s.value + 1)
      const b = c.bind(document.createElement('p'))
      expect((s as unknown as { _subs?: unknown })._subs).toBeDefined()
      b.dispose()
      expect((s as unknown as { _subs?: unknown })._subs).toBeUndefined()
    })
  })

  describe('.bind() errors', () => {
    it('should name the mistake when bind is taken off its signal (nodes.forEach(s.bind)), and bind nothing', () => {
      const s = new Signal('a')
      const c = computed(() => s.value)
      const el = document.createElement('p')
      for (const { bind } of [s, c]) {
        expect(() => bind(el)).toThrow(TypeError)
        expect(() => bind(el)).toThrow(/^bind: needs its signal: s\.bind\(node\)$/)
        expect(() => [el].forEach(bind as any)).toThrow(/^bind: needs its signal/)
      }
      flush()
      expect(el.textContent).toBe('')
    })

    it('should throw a TypeError for a non-Node', () => {
      const s = new Signal(0)
      expect(() => s.bind(5 as never)).toThrow(TypeError)
      expect(() => s.bind(5 as never)).toThrow(/^bind: expected a DOM Node, got number$/)
      expect(() => s.bind(null as never)).toThrow(/^bind: expected a DOM Node, got null$/)
      expect(() => s.bind({} as never)).toThrow(/^bind: expected a DOM Node, got object$/)
    })

    it('should throw a TypeError for an unknown target', () => {
      const el = document.createElement('p')
      const s = new Signal(0)
      expect(() => s.bind(el, { foo: 1 } as never)).toThrow(TypeError)
      expect(() => s.bind(el, { foo: 1 } as never)).toThrow(/^bind: unknown target/)
      expect(() => s.bind(el, 7 as never)).toThrow(/^bind: unknown target number$/)
    })

    it('should throw a TypeError for a target object with a misspelt key next to format, and leave the node as it was', () => {
      const el = document.createElement('p')
      el.innerHTML = '<b>keep</b>'
      const s = new Signal(40)
      const format = (v: number) => `${v}%`
      for (const target of [{ attribute: 'aria-valuenow', format }, { styles: 'width', format }, { format, sanitize: String }])
        expect(() => s.bind(el, target as never)).toThrow(/^bind: unknown target object$/)
      // Misspelt next to a known kind: the format would have been ignored.
      for (const target of [{ attr: 'aria-valuenow', fromat: format }, { style: 'width', formatter: format }])
        expect(() => s.bind(el, target as never)).toThrow(/^bind: unknown target object$/)
      flush()
      expect(el.innerHTML).toBe('<b>keep</b>')
      expect(el.hasAttribute('aria-valuenow')).toBe(false)
      expect((s as unknown as { _subs?: unknown })._subs).toBeUndefined()
    })

    it('should throw a TypeError for a model target with a format, which the types forbid too', () => {
      const input = document.createElement('input')
      const s = new Signal('a')
      expect(() => s.bind(input, { model: 'input', format: (v: string) => v.toUpperCase() } as never)).toThrow(
        /^bind: unknown target object$/,
      )
      expect((s as unknown as { _subs?: unknown })._subs).toBeUndefined()
      s.bind(input, { model: 'input', format: undefined } as never).dispose()
    })

    it('should throw a TypeError for a target object with keys of two kinds, an unknown key, or html other than true', () => {
      const el = document.createElement('p')
      el.innerHTML = '<b>keep</b>'
      const s = new Signal('<i>x</i>')
      const sanitize = (html: string) => html
      for (const target of [
        { class: 'on', html: true, sanitize },
        { attr: 'title', class: 'on' },
        { attr: 'data-x', bogus: 1 },
        { html: false, sanitize },
        { html: 'yes', sanitize },
        { model: 'input', attr: 'value' },
      ])
        expect(() => s.bind(el, target as never)).toThrow(/^bind: unknown target object$/)
      // Known keys only, format included, still bind.
      s.bind(el, { html: true, sanitize, format: (v) => v }).dispose()
      s.bind(el, { attr: 'data-x', format: undefined }).dispose()
      flush()
      expect(el.innerHTML).toBe('<b>keep</b>')
      expect((s as unknown as { _subs?: unknown })._subs).toBeUndefined()
    })

    it('should refuse event-handler attributes and properties, and HTML sinks', () => {
      const el = document.createElement('p')
      const s = new Signal('alert(1)')
      expect(() => s.bind(el, { attr: 'onclick' })).toThrow(TypeError)
      expect(() => s.bind(el, { attr: 'ONMOUSEOVER' })).toThrow(/^bind: refusing script sink "ONMOUSEOVER"$/)
      expect(() => s.bind(el, 'onclick')).toThrow(TypeError)
      expect(() => s.bind(el, 'innerHTML')).toThrow(TypeError)
      expect(() => s.bind(document.createElement('iframe'), { attr: 'srcdoc' })).toThrow(TypeError)
      expect(() => s.bind(document.createElement('script'))).toThrow(/^bind: refusing a <script> node$/)
      flush()
      expect(el.hasAttribute('onclick')).toBe(false)
    })

    it('should refuse to write a javascript: URL into a URL attribute or property, and report it', () => {
      const errors: unknown[] = []
      vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
      const a = document.createElement('a')
      const url = new Signal('https://example.com/')
      url.bind(a, { attr: 'href' })
      const link = document.createElement('a')
      url.bind(link, 'href')
      flush()
      expect(a.getAttribute('href')).toBe('https://example.com/')
      for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\nscript:alert(1)', '\x01javascript:alert(1)']) {
        url.value = bad
        flush()
        expect(a.getAttribute('href')).toBe('https://example.com/')
        expect(link.href).toBe('https://example.com/')
      }
      expect(errors).toHaveLength(8)
      expect(String(errors[0])).toMatch(/^TypeError: bind: refusing a javascript: URL$/)
      url.value = '/next'
      flush()
      expect(a.getAttribute('href')).toBe('/next')
      const frame = document.createElement('iframe')
      new Signal('javascript:alert(1)').bind(frame, { attr: 'src', format: (v) => v })
      flush()
      expect(frame.hasAttribute('src')).toBe(false)
      expect(errors).toHaveLength(9)
    })

    it("should refuse a javascript: URL for a form control's formaction, as an attribute or the formAction property", () => {
      const errors: unknown[] = []
      vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
      const url = new Signal('/save')
      const button = document.createElement('button')
      url.bind(button, { attr: 'formaction' })
      const submit = document.createElement('input')
      submit.type = 'submit'
      url.bind(submit, 'formAction')
      flush()
      expect(button.getAttribute('formaction')).toBe('/save')
      expect(submit.getAttribute('formaction')).toBe('/save')
      url.value = 'javascript:alert(1)'
      flush()
      expect(button.getAttribute('formaction')).toBe('/save')
      expect(submit.getAttribute('formaction')).toBe('/save')
      expect(errors.map(String)).toEqual(Array(2).fill('TypeError: bind: refusing a javascript: URL'))
    })

    it('should leave no binding behind when bind() throws what its flush threw (a schedule that flushes at once)', () => {
      // Without reportError, bind() throws the error of the render it flushed: it returns no Binding to dispose.
      vi.stubGlobal('reportError', undefined)
      configure({ schedule: (f) => f() })
      try {
        const s = new Signal(3)
        const c = computed(() => {
          if (s.value === 3) throw new Error('three')
          return s.value
        })
        const el = document.createElement('p')
        expect(() => c.bind(el)).toThrow(/^three$/)
        s.value = 4
        expect(el.textContent).toBe('')
        expect((s as unknown as { _subs?: unknown })._subs).toBeUndefined()
      } finally {
        configure({ schedule: 'microtask' })
      }
    })

    it('should refuse script source: a Text node in a <script>, one moved there later, an Attr node', () => {
      const errors: unknown[] = []
      vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
      const script = document.createElement('script')
      const inside = document.createTextNode('')
      script.append(inside)
      const s = new Signal('alert(1)')
      expect(() => s.bind(inside)).toThrow(/^bind: refusing a <script> node$/)
      expect(() => s.bind(inside, 'data')).toThrow(/^bind: refusing a <script> node$/)
      expect(() => s.bind(document.createAttribute('onclick'))).toThrow(/^bind: refusing an Attr node$/)
      expect(() => s.bind(document.createElement('a'), 'protocol')).toThrow(/^bind: refusing script sink "protocol"$/)
      // Appended to a 'javascript:void(0)' placeholder href, a search runs as script (a review's finding); so does a
      // pathname ('/%0Aalert(1)') on a 'javascript://x/' href; every part of a link's URL is refused.
      for (const name of ['search', 'Search', 'hash', 'protocol', 'pathname', 'host', 'hostname', 'port', 'username', 'password'])
        for (const tag of ['a', 'area'])
          expect(() => s.bind(document.createElement(tag), name)).toThrow(`bind: refusing script sink "${name}"`)
      // An SVG animation writes these into the attribute it names: an href, to a javascript: URL (a review clicked it).
      const svg = 'http://www.w3.org/2000/svg'
      for (const [tag, attr] of [['animate', 'to'], ['set', 'to'], ['animate', 'values'], ['animateMotion', 'from'], ['animate', 'attributeName']])
        expect(() => s.bind(document.createElementNS(svg, tag!), { attr: attr! })).toThrow(`bind: refusing script sink "${attr}"`)
      expect(() => s.bind(document.createElement('div'), { attr: 'to' }).dispose()).not.toThrow()
      // Only on a node with an href: elsewhere (an attribute, a custom element's property) they are plain names.
      expect(() => s.bind(document.createElement('a'), { attr: 'search' }).dispose()).not.toThrow()
      expect(() => s.bind(document.createElement('div'), 'search').dispose()).not.toThrow()
      // Bound while harmless, then moved into a script: the next render refuses to write.
      const text = document.createTextNode('')
      s.bind(text)
      flush()
      expect(text.data).toBe('alert(1)')
      script.append(text)
      s.value = 'alert(2)'
      flush()
      expect(text.data).toBe('alert(1)')
      expect(String(errors[0])).toMatch(/^TypeError: bind: refusing a <script> node$/)
    })

    it('should check the very string it writes to a URL target, whatever the value stringifies to next', () => {
      const errors: unknown[] = []
      vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
      let calls = 0
      // Harmless the first time it is stringified, a script URL every time after.
      const shifty = { toString: () => (calls++ ? 'javascript:alert(1)' : 'https://example.com/') }
      const a = document.createElement('a')
      new Signal(shifty).bind(a, { attr: 'href' })
      flush()
      expect(a.getAttribute('href')).toBe('https://example.com/')
      calls = 0
      const link = document.createElement('a')
      new Signal(shifty).bind(link, 'href')
      flush()
      expect(link.href).toBe('https://example.com/')
      expect(errors).toEqual([])
    })

    it("should refuse a javascript: URL for a document's location", () => {
      const errors: unknown[] = []
      vi.stubGlobal('reportError', (e: unknown) => errors.push(e))
      // A stand-in document: setting a real one's location navigates.
      const doc = { nodeType: 9, nodeName: '#document', location: 'about:blank', baseURI: 'http://localhost/' } as unknown as Node
      const url = new Signal('javascript:alert(1)')
      url.bind(doc, 'location')
      flush()
      expect((doc as unknown as { location: string }).location).toBe('about:blank')
      expect(String(errors[0])).toMatch(/^TypeError: bind: refusing a javascript: URL$/)
      url.value = '/next'
      flush()
      // Resolved against the document, which is what a frame's own navigation would do.
      expect((doc as unknown as { location: string }).location).toBe('http://localhost/next')
    })

    it('should throw a TypeError naming sanitize when html has none', () => {
      const el = document.createElement('p')
      expect(() => new Signal('x').bind(el, { html: true } as never)).toThrow(/^sanitize: expected a function, got undefined$/)
      expect(() => new Signal('x').bind(el, { format: 'x' } as never)).toThrow(/^format: expected a function, got string$/)
    })

    it('should refuse model on a computed, on a non-form element, element targets on a Text node, and style with no style', () => {
      expect(() => computed(() => 'x').bind(document.createElement('input'), { model: 'input' } as never)).toThrow(
        /^bind: model needs a Signal$/,
      )
      expect(() => new Signal('x').bind(document.createElement('div'), { model: 'input' })).toThrow(/^bind: model needs a form field, got DIV$/)
      // Named like a field, with no `value`: what `<svg><input></svg>` parses to.
      const svgInput = document.createElementNS('http://www.w3.org/2000/svg', 'input')
      expect(() => new Signal('x').bind(svgInput, { model: 'input' })).toThrow(/^bind: model needs a form field, got input$/)
      expect(() => new Signal('x').bind(document.createElement('input'), { model: 'keyup' as never })).toThrow(/^bind: model needs 'input' or 'change'$/)
      expect(() => new Signal('x').bind(document.createTextNode(''), { attr: 'x' })).toThrow(/^bind: expected an Element, got #text$/)
      // Text where none shows (a Comment) or none can be set (a Document): refused; a Comment's `data` by name is not.
      expect(() => new Signal('x').bind(document.createComment(''))).toThrow(/^bind: expected an Element or a Text node, got #comment$/)
      expect(() => new Signal('x').bind(document, { format: String })).toThrow(/^bind: expected an Element or a Text node, got #document$/)
      expect(() => new Signal('x').bind(document.createComment(''), 'data').dispose()).not.toThrow()
      // An element of no HTML or SVG namespace has no `style` (each render threw the engine's TypeError).
      const box = document.createElementNS('urn:x', 'box')
      expect(() => new Signal(3).bind(box, { style: 'width' })).toThrow(/^bind: style needs a styled element, got box$/)
      const rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect')
      expect(() => new Signal('red').bind(rect, { style: 'fill' }).dispose()).not.toThrow()
    })

    it("should throw a TypeError naming the binding when dispose is called without it (an effect's cleanup returned unbound)", () => {
      const s = new Signal('a')
      const el = document.createElement('p')
      const open = new Signal(true)
      // A trap: dispose is a method, unlike effect()'s dispose function. The cleanup's error is thrown from the write.
      // @ts-expect-error the types refuse it too: a cleanup is called with no `this`
      effect(() => (open.value ? s.bind(el).dispose : undefined))
      expect(() => (open.value = false)).toThrow(/^bind: dispose\(\) needs its binding: binding.dispose\(\)$/)
      const { dispose } = s.bind(el)
      // @ts-expect-error the types refuse it too
      expect(() => dispose()).toThrow(TypeError)
      // What setTimeout(binding.dispose) and a listener pass as `this`: the window, an element.
      for (const self of [window, document.createElement('button')]) expect(() => dispose.call(self as never)).toThrow(/needs its binding/)
    })

    it('should throw a TypeError for a missing, empty or spaced property, attribute, class or style name', () => {
      const el = document.createElement('p')
      const s = new Signal('x')
      for (const target of ['', { attr: undefined }, { attr: '' }, { class: undefined }, { style: null }, { attr: 5 }])
        expect(() => s.bind(el, target as never)).toThrow(/^bind: expected a name, got (undefined|""|null|number)$/)
      expect(() => s.bind(el, { class: 'a b' })).toThrow(/^bind: expected a name, got "a b"$/)
      expect(() => s.bind(el, { attr: 'data-x y' })).toThrow(/^bind: expected a name, got "data-x y"$/)
      // Names setAttribute refuses (at every render, before) and a camelCase style name setProperty ignores.
      for (const attr of ['a=b', 'a/b', 'a>b', 'a\0b'])
        expect(() => s.bind(el, { attr })).toThrow(`bind: expected a name, got "${attr}"`)
      expect(() => s.bind(el, { style: 'backgroundColor' })).toThrow('bind: expected a name, got "backgroundColor"')
      // Custom properties keep their case; dashed names and data-/aria- attributes pass.
      expect(() => s.bind(el, { style: '--accentColor' }).dispose()).not.toThrow()
      // A capital alone is no camelCase: the browser lowercases 'Width'.
      expect(() => s.bind(el, { style: 'Width' }).dispose()).not.toThrow()
      expect(() => s.bind(el, { style: 'WebkitTransform' })).toThrow('bind: expected a name, got "WebkitTransform"')
      expect(() => s.bind(el, { style: 'background-color' }).dispose()).not.toThrow()
      expect(() => s.bind(el, { attr: 'aria-valuenow' }).dispose()).not.toThrow()
      flush()
      expect(el.attributes).toHaveLength(0)
      expect((s as unknown as { _subs?: unknown })._subs).toBeUndefined()
    })

    it('should change nothing when the arguments are bad', () => {
      const s = new Signal(0)
      expect(() => s.bind(document.createElement('p'), { html: true } as never)).toThrow(TypeError)
      expect((s as unknown as { _subs?: unknown })._subs).toBeUndefined()
    })

    it('should report a throwing render, keep rendering the others, and render it again later', () => {
      const reported: unknown[] = []
      vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
      const a = document.createElement('p')
      const b = document.createElement('p')
      const s = new Signal(1)
      s.bind(a, {
        format: (v) => {
          if (v === 2) throw new Error('render')
          return v
        },
      })
      s.bind(b)
      flush()
      s.value = 2
      flush()
      expect(reported.map((e) => (e as Error).message)).toEqual(['render'])
      expect(b.textContent).toBe('2')
      s.value = 3
      flush()
      expect(a.textContent).toBe('3')
    })

    it('should rethrow a render error after the flush where reportError is missing', () => {
      const el = document.createElement('p')
      const other = document.createElement('p')
      const s = new Signal(0)
      const c = computed(() => {
        if (s.value === 1) throw new Error('computed')
        return s.value
      })
      c.bind(el)
      s.bind(other)
      flush()
      s.value = 1
      expect(() => flush()).toThrow('computed')
      expect(other.textContent).toBe('1')
    })

    it('should cut off a render that keeps scheduling renders with "Cycle detected"', () => {
      const el = document.createElement('p')
      const s = new Signal(0)
      const b = s.bind(el, {
        format: (v) => {
          s.value = v + 1
          return v
        },
      })
      expect(() => flush()).toThrow(/^Cycle detected/)
      expect(s.value).toBeLessThan(1000)
      // Dropped after the cycle: later flushes render the other bindings and throw nothing.
      const other = document.createElement('p')
      new Signal('ok').bind(other)
      flush()
      expect(other.textContent).toBe('ok')
      // Still bound: a write queues it again, and it loops again.
      s.value = 0
      expect(() => flush()).toThrow(/^Cycle detected/)
      b.dispose()
      flush()
    })

    it('should still render a binding to a computed after a render cycle cut it off', () => {
      const el = document.createElement('p')
      const s = new Signal(0)
      const c = computed(() => s.value * 10)
      c.bind(el)
      const loop = new Signal(0)
      const b = loop.bind(document.createElement('p'), {
        format: (v) => {
          // Queues the victim behind its computed, and itself again, in every round.
          s.value = v + 1
          loop.value = v + 1
          return v
        },
      })
      expect(() => flush()).toThrow(/^Cycle detected/)
      b.dispose()
      s.value = -1
      flush()
      expect(el.textContent).toBe('-10')
    })
  })
})
