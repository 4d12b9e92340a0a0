// A hostile reviewer's values: Proxies whose traps throw, objects whose conversions throw, BigInt, Symbol, -0, NaN,
// huge strings, frozen and null-prototype objects, through every binding kind. Expected of a web framework: the render
// of a value that cannot be shown reports an error naming the problem (the user's own error, or the TypeError the
// DOM throws), leaves the DOM as it was, does not stop the other bindings of the flush, and the next good value
// renders (no stuck queue).
import { describe, expect, it } from 'vitest'
import { Signal, computed, effect, settled, batch } from '@eddy/signal'
import { observe, sandbox } from '../../dom.ts'
import { stillRenders } from './still.ts'

// The render comes at the next microtask checkpoint, without flush() or a macrotask.
const micro = async () => {
  await Promise.resolve()
  await Promise.resolve()
}

const box = sandbox()

const boom = (what: string) => () => {
  throw new Error(`boom: ${what}`)
}
const revoked = (() => {
  const r = Proxy.revocable({}, {})
  r.revoke()
  return r.proxy
})()
const trapThrows = new Proxy(
  {},
  { get: boom('get trap'), has: boom('has trap'), ownKeys: boom('ownKeys trap'), getPrototypeOf: boom('proto trap') },
)

// Values whose String() throws, and what the render should report.
const unshowable: [string, unknown, RegExp][] = [
  ['toString throws', { toString: boom('toString') }, /boom: toString/],
  ['Symbol.toPrimitive throws', { [Symbol.toPrimitive]: boom('toPrimitive') }, /boom: toPrimitive/],
  ['Proxy get trap throws', trapThrows, /boom: get trap/],
  ['revoked Proxy', revoked, /revoked/],
  ['null prototype', Object.create(null), /Cannot convert object to primitive value/],
]

// A fresh bound signal renders at the next flush, without flush(): proves that no queue or schedule is stuck.
describe('values whose conversion throws', () => {
  for (const [name, bad, message] of unshowable) {
    it(`${name}: every binding kind reports it, leaves the DOM, renders the next good value`, async () => {
      const el = box.root.appendChild(document.createElement('div'))
      const other = box.root.appendChild(document.createElement('p'))
      const s = new Signal<unknown>('good')
      const o = new Signal('other-0')
      s.bind(el)
      s.bind(el, { attr: 'data-x' })
      s.bind(el, 'title')
      s.bind(el, { style: '--v' })
      s.bind(el, { html: true, sanitize: (h) => h.replace(/</g, '&lt;') })
      s.bind(el, { format: (v) => v })
      o.bind(other)
      await settled()
      const before = el.outerHTML
      s.value = bad
      o.value = 'other-1'
      await settled()
      // five bindings stringify it (text, attr, style, html, format->text); `title` is set by the DOM, which
      // converts it (and throws the same way)
      expect(box.reported.length).toBe(6)
      for (const e of box.reported) expect(String((e as Error)?.message)).toMatch(message)
      expect(el.outerHTML).toBe(before)
      expect(other.textContent).toBe('other-1')
      s.value = 'fine'
      await settled()
      expect(el.textContent).toBe('fine')
      expect(el.getAttribute('data-x')).toBe('fine')
      expect(el.title).toBe('fine')
      expect(el.style.getPropertyValue('--v')).toBe('fine')
      await stillRenders(box.root, micro)
    })
  }

  it('a URL binding with a value whose toString throws reports it (not a javascript: false positive)', async () => {
    const a = box.root.appendChild(document.createElement('a'))
    const s = new Signal<unknown>('/ok')
    s.bind(a, 'href')
    s.bind(a, { attr: 'href' })
    await settled()
    s.value = { toString: boom('url') }
    await settled()
    expect(box.msgs()).toEqual(['Error: boom: url', 'Error: boom: url'])
    expect(a.getAttribute('href')).toBe('/ok')
    await stillRenders(box.root, micro)
  })

  it('an object whose toString answers differently each time is converted once per render (URL check holds)', async () => {
    const a = box.root.appendChild(document.createElement('a'))
    let n = 0
    const shifty = { toString: () => (n++ % 2 ? 'javascript:alert(1)' : '/safe') }
    const s = new Signal<unknown>(shifty)
    s.bind(a, 'href')
    s.bind(a, { attr: 'data-u' })
    await settled()
    expect(a.getAttribute('href')).toBe('/safe')
    expect(a.href.startsWith('javascript')).toBe(false)
  })
})

describe('values that do convert', () => {
  it('Symbol: text and attributes show its description; a DOM property that refuses it reports a TypeError', async () => {
    const el = box.root.appendChild(document.createElement('div'))
    const s = new Signal<unknown>(Symbol('sym'))
    s.bind(el)
    s.bind(el, { attr: 'data-s' })
    s.bind(el, 'title')
    await settled()
    expect(el.textContent).toBe('Symbol(sym)')
    expect(el.getAttribute('data-s')).toBe('Symbol(sym)')
    expect(box.msgs()).toEqual([expect.stringMatching(/^TypeError: .*'title'.*Cannot convert a Symbol value to a string/)])
    // template literal / toString of a signal holding a symbol
    expect(String(s)).toBe('Symbol(sym)')
    await stillRenders(box.root, micro)
  })

  it('BigInt: text, attr, style, property; JSON.stringify of the signal throws as for the bare value', async () => {
    const el = box.root.appendChild(document.createElement('div'))
    const s = new Signal<unknown>(10n ** 30n)
    s.bind(el)
    s.bind(el, { attr: 'data-b' })
    s.bind(el, { style: 'z-index' })
    s.bind(el, 'title')
    await settled()
    expect(el.textContent).toBe('1000000000000000000000000000000')
    expect(el.getAttribute('data-b')).toBe('1000000000000000000000000000000')
    expect(el.title).toBe('1000000000000000000000000000000')
    expect(box.msgs()).toEqual([])
    s.value = 10n ** 30n // a new BigInt, equal: Object.is says equal, no render, no notification
    let runs = 0
    const stop = effect(() => void (s.value, runs++))
    s.value = 10n ** 30n
    expect(runs).toBe(1)
    stop()
    expect(() => JSON.stringify(s)).toThrow(TypeError)
  })

  it('-0 and NaN: Object.is semantics for notification, text shows "0" and "NaN"', async () => {
    const el = box.root.appendChild(document.createElement('div'))
    const s = new Signal(0)
    s.bind(el)
    let runs = 0
    const stop = effect(() => void (s.value, runs++))
    s.value = -0
    expect(runs).toBe(2)
    s.value = NaN
    s.value = NaN
    expect(runs).toBe(3)
    await settled()
    expect(el.textContent).toBe('NaN')
    stop()
  })

  it('number field bound to -0, NaN, Infinity: no rewrite loop, user input of "-0" kept', async () => {
    const input = box.root.appendChild(document.createElement('input'))
    input.type = 'number'
    const s = new Signal(-0)
    s.bind(input, { model: 'input' })
    await settled()
    expect(input.value).toBe('0')
    s.value = NaN
    await settled()
    expect(input.value).toBe('')
    s.value = Infinity
    await settled()
    // type=number cannot hold Infinity: sanitized to ''
    expect(input.value).toBe('')
    input.value = '-0'
    input.dispatchEvent(new Event('input'))
    expect(Object.is(s.value, -0)).toBe(true)
    await settled()
    expect(input.value).toBe('-0')
    expect(box.msgs()).toEqual([])
  })

  it('huge strings (16 MB): one DOM write, equal rewrite skipped', async () => {
    const el = box.root.appendChild(document.createElement('div'))
    const big = 'x'.repeat(16 * 1024 * 1024)
    const s = new Signal('')
    s.bind(el)
    s.value = big
    let rec = observe(el)
    await settled()
    expect(rec.stop().length).toBe(1)
    rec = observe(el)
    s.value = big.slice(0, -1) + 'x' // equal content, different string object
    await settled()
    expect(rec.stop().length).toBe(0)
    expect(el.textContent!.length).toBe(big.length)
  })

  it('frozen and null-prototype objects as values, and in equals/format', async () => {
    const el = box.root.appendChild(document.createElement('div'))
    const frozen = Object.freeze({ id: 1, label: 'frozen' })
    const bare = Object.assign(Object.create(null), { id: 2, label: 'bare' })
    const s = new Signal<{ id: number; label: string }>(frozen, { equals: (a, b) => a.id === b.id })
    s.bind(el, { format: (v) => v.label })
    await settled()
    expect(el.textContent).toBe('frozen')
    s.value = bare
    await settled()
    expect(el.textContent).toBe('bare')
    const c = computed(() => Object.freeze([s.value.label]))
    expect(c.value).toEqual(['bare'])
    expect(box.msgs()).toEqual([])
  })

  it('a frozen Signal: a write throws a TypeError at the call and changes nothing', async () => {
    const el = box.root.appendChild(document.createElement('div'))
    const s = new Signal('a')
    s.bind(el)
    await settled()
    Object.freeze(s)
    expect(() => (s.value = 'b')).toThrow(TypeError)
    expect(s.value).toBe('a')
    await stillRenders(box.root, micro)
  })

  it('equals that throws: the write throws it, the value stays, later writes work', async () => {
    const el = box.root.appendChild(document.createElement('div'))
    let fail = true
    const s = new Signal(1, {
      equals: (a, b) => {
        if (fail) throw new Error('equals broke')
        return a === b
      },
    })
    s.bind(el)
    await settled()
    expect(() => (s.value = 2)).toThrow('equals broke')
    expect(s.value).toBe(1)
    fail = false
    s.value = 3
    await settled()
    expect(el.textContent).toBe('3')
  })

  it('a Proxy value whose traps throw is stored and compared without touching its traps', async () => {
    const s = new Signal<unknown>(0)
    let runs = 0
    const stop = effect(() => void (s.value, runs++))
    s.value = trapThrows
    s.value = trapThrows
    batch(() => {
      s.value = revoked
      s.value = trapThrows
    })
    // The batch puts back the Proxy it held: no change, no run (apps/migrate/batch-revert.test.ts).
    expect(runs).toBe(2)
    stop()
  })
})
