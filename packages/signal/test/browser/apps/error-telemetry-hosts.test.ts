// User trial (error telemetry), host variants: reportError removed, replaced by a throwing stub, or patched after
// load to add context. Fresh copies of the shipped dist are loaded after the host change (bundler-copies.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { distCopy as copy } from '../dist-copy.ts'
import { install, type Hit } from './error-reporter.ts'

type SignalPkg = typeof import('@eddy/signal')
type SchedulerPkg = typeof import('@eddy/scheduler')

let hits: Hit[] = []
let reporter: ReturnType<typeof install>
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const el = (tag = 'span') => document.body.appendChild(document.createElement(tag))
const realReportError = window.reportError
const setReportError = (v: unknown) =>
  Object.defineProperty(window, 'reportError', { value: v, configurable: true, writable: true, enumerable: true })

beforeEach(() => {
  reporter = install()
  hits = reporter.hits
})
afterEach(async () => {
  await sleep(0)
  setReportError(realReportError)
  reporter.remove()
  document.body.replaceChildren()
})

describe('reportError removed before eddy loads (older browsers)', () => {
  it('signal: an effect error is thrown by the write; a render error is one uncaught error from the scheduled flush', async () => {
    setReportError(undefined)
    const { Signal, effect, settled } = await copy<SignalPkg>('signal')
    const s = new Signal(0)
    const eff = new Error('effect')
    const d = effect(() => { if (s.value == 1) throw eff })
    expect(() => (s.value = 1)).toThrow(eff)
    expect(hits).toEqual([])

    const ren = new Error('render')
    const b = s.bind(el(), { format: (v) => { if (v == 2) throw ren; return '' } })
    await settled()
    s.value = 2
    await expect(settled()).resolves.toBeUndefined()
    await sleep(0)
    expect(hits.map((h) => h.error)).toEqual([ren])
    expect(hits[0]!.error).toBe(ren)
    d(), b.dispose()
  })

  it('signal: two renders throw in one flush: one uncaught AggregateError holding both originals, in order', async () => {
    setReportError(undefined)
    const { Signal, settled } = await copy<SignalPkg>('signal')
    const s = new Signal(0)
    const errs = [new Error('r1'), new Error('r2')]
    const bs = errs.map((e) => s.bind(el(), { format: (v) => { if (v) throw e; return '' } }))
    await settled()
    s.value = 1
    await settled()
    await sleep(0)
    expect(hits.length).toBe(1)
    expect(hits[0]!.error).toBeInstanceOf(AggregateError)
    expect(hits[0]!.error.errors).toEqual(errs)
    expect(hits[0]!.error.errors[0]).toBe(errs[0])
    bs.forEach((b) => b.dispose())
  })

  it('signal: model write-back whose effect throws: one uncaught error from the input listener', async () => {
    setReportError(undefined)
    const { Signal, effect } = await copy<SignalPkg>('signal')
    const s = new Signal('')
    const input = el('input') as HTMLInputElement
    const b = s.bind(input, { model: 'input' })
    const boom = new Error('validate')
    const d = effect(() => { if (s.value == 'bad') throw boom })
    input.value = 'bad'
    input.dispatchEvent(new Event('input'))
    expect(s.value).toBe('bad')
    expect(hits.map((h) => h.error)).toEqual([boom])
    d(), b.dispose()
  })

  it('scheduler: a throwing macrotask is rethrown in a microtask: one uncaught error, same object; the batch goes on', async () => {
    setReportError(undefined)
    const { macrotask } = await copy<SchedulerPkg>('scheduler')
    setReportError(realReportError)
    const boom = new Error('task')
    const ran: number[] = []
    macrotask(() => { throw boom })
    macrotask(() => ran.push(2))
    await sleep(20)
    expect(ran).toEqual([2])
    expect(hits.map((h) => h.error)).toEqual([boom])
    expect(hits[0]!.error).toBe(boom)
  })
})

describe('reportError replaced by a throwing stub before eddy loads', () => {
  it('scheduler: the original error (not the stub\'s) is rethrown, once', async () => {
    setReportError(() => { throw new TypeError('reportError is not supported') })
    const { macrotask } = await copy<SchedulerPkg>('scheduler')
    const boom = new Error('task')
    macrotask(() => { throw boom })
    await sleep(20)
    expect(hits.map((h) => h.error)).toEqual([boom])
  })

  // Both failed before: the signal package threw what the stub threw in place of the user's error.
  it("signal: a render error reaches the page as the user's error, once (not the stub's TypeError)", async () => {
    setReportError(() => { throw new TypeError('reportError is not supported') })
    const { Signal, settled } = await copy<SignalPkg>('signal')
    const s = new Signal(0)
    const boom = new Error('format')
    const b = s.bind(el(), { format: (v) => { if (v) throw boom; return '' } })
    await settled()
    s.value = 1
    await settled()
    await sleep(0)
    expect(hits.map((h) => h.error)).toEqual([boom])
    b.dispose()
  })

  it("signal: an effect error is thrown by the write as the user's error", async () => {
    setReportError(() => { throw new TypeError('reportError is not supported') })
    const { Signal, effect } = await copy<SignalPkg>('signal')
    const s = new Signal(0)
    const boom = new Error('effect')
    const d = effect(() => { if (s.value) throw boom })
    let caught: unknown
    try {
      s.value = 1
    } catch (e) {
      caught = e
    }
    expect(caught).toBe(boom)
    d()
  })
})

describe('a page that patches reportError after load to add context', () => {
  it('signal calls the patched reportError (looked up at call time); the default macrotask queue does not (documented)', async () => {
    const { Signal, effect } = await copy<SignalPkg>('signal')
    const { macrotask } = await copy<SchedulerPkg>('scheduler')
    const tagged: unknown[] = []
    setReportError((e: any) => {
      tagged.push(e)
      realReportError(e)
    })
    const s = new Signal(0)
    const eff = new Error('effect')
    const d = effect(() => { if (s.value) throw eff })
    s.value = 1
    const task = new Error('task')
    macrotask(() => { throw task })
    await sleep(20)
    expect(tagged).toEqual([eff])
    expect(hits.map((h) => h.error)).toEqual([eff, task])
    d()
  })
})
