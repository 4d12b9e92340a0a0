// A fake-timers user trial's small app: a debounced search box, a loop()-driven progress bar and a monitor() pressure banner,
// written against the public API only. Tests import this module, statically (eddy then loads with the real timers)
// or dynamically after vi.useFakeTimers() (eddy then captures the fakes).
import { Signal, computed, effect, settled, flush, configure } from '@eddy/signal'
import { loop, macrotask, monitor, yieldToMain, createQueue, strategy } from '@eddy/scheduler'

export { settled, flush, configure, macrotask, yieldToMain, createQueue, strategy, Signal, loop, monitor }

/** A search box: the query follows the field (model), a search runs 300 ms after the last keystroke. */
export function searchBox(root: HTMLElement, search: (q: string) => Promise<string[]>, delayMs = 300) {
  root.innerHTML = '<input id="q"><p id="status"></p><ul id="results"></ul>'
  const input = root.querySelector('input')!
  const query = new Signal('')
  const results = new Signal<string[]>([])
  const status = new Signal('idle')
  query.bind(input, { model: 'input' })
  status.bind(root.querySelector('#status')!)
  computed(() => results.value.join(', ')).bind(root.querySelector('#results')!)
  const stop = effect(() => {
    const q = query.value.trim()
    if (!q) return void ((results.value = []), (status.value = 'idle'))
    status.value = 'typing'
    let live = true
    const id = setTimeout(() => {
      status.value = 'loading'
      search(q).then((r) => {
        if (!live) return
        results.value = r
        status.value = `${r.length} results for ${q}`
      })
    }, delayMs)
    return () => ((live = false), clearTimeout(id))
  })
  return { input, query, results, status, stop }
}

/** A progress bar driven by a cooperative loop: `total` units of work, each `unit()`. */
export function progressBar(root: HTMLElement, total: number, unit: () => void, budgetMs = 5) {
  root.innerHTML = '<div id="bar" role="progressbar"></div><span id="pct"></span>'
  const done = new Signal(0)
  const bar = root.querySelector('#bar') as HTMLElement
  done.bind(bar, { attr: 'aria-valuenow' })
  done.bind(root.querySelector('#pct')!, { format: (v) => `${Math.floor((v / total) * 100)}%` })
  // Count renders as a user would: a MutationObserver on the label.
  const l = loop(() => {
    unit()
    done.value++
    return done.value < total
  }, { budgetMs })
  return { done, loop: l, bar }
}

/** A banner shown while the event loop is under pressure. */
export function pressureBanner(root: HTMLElement, options: { maxLagMs?: number } = {}) {
  root.innerHTML = '<div id="banner" hidden>The page is busy</div>'
  const busy = new Signal(false)
  busy.bind(root.querySelector('#banner')!, { attr: 'hidden', format: (b) => !b })
  const m = monitor(options)
  m.on('pressure', () => (busy.value = true))
  m.on('relief', () => (busy.value = false))
  return { m, busy, banner: root.querySelector('#banner') as HTMLElement }
}
