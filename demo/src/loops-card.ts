/** The "Five ways to loop" card: buttons, run time, status, and the results table. */
import { createQueue, strategy as defaultStrategy, type Queue, type Strategy } from '@eddy/scheduler'
import { computed, effect, Signal } from '@eddy/signal'
import { LOOP_NAMES, RUNNERS, type LoopId } from './loops.ts'
import { readGapWindow, startGapWindow } from './llama.ts'
import { afterPaint, busy, keepFocus, LEAD_MS } from './state.ts'
import { unitsPerSecond, WORK_ROUNDS } from './work.ts'
import { group } from './format.ts'

const ORDER: LoopId[] = ['blocking', 'nonblocking', 'microtask', 'cooperative', 'worker']
const MIN_SECONDS = 0.5
const MAX_SECONDS = 10
/** Host primitives the non-blocking loop can yield with, fastest first (seed 001); those missing here are skipped. */
const STRATEGIES: Strategy[] = ['postTask', 'messageChannel', 'postMessage', 'setTimeout']
/** A run's length for the page: seconds, one decimal (the status line and the table say the same). */
const seconds = (ms: number) => (ms / 1000).toFixed(1)

/** What one run of a loop measured. */
interface LoopResult {
  perSecond: number
  /** How long the run took, in ms: a blocking loop's longest frame gap is about all of it. */
  runMs: number
  /** Longest gap between two frames, in ms; NaN when the tab was hidden during the run (no frames to measure). */
  gapMs: number
  /** How it yielded, when that is a choice (the non-blocking loop's macrotask primitive). */
  via?: string
}

export function setupLoops(root: HTMLElement): void {
  const $ = <E extends HTMLElement>(selector: string) => root.querySelector<E>(selector)!
  const tbody = $<HTMLTableSectionElement>('#loop-results tbody')
  new Signal(WORK_ROUNDS).bind($('#work-rounds'))

  // The input's text, two-way; the run time is derived from it, clamped to the input's own bounds.
  const runSecondsText = new Signal('3')
  const input = $<HTMLInputElement>('#run-seconds')
  runSecondsText.bind(input, { model: 'input' })
  const runSeconds = computed(() => {
    const v = Number.parseFloat(runSecondsText.value)
    return Number.isFinite(v) ? Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, v)) : 3
  })
  // Once the user is done typing (blur, Enter), the input shows the run time it will use: 0.1 reads 0.5.
  input.addEventListener('change', () => (runSecondsText.value = String(runSeconds.value)))
  // step="any" (so 1.2 is valid) makes the arrow keys step by 1, and 0.5 unreachable from 1: they step by 0.5 here.
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return
    e.preventDefault()
    const half = e.key === 'ArrowUp' ? Math.floor(runSeconds.peek() * 2) + 1 : Math.ceil(runSeconds.peek() * 2) - 1
    runSecondsText.value = String(Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, half / 2)))
  })

  // The non-blocking loop's macrotask primitive: one batched queue per primitive available on this host.
  const queues = new Map<Strategy, Queue>()
  for (const s of STRATEGIES) {
    try {
      queues.set(s, createQueue({ strategy: s }))
    } catch {
      // Not available on this host (e.g. scheduler.postTask outside Chromium).
    }
  }
  const select = $<HTMLSelectElement>('#nonblocking-via')
  for (const s of queues.keys()) {
    select.append(new Option(s === defaultStrategy ? `${s} (default)` : s, s))
  }
  const via = new Signal<string>(queues.has(defaultStrategy) ? defaultStrategy : [...queues.keys()][0]!)
  via.bind(select, { model: 'change' })

  const status = new Signal('Idle')
  status.bind($('#loop-status'))
  /** The loop running now, or '': its row, from an earlier run, is marked as being run again. */
  const running = new Signal<LoopId | ''>('')

  // The latest result of each loop that has run; the table is a view of it.
  const results = new Signal<Partial<Record<LoopId, LoopResult>>>({})
  const fastest = computed(() => Math.max(1, ...Object.values(results.value).map((r) => r.perSecond)))
  computed(() => Object.keys(results.value).length > 0).bind($('#loop-empty'), 'hidden')

  // A row appears the first time its loop reports; its cells stay bound to the results from then on.
  const rows = new Set<LoopId>()
  effect(() => {
    for (const id of ORDER) if (results.value[id] && !rows.has(id)) addRow(id)
  })

  function addRow(id: LoopId): void {
    rows.add(id)
    const result = computed(() => results.value[id]!)
    const tr = document.createElement('tr')
    tr.dataset.loop = id
    const name = document.createElement('th')
    name.scope = 'row'
    name.textContent = LOOP_NAMES[id]
    if (id === 'nonblocking') {
      const tag = document.createElement('small')
      tag.className = 'via'
      computed(() => result.value.via ?? '').bind(tag)
      name.append(' ', tag)
    }
    const cell = (col: string) => {
      const td = document.createElement('td')
      td.dataset.col = col
      td.className = 'num'
      return td
    }
    const length = cell('run')
    const work = cell('work')
    const gap = cell('gap')
    const barCell = document.createElement('td')
    barCell.className = 'bar-col'
    const track = document.createElement('span')
    track.className = 'bar-track'
    const bar = document.createElement('span')
    bar.className = `bar bar-${id}`
    track.append(bar)
    // The bar in words, for screen readers (the column was a row of empty cells).
    const share = computed(() => result.value.perSecond / fastest.value)
    const said = document.createElement('span')
    said.className = 'visually-hidden'
    // Never "0%" next to a bar that shows (1% at least).
    computed(() => (share.value < 0.005 ? 'under 1% of the fastest' : `${Math.round(share.value * 100)}% of the fastest`)).bind(said)
    barCell.append(track, said)
    tr.append(name, length, work, gap, barCell)
    // Run again, the row still shows the last run's figures until the new ones come: greyed and busy meanwhile.
    const again = computed(() => running.value === id)
    again.bind(tr, { class: 'rerun' })
    again.bind(tr, { attr: 'aria-busy' })
    computed(() => seconds(result.value.runMs)).bind(length)
    computed(() => group(result.value.perSecond)).bind(work)
    computed(() => (Number.isNaN(result.value.gapMs) ? '—' : group(result.value.gapMs))).bind(gap)
    share.bind(bar, {
      style: 'width',
      format: (share) => `${Math.max(1, share * 100).toFixed(1)}%`,
    })
    // Rows stay in button order, whatever order the loops ran in.
    const next = ORDER.slice(ORDER.indexOf(id) + 1)
      .map((later) => tbody.querySelector(`tr[data-loop="${later}"]`))
      .find(Boolean)
    tbody.insertBefore(tr, next ?? null)
  }

  // In one column (a phone), the llama is above this card: at 360x740, the whole llama and the Microtask, Cooperative
  // or Worker button did not fit on one screen, and a run was started out of sight of what it is about. The llama is
  // scrolled into view when a run starts, if it is not whole on screen (side by side, it is left alone).
  const scene = document.querySelector<HTMLElement>('.scene-box')!
  const showLlama = () => {
    const box = scene.getBoundingClientRect()
    const below = root.getBoundingClientRect().top >= scene.closest('section')!.getBoundingClientRect().bottom
    if (below && (box.top < 0 || box.bottom > innerHeight)) scene.scrollIntoView({ block: 'nearest' })
  }

  const run = async (id: LoopId, button: HTMLButtonElement) => {
    if (busy.peek()) return
    const refocus = keepFocus(button)
    const name = LOOP_NAMES[id]
    const ms = runSeconds.peek() * 1000
    const strategy = via.peek() as Strategy
    const post = queues.get(strategy)?.macrotask
    busy.value = name
    running.value = id
    status.value = `Running: ${name}`
    showLlama()
    // Show "Running" (and the disabled buttons) before a blocking loop takes the thread away from rendering.
    await afterPaint(LEAD_MS)
    startGapWindow()
    try {
      const measured = await RUNNERS[id](ms, post)
      const gapMs = Math.round(await readGapWindow())
      const perSecond = unitsPerSecond(measured)
      const yielded = id === 'nonblocking' ? strategy : undefined
      results.value = { ...results.peek(), [id]: { perSecond, runMs: measured.ms, gapMs, via: yielded } }
      status.value =
        `${name}: ${group(perSecond)} work units per second for ${seconds(measured.ms)} s; ` +
        (Number.isNaN(gapMs) ? 'no frame gap: the tab was hidden during the run' : `longest frame gap ${group(gapMs)} ms`) +
        (yielded ? ` (one unit per ${yielded} turn).` : '.')
    } catch (error) {
      status.value = `${name} failed: ${error instanceof Error ? error.message : String(error)}`
    } finally {
      busy.value = ''
      running.value = ''
      refocus()
    }
  }

  for (const button of root.querySelectorAll<HTMLButtonElement>('.loop-btn')) {
    const id = button.dataset.loop as LoopId
    button.addEventListener('click', () => void run(id, button))
  }
}
