// A bank's account page under its strict CSP (frame.html: script-src 'self', style-src 'self', Trusted Types required
// with an allow-list), built with the shipped @eddy/signal and @eddy/scheduler. Every test ends by checking that the
// page's reporting endpoint would have received nothing: no `securitypolicyviolation` in the frame.
import { afterEach, describe, expect, it } from 'vitest'
import { closeFrames, htmlPolicy, mutations, openCspFrame, tick, trustedTypesOf, type CspWindow } from './csp-harness.ts'

afterEach(closeFrames)

async function noViolations(win: CspWindow) {
  await tick(win)
  expect(win.violations).toEqual([])
}

describe('bindings under the policy', () => {
  it('account summary: text, property, attr, ARIA state, class, style and a custom property render with no violation', async () => {
    const { win, doc } = await openCspFrame()
    const { Signal, computed, flush, batch } = win.eddy
    const root = doc.createElement('section')
    root.innerHTML = trustedTypesOf(win).createPolicy('app-html', { createHTML: (s) => s }).createHTML(
      '<h2 id="name"></h2><p id="balance"></p><div id="bar" role="progressbar"><span></span></div><button id="more"></button>',
    ) as any
    doc.body.append(root)
    const balance = new Signal(1200)
    const limit = new Signal(2000)
    const owner = new Signal('Ada <img src=x onerror=alert(1)>')
    const loading = new Signal(true)
    const expanded = new Signal(false)
    const used = computed(() => Math.round((100 * Math.max(0, -balance.value)) / limit.value))
    const $ = (id: string) => doc.getElementById(id)!
    owner.bind($('name'))
    owner.bind($('name'), 'title')
    balance.bind($('balance'), { format: (v) => `${v.toFixed(2)} EUR` })
    balance.bind($('balance'), { class: 'overdrawn', format: (v) => v < 0 })
    used.bind($('bar'), { attr: 'aria-valuenow' })
    used.bind($('bar'), { style: 'width', format: (v) => `${v}%` })
    used.bind($('bar'), { style: '--used' })
    used.bind($('bar'), { style: 'opacity', format: (v) => (v ? 1 : 0.5) })
    loading.bind(root, { attr: 'aria-busy' })
    expanded.bind($('more'), { attr: 'aria-expanded' })
    flush()
    expect($('name').textContent).toBe('Ada <img src=x onerror=alert(1)>')
    expect($('name').title).toBe('Ada <img src=x onerror=alert(1)>')
    expect($('name').children.length).toBe(0)
    expect($('balance').textContent).toBe('1200.00 EUR')
    expect($('balance').classList.contains('overdrawn')).toBe(false)
    expect(root.getAttribute('aria-busy')).toBe('true')
    expect($('more').getAttribute('aria-expanded')).toBe('false')
    batch(() => {
      balance.value = -500
      loading.value = false
      expanded.value = true
    })
    flush()
    expect($('balance').textContent).toBe('-500.00 EUR')
    expect($('balance').classList.contains('overdrawn')).toBe(true)
    expect($('bar').getAttribute('aria-valuenow')).toBe('25')
    // style.setProperty is CSSOM: style-src 'self' lets it through, and it is applied.
    expect($('bar').style.getPropertyValue('width')).toBe('25%')
    expect($('bar').style.getPropertyValue('--used')).toBe('25')
    expect(win.getComputedStyle($('bar')).opacity).toBe('1')
    expect(root.getAttribute('aria-busy')).toBe('false')
    expect($('more').getAttribute('aria-expanded')).toBe('true')
    // A render that changes nothing writes nothing.
    expect(mutations(win, root, () => { balance.value = -500.0; flush() })).toBe(0)
    await noViolations(win)
  })

  it('transfer form: { model } on a text, number, checkbox, select and radios, typed into, with no violation', async () => {
    const { win, doc } = await openCspFrame()
    const { Signal, computed, flush } = win.eddy
    const form = doc.createElement('form')
    const input = (props: { type?: string; name?: string; value?: string } = {}) => {
      const el = doc.createElement('input')
      for (const [k, v] of Object.entries(props)) el.setAttribute(k, v)
      return form.appendChild(el)
    }
    const iban = input()
    const amount = input({ type: 'number' })
    const now = input({ type: 'checkbox' })
    const account = form.appendChild(doc.createElement('select'))
    for (const v of ['checking', 'savings']) account.append(new win.Option(v, v))
    const radios = ['sepa', 'instant'].map((v) => input({ type: 'radio', name: 'speed', value: v }))
    doc.body.append(form)
    const s = {
      iban: new Signal('DE00'),
      amount: new Signal(0),
      now: new Signal(false),
      account: new Signal('savings'),
      speed: new Signal('sepa'),
    }
    s.iban.bind(iban, { model: 'input' })
    s.amount.bind(amount, { model: 'input' })
    s.now.bind(now, { model: 'change' })
    s.account.bind(account, { model: 'change' })
    for (const r of radios) s.speed.bind(r, { model: 'change' })
    const summary = computed(() => `${s.amount.value} from ${s.account.value} to ${s.iban.value} (${s.speed.value}${s.now.value ? ', now' : ''})`)
    const out = form.appendChild(doc.createElement('output'))
    summary.bind(out)
    flush()
    expect([iban.value, account.value, radios[0]!.checked, now.checked]).toEqual(['DE00', 'savings', true, false])
    const type = (el: HTMLInputElement | HTMLSelectElement, value: string, event = 'input') => {
      el.value = value
      el.dispatchEvent(new win.Event(event, { bubbles: true }))
    }
    type(iban, 'DE89370400440532013000')
    type(amount, '250.5')
    type(account, 'checking', 'change')
    now.click()
    radios[1]!.click()
    expect(s.iban.value).toBe('DE89370400440532013000')
    expect(s.amount.value).toBe(250.5)
    expect(s.account.value).toBe('checking')
    expect(s.now.value).toBe(true)
    expect(s.speed.value).toBe('instant')
    flush()
    expect(out.textContent).toBe('250.5 from checking to DE89370400440532013000 (instant, now)')
    s.iban.value = ''
    flush()
    expect(iban.value).toBe('')
    await noViolations(win)
  })
})

describe('{ html: true, sanitize } with a Trusted Types policy', () => {
  it('renders a TrustedHTML from the policy, and "already shown" compares it like a string', async () => {
    const { win, doc } = await openCspFrame()
    const { Signal, flush } = win.eddy
    const policy = htmlPolicy(win)
    const memo = doc.createElement('div')
    doc.body.append(memo)
    const note = new Signal('Rent <b>May</b> <img src=x onerror=alert(1)>')
    let sanitized = 0
    note.bind(memo, { html: true, sanitize: (html) => (sanitized++, policy.createHTML(html)) })
    flush()
    expect(memo.innerHTML).toBe('Rent <b>May</b> &lt;img src=x onerror=alert(1)&gt;')
    expect(memo.querySelector('img')).toBeNull()
    // The same HTML in other words (the sanitizer serializes as the browser does): nothing is written.
    expect(mutations(win, memo, () => { note.value = 'Rent <b>May</b> <img src=x onerror=alert(1)>' + ''; note.value = 'x'; note.value = 'Rent <b>May</b> <img src=x onerror=alert(1)>'; flush() })).toBe(0)
    note.value = 'Rent <em>June</em>'
    flush()
    expect(memo.innerHTML).toBe('Rent <em>June</em>')
    expect(sanitized).toBe(3)
    await noViolations(win)
  })

  it('a default policy lets a string-returning sanitizer through, with no violation', async () => {
    const { win, doc } = await openCspFrame()
    const { Signal, flush } = win.eddy
    const sinks: string[] = []
    // The app's default policy: it sees every string that reaches an HTML sink (here: eddy's innerHTML write).
    trustedTypesOf(win).createPolicy('default', {
      createHTML: (input, _type, sink) => (sinks.push(String(sink)), input.replace(/</g, '&lt;')),
    })
    const memo = doc.createElement('div')
    doc.body.append(memo)
    const note = new Signal('a <b>b</b>')
    note.bind(memo, { html: true, sanitize: (html) => html.replace(/<(?!\/?b>)/g, '&lt;') })
    flush()
    // The default policy ran on eddy's write (and escaped the <b> the app's own sanitizer kept).
    expect(sinks).toEqual(['Element innerHTML'])
    expect(memo.innerHTML).toBe('a &lt;b&gt;b&lt;/b&gt;')
    await noViolations(win)
  })
})

describe('render schedules and the scheduler under the policy', () => {
  it("configure: 'animationFrame' and a macrotask queue from @eddy/scheduler render, with no violation", async () => {
    const { win, doc } = await openCspFrame()
    const { Signal, configure, settled } = win.eddy
    const el = doc.createElement('p')
    doc.body.append(el)
    const s = new Signal('a')
    s.bind(el)
    configure({ schedule: 'animationFrame' })
    s.value = 'frame'
    await settled()
    expect(el.textContent).toBe('frame')
    const renders = win.sched.createQueue()
    configure({ schedule: (flush) => renders.macrotask(flush) })
    s.value = 'macrotask'
    expect(el.textContent).toBe('frame')
    await settled()
    expect(el.textContent).toBe('macrotask')
    configure({ schedule: 'microtask' })
    await noViolations(win)
  })

  it('every strategy (postTask, messageChannel, postMessage, setTimeout) runs its queue, in order, with no violation', async () => {
    const { win } = await openCspFrame()
    const { createQueue, strategy } = win.sched
    expect(strategy).toBe('postTask')
    for (const name of ['postTask', 'messageChannel', 'postMessage', 'setTimeout'] as const) {
      const q = createQueue({ strategy: name })
      expect(q.strategy).toBe(name)
      const ran: number[] = []
      await new Promise<void>((done) => {
        for (let i = 0; i < 20; i++) q.macrotask(() => ran.push(i))
        q.macrotask(done)
      })
      expect(ran).toEqual([...Array(20).keys()])
    }
    await noViolations(win)
  })

  it('macrotask, microtask, yieldToMain, loop() and probeTurnRate work, with no violation', async () => {
    const { win } = await openCspFrame()
    const { macrotask, microtask, yieldToMain, loop, probeTurnRate } = win.sched
    const order: string[] = []
    macrotask(() => order.push('macro'))
    microtask(() => order.push('micro'))
    await yieldToMain()
    await yieldToMain()
    expect(order).toEqual(['micro', 'macro'])
    // A loop of 2,000 steps of ~0.05 ms with a 5 ms budget: a timer set as it starts fires before it ends.
    let steps = 0
    let timerAtStep = -1
    win.setTimeout(() => (timerAtStep = steps), 1)
    const l = loop(() => {
      const t = win.performance.now()
      while (win.performance.now() - t < 0.05);
      return ++steps < 2000
    }, { budgetMs: 5 })
    expect(await l.done).toBe(2000)
    expect(steps).toBe(2000)
    expect(timerAtStep).toBeGreaterThan(0)
    expect(timerAtStep).toBeLessThan(2000)
    const rates = await probeTurnRate({ durationMs: 20 })
    expect(rates).toBeGreaterThan(0)
    await noViolations(win)
  })

  it('monitor(): a 300 ms stall reads as lag and pressure, turnsPerSecond is probed, with no violation', async () => {
    const { win } = await openCspFrame()
    const m = win.sched.monitor()
    const events: string[] = []
    m.on('pressure', () => events.push('pressure'))
    void m.turnsPerSecond
    await tick(win, 200)
    const t = win.performance.now()
    while (win.performance.now() - t < 300);
    for (let i = 0; i < 40 && !events.length; i++) await tick(win, 50)
    expect(m.lag.max).toBeGreaterThanOrEqual(150)
    expect(m.underPressure).toBe(true)
    expect(events).toEqual(['pressure'])
    expect(m.turnsPerSecond).toBeGreaterThan(0)
    m.stop()
    await noViolations(win)
  })
})
