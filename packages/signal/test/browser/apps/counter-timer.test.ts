// A counter and a stopwatch, as the README teaches: batch() for multi-signal updates, effect cleanups for
// intervals, configure({ schedule }) to render once per frame, settled() to wait for the DOM.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Signal, batch, computed, configure, effect, flush, settled, type Binding } from '@eddy/signal'
import { macrotask } from '@eddy/scheduler'
import { observe } from '../dom.ts'

function mountCounter(root: HTMLElement) {
  root.innerHTML = `
    <button class="dec">-</button><output class="count"></output><button class="inc">+</button>
    <label>step <input class="step" type="number" min="1"></label>
    <meter class="meter" min="0" max="10"></meter>
    <div class="bar" role="progressbar"></div>
    <button class="reset">reset</button>
    <p class="history"></p>`
  const $ = <E extends Element = HTMLElement>(s: string) => root.querySelector<E>(s)!
  const count = new Signal(0)
  const step = new Signal(1)
  const history = new Signal<number[]>([])
  const atMax = computed(() => count.value >= 10)
  const atMin = computed(() => count.value <= 0)
  const bindings: Binding[] = [
    count.bind($('.count')),
    step.bind($('.step'), { model: 'input' }),
    count.bind($('.meter'), 'value'),
    count.bind($('.bar'), { attr: 'aria-valuenow' }),
    count.bind($('.bar'), { style: 'width', format: (v) => `${v * 10}%` }),
    atMax.bind($('.inc'), 'disabled'),
    atMin.bind($('.dec'), 'disabled'),
    atMax.bind($('.count'), { class: 'max' }),
    history.bind($('.history'), { format: (h) => h.join(' → ') }),
  ]
  const set = (n: number) =>
    batch(() => {
      count.value = Math.min(10, Math.max(0, n))
      history.value = [...history.peek(), count.peek()].slice(-5)
    })
  $('.inc').addEventListener('click', () => set(count.peek() + step.peek()))
  $('.dec').addEventListener('click', () => set(count.peek() - step.peek()))
  $('.reset').addEventListener('click', () =>
    batch(() => {
      count.value = 0
      step.value = 1
      history.value = []
    }),
  )
  return { $, count, step, history, dispose: () => bindings.forEach((b) => b.dispose()) }
}

function mountStopwatch(root: HTMLElement, now: () => number) {
  root.innerHTML = `<time class="elapsed"></time><button class="toggle"></button><button class="lap">lap</button><ol class="laps"></ol>`
  const $ = <E extends Element = HTMLElement>(s: string) => root.querySelector<E>(s)!
  const running = new Signal(false)
  const startedAt = new Signal(0)
  const accumulated = new Signal(0)
  const tick = new Signal(0) // bumped by the interval; the clock itself is not reactive
  const laps = new Signal<number[]>([])
  const elapsed = computed(() => (tick.value, accumulated.value + (running.value ? now() - startedAt.value : 0)))
  const label = computed(() => {
    const ms = elapsed.value
    const s = Math.floor(ms / 1000)
    return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.${String(Math.floor((ms % 1000) / 100))}`
  })
  const bindings: Binding[] = [
    label.bind($('.elapsed')),
    elapsed.bind($('.elapsed'), { attr: 'datetime', format: (ms) => `PT${(ms / 1000).toFixed(1)}S` }),
    running.bind($('.toggle'), { format: (r) => (r ? 'stop' : 'start') }),
    running.bind($('.toggle'), { attr: 'aria-pressed', format: String }),
    computed(() => !running.value).bind($('.lap'), 'disabled'),
  ]
  // The interval lives exactly as long as `running` is true: started and cleared by the effect's cleanup.
  const stopTicking = effect(() => {
    if (!running.value) return
    const id = setInterval(() => tick.value++, 100)
    return () => clearInterval(id)
  })
  // Laps rendered by hand, appended one at a time (no rebuild).
  const stopLaps = effect(() => {
    const list = laps.value
    const ol = $('.laps')
    while (ol.children.length > list.length) ol.lastElementChild!.remove()
    for (let i = ol.children.length; i < list.length; i++) {
      const li = ol.appendChild(document.createElement('li'))
      li.textContent = `${(list[i]! / 1000).toFixed(1)} s`
    }
  })
  $('.toggle').addEventListener('click', () =>
    batch(() => {
      if (running.peek()) {
        accumulated.value += now() - startedAt.peek()
        running.value = false
      } else {
        startedAt.value = now()
        running.value = true
      }
    }),
  )
  $('.lap').addEventListener('click', () => (laps.value = [...laps.peek(), elapsed.peek()]))
  return {
    $,
    running,
    laps,
    dispose() {
      stopTicking()
      stopLaps()
      bindings.forEach((b) => b.dispose())
    },
  }
}

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  vi.useRealTimers()
  document.body.replaceChildren()
})

const nextFrame = () => new Promise<number>((r) => requestAnimationFrame(r))

describe('counter', () => {
  it('clicks update text, property, attribute, style, class, disabled and a formatted history', async () => {
    const app = mountCounter(document.body.appendChild(document.createElement('div')))
    await settled()
    expect(app.$('.count').textContent).toBe('0')
    expect(app.$<HTMLButtonElement>('.dec').disabled).toBe(true)
    expect(app.$<HTMLInputElement>('.step').value).toBe('1')
    app.$('.inc').click()
    app.$('.inc').click()
    await settled()
    expect(app.$('.count').textContent).toBe('2')
    expect(app.$<HTMLMeterElement>('.meter').value).toBe(2)
    expect(app.$('.bar').getAttribute('aria-valuenow')).toBe('2')
    expect(app.$('.bar').style.width).toBe('20%')
    expect(app.$<HTMLButtonElement>('.dec').disabled).toBe(false)
    expect(app.$('.history').textContent).toBe('1 → 2')

    const step = app.$<HTMLInputElement>('.step')
    step.value = '5'
    step.dispatchEvent(new Event('input', { bubbles: true }))
    expect(app.step.value).toBe(5)
    app.$('.inc').click()
    app.$('.inc').click() // clamped at 10
    await settled()
    expect(app.$('.count').textContent).toBe('10')
    expect(app.$('.count').classList.contains('max')).toBe(true)
    expect(app.$<HTMLButtonElement>('.inc').disabled).toBe(true)
    expect(app.$('.history').textContent).toBe('1 → 2 → 7 → 10')

    app.$('.reset').click()
    await settled()
    expect(app.$('.count').textContent).toBe('0')
    expect(step.value).toBe('1')
    expect(app.$('.history').textContent).toBe('')
    app.dispose()
  })

  it("with 'animationFrame', clicks in several tasks of one frame render once, with the last values", async () => {
    const app = mountCounter(document.body.appendChild(document.createElement('div')))
    await settled()
    configure({ schedule: 'animationFrame' })
    await nextFrame()
    const count = app.$('.count')
    const seen = observe(count)
    // three separate tasks (as three clicks would be), well inside one frame
    for (let i = 0; i < 3; i++) {
      app.$('.inc').click()
      await new Promise((r) => setTimeout(r, 0))
    }
    const textNow = count.textContent
    await settled()
    expect(count.textContent).toBe('3')
    const texts = seen.stop().filter((r) => r.type === 'childList' || r.type === 'characterData')
    // Expect one text write for the three clicks, unless a frame fell between the tasks.
    expect(textNow === '0' ? texts.length : 1).toBe(1)
    app.dispose()
  })

  it('with a macrotask schedule (@eddy/scheduler), a click renders after the microtasks, before settled() resolves', async () => {
    const app = mountCounter(document.body.appendChild(document.createElement('div')))
    await settled()
    configure({ schedule: (f) => macrotask(f) })
    app.$('.inc').click()
    await Promise.resolve()
    expect(app.$('.count').textContent).toBe('0')
    await settled()
    expect(app.$('.count').textContent).toBe('1')
    app.dispose()
  })

  it('1,000 clicks in one task: one DOM write per bound node', async () => {
    const app = mountCounter(document.body.appendChild(document.createElement('div')))
    app.step.value = 0
    await settled()
    const seen = observe(document.body)
    // step 0: the count never changes, the history does (a new array each click, as the user wrote it)
    for (let i = 0; i < 1000; i++) app.$('.inc').click()
    await settled()
    const records = seen.stop()
    expect(records.filter((r) => r.target === app.$('.history'))).toHaveLength(1)
    expect(app.$('.count').textContent).toBe('0')
    app.dispose()
  })
})

describe('stopwatch', () => {
  it('start, tick, lap, stop, resume: an interval only while running, laps appended by hand', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    const setI = vi.spyOn(globalThis, 'setInterval')
    const clearI = vi.spyOn(globalThis, 'clearInterval')
    const app = mountStopwatch(document.body.appendChild(document.createElement('div')), () => Date.now())
    await settled()
    const $ = app.$
    expect($('.elapsed').textContent).toBe('00:00.0')
    expect($('.toggle').textContent).toBe('start')
    expect($('.toggle').getAttribute('aria-pressed')).toBe('false')
    expect($<HTMLButtonElement>('.lap').disabled).toBe(true)
    expect(setI).not.toHaveBeenCalled()

    $('.toggle').click()
    expect(setI).toHaveBeenCalledTimes(1)
    await settled()
    expect($('.toggle').textContent).toBe('stop')
    expect($('.toggle').getAttribute('aria-pressed')).toBe('true')
    vi.advanceTimersByTime(1500)
    await settled()
    expect($('.elapsed').textContent).toBe('00:01.5')
    expect($('.elapsed').getAttribute('datetime')).toBe('PT1.5S')
    $<HTMLButtonElement>('.lap').click()
    vi.advanceTimersByTime(61_000)
    $<HTMLButtonElement>('.lap').click()
    await settled()
    expect([...$('.laps').children].map((li) => li.textContent)).toEqual(['1.5 s', '62.5 s'])
    expect($('.elapsed').textContent).toBe('01:02.5')

    $('.toggle').click()
    expect(clearI).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(5000)
    await settled()
    expect($('.elapsed').textContent).toBe('01:02.5')
    expect($<HTMLButtonElement>('.lap').disabled).toBe(true)
    $('.toggle').click()
    vi.advanceTimersByTime(500)
    await settled()
    expect($('.elapsed').textContent).toBe('01:03.0')
    app.dispose()
    expect(clearI).toHaveBeenCalledTimes(2) // dispose ran the cleanup
  })
})
