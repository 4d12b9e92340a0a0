// User trial: a Sentry-like error reporter (window 'error' + 'unhandledrejection') in an app on eddy, in real
// Chromium. Each kind of failure is made to happen; the reporter must get it exactly once, as the original object,
// with a stack that points at this file (the user's code).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { install, type Hit } from './error-reporter.ts'
import { Signal, batch, computed, configure, effect, flush, settled } from '@eddy/signal'
import { loop, macrotask, monitor } from '@eddy/scheduler'

let hits: Hit[] = []
let reporter: ReturnType<typeof install>
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const block = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end);
}
const el = (tag = 'span') => document.body.appendChild(document.createElement(tag))
const FILE = 'error-telemetry.test.ts'
/** The reporter got exactly these errors, by identity, each with a stack into this file. */
const expectReported = (...errors: unknown[]) => {
  expect(hits.map((h) => h.error)).toEqual(errors)
  hits.forEach((h, i) => expect(h.error).toBe(errors[i]))
  for (const h of hits) expect(String(h.error?.stack)).toContain(FILE)
}

beforeEach(() => {
  reporter = install()
  hits = reporter.hits
})
afterEach(async () => {
  flush()
  configure({ schedule: 'microtask' })
  await sleep(0)
  reporter.remove()
  document.body.replaceChildren()
})

describe('reportError present (Chromium)', () => {
  it('effect: the first run throws to the caller (not reported); later runs are reported once each, effect stays live', () => {
    const s = new Signal(0)
    const first = new Error('first run')
    expect(() => effect(() => { if (s.value == 0) throw first })).toThrow(first)
    expect(hits).toEqual([])
    // effect disposed after a throwing first run: a write runs nothing
    s.value = 1
    expect(hits).toEqual([])

    const errs: Error[] = []
    let runs = 0
    const dispose = effect(() => {
      runs++
      if (s.value > 1) throw errs[errs.push(new Error(`run ${s.value}`)) - 1]
    })
    s.value = 2
    s.value = 3
    expect(runs).toBe(3)
    expectReported(...errs)
    dispose()
  })

  it('subscriber: a throwing call is reported once, the subscriber keeps being called', () => {
    const s = new Signal(0)
    const errs: Error[] = []
    const calls: number[] = []
    const off = s.subscribe((v) => {
      calls.push(v)
      if (v % 2) throw errs[errs.push(new Error(`odd ${v}`)) - 1]
    })
    s.value = 1
    s.value = 2
    s.value = 3
    expect(calls).toEqual([0, 1, 2, 3])
    expectReported(...errs)
    off()
  })

  it('a computed that throws, read by one effect: reported once per change, same object; the effect recovers', () => {
    const s = new Signal(1)
    let boom: Error | undefined
    const c = computed(() => {
      if (s.value < 0) throw (boom = new Error(`negative ${s.value}`))
      return s.value * 2
    })
    const seen: number[] = []
    const dispose = effect(() => void seen.push(c.value))
    s.value = -1
    const b1 = boom
    s.value = 2
    expect(seen).toEqual([2, 4])
    expectReported(b1)
    dispose()
  })

  it('a throwing computed read by two effects and a binding: the same Error object reaches the reporter 3 times', async () => {
    const s = new Signal(1)
    let boom: Error | undefined
    const c = computed(() => {
      if (s.value < 0) throw (boom = new Error('shared'))
      return s.value
    })
    const d1 = effect(() => void c.value)
    const d2 = effect(() => void c.value)
    const b = c.bind(el())
    await settled()
    s.value = -1
    await settled()
    // one per reader: a telemetry SDK that dedupes by identity counts it once, one that does not counts 3
    expect(hits.length).toBe(3)
    expect(hits.every((h) => h.error === boom)).toBe(true)
    d1(), d2(), b.dispose()
  })

  it("a binding's format: reported once from the scheduled flush, stack has the format's line; other bindings render", async () => {
    const s = new Signal(1)
    let boom: Error | undefined
    const a = el()
    const other = el()
    const b1 = s.bind(a, { format: (v) => { if (v == 2) throw (boom = new Error('format')); return `v${v}` } })
    const b2 = s.bind(other)
    await settled()
    s.value = 2
    await settled()
    expect(other.textContent).toBe('2')
    expect(a.textContent).toBe('v1')
    expectReported(boom)
    s.value = 3
    await settled()
    expect(a.textContent).toBe('v3')
    expect(hits.length).toBe(1)
    b1.dispose(), b2.dispose()
  })

  it('a sanitizer that throws: reported once, the node keeps its old html', async () => {
    const s = new Signal('<b>a</b>')
    let boom: Error | undefined
    const node = el('div')
    const b = s.bind(node, { html: true, sanitize: (h) => { if (h.includes('x')) throw (boom = new Error('sanitize')); return h } })
    await settled()
    s.value = '<i>x</i>'
    await settled()
    expect(node.innerHTML).toBe('<b>a</b>')
    expectReported(boom)
    b.dispose()
  })

  it('model write-back: an effect on the field throws during the input event; reported once, the signal has the value', async () => {
    const s = new Signal('')
    const input = el('input') as HTMLInputElement
    const b = s.bind(input, { model: 'input' })
    let boom: Error | undefined
    const dispose = effect(() => { if (s.value == 'bad') throw (boom = new Error('validate')) })
    input.value = 'bad'
    input.dispatchEvent(new Event('input', { bubbles: true }))
    expect(s.value).toBe('bad')
    expectReported(boom)
    dispose(), b.dispose()
  })

  it('an effect loop: the write throws Cycle detected to the caller, nothing reported, stack has the write', () => {
    const s = new Signal(0)
    const dispose = effect(() => { if (s.value > 0) s.value = s.value + 1 })
    let caught: any
    try {
      s.value = 1
    } catch (e) {
      caught = e
    }
    expect(caught?.message).toBe('Cycle detected')
    expect(String(caught.stack)).toContain(FILE)
    expect(hits).toEqual([])
    dispose()
  })

  it('several effects throw in one write: each reported once, in order, no AggregateError', () => {
    const s = new Signal(0)
    const errs = [new Error('a'), new Error('b'), new Error('c')]
    const ds = errs.map((e) => effect(() => { if (s.value) throw e }))
    s.value = 1
    expectReported(...errs)
    ds.forEach((d) => d())
  })

  it('several renders throw in one flush: each reported once, in order', async () => {
    const s = new Signal(0)
    const errs = [new Error('r1'), new Error('r2')]
    const bs = errs.map((e) => s.bind(el(), { format: (v) => { if (v) throw e; return '' } }))
    await settled()
    s.value = 1
    await settled()
    expectReported(...errs)
    bs.forEach((b) => b.dispose())
  })

  it('batch(): fn throws after a write whose effect throws: caller gets fn\'s error, reporter the effect\'s, once each', () => {
    const s = new Signal(0)
    const eff = new Error('effect')
    const own = new Error('batch fn')
    const d = effect(() => { if (s.value) throw eff })
    expect(() => batch(() => { s.value = 1; throw own })).toThrow(own)
    expectReported(eff)
    d()
  })

  it('settled() awaited while a render throws resolves; the error is reported once', async () => {
    const s = new Signal(0)
    const boom = new Error('render')
    const b = s.bind(el(), { format: (v) => { if (v) throw boom; return '' } })
    await settled()
    s.value = 1
    await expect(settled()).resolves.toBeUndefined()
    expectReported(boom)
    b.dispose()
  })

  it('macrotask: a throwing callback is reported once and the rest of the batch runs', async () => {
    const boom = new Error('task')
    const ran: number[] = []
    macrotask(() => ran.push(1))
    macrotask(() => { throw boom })
    macrotask(() => ran.push(3))
    await sleep(20)
    expect(ran).toEqual([1, 3])
    expectReported(boom)
  })

  it('loop(): a sync throw and an async rejection with done unobserved are each one unhandled rejection', async () => {
    const sync = new Error('sync step')
    const async_ = new Error('async step')
    loop(() => { throw sync })
    loop(async () => { await sleep(1); throw async_ })
    await sleep(50)
    expect(hits.map((h) => h.via)).toEqual(['rejection', 'rejection'])
    expect(new Set(hits.map((h) => h.error))).toEqual(new Set([sync, async_]))
    for (const h of hits) expect(String(h.error.stack)).toContain(FILE)
  })

  it('monitor: a throwing pressure listener is reported once, the other listener still runs', async () => {
    const m = monitor({ maxLagMs: 30 })
    const boom = new Error('listener')
    let other = 0
    m.on('pressure', () => { throw boom })
    m.on('pressure', () => other++)
    await sleep(120)
    block(250)
    for (let i = 0; i < 40 && !other; i++) await sleep(25)
    m.stop()
    expect(other).toBe(1)
    expectReported(boom)
  })

  it('a subscriber that throws on its first call: subscribe() throws it and nothing stays subscribed', () => {
    const s = new Signal(0)
    const boom = new Error('first call')
    let calls = 0
    expect(() => s.subscribe(() => { calls++; throw boom })).toThrow(boom)
    s.value = 1
    expect(calls).toBe(1)
    expect(hits).toEqual([])
  })
})
