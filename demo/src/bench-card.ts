/** The million-update benchmark card: controls, running indicator, results table, ratio bars. */
import { computed, effect, Signal } from '@eddy/signal'
import { BenchTargets, describe, shownMs, writesPerMs, type BenchMode, type BenchResult } from './bench.ts'
import { afterPaint, busy, keepFocus, LEAD_MS } from './state.ts'
import { duration, group } from './format.ts'

const LABELS: Record<BenchMode, string> = { 'every-write': 'Render on every write', coalesced: 'Coalesced' }
const MODES: BenchMode[] = ['every-write', 'coalesced']
const DEFAULT_UPDATES = 1_000_000
const QUICK_UPDATES = 100_000
const MAX_UPDATES = 10_000_000
/** Two times both shorter than this (ms, as shown) are not compared. */
const COMPARE_MS = 1

export function setupBench(root: HTMLElement): void {
  const byId = <E extends HTMLElement>(id: string) => root.querySelector<E>(`#${id}`)!
  const tbody = root.querySelector<HTMLTableSectionElement>('#bench-results tbody')!
  const targets = new BenchTargets([byId('bench-p1'), byId('bench-p2'), byId('bench-p3')])

  // "Updates per signal": the input's text two-way, and the count derived from it, clamped to the input's own
  // bounds (as the run time is): a 0 runs 1 update, not the million-update default. Only a non-number falls back.
  const updatesText = new Signal(String(DEFAULT_UPDATES))
  const updatesInput = byId<HTMLInputElement>('updates')
  updatesText.bind(updatesInput, { model: 'input' })
  const updates = computed(() => {
    const v = Math.round(Number.parseFloat(updatesText.value))
    return Number.isFinite(v) ? Math.min(MAX_UPDATES, Math.max(1, v)) : DEFAULT_UPDATES
  })
  // Once the user is done typing (blur, Enter), the input shows the count it will run: 0 reads 1.
  updatesInput.addEventListener('change', () => (updatesText.value = String(updates.value)))
  byId('quick').addEventListener('click', () => (updatesText.value = String(QUICK_UPDATES)))

  const status = new Signal('Ready.')
  status.bind(byId('bench-status'))
  /** The mode running now (shown by the indicator), or ''. */
  const running = new Signal<BenchMode | ''>('')
  computed(() => running.value === '').bind(byId('bench-running'), 'hidden')
  computed(() => {
    const mode = running.value
    if (!mode) return ''
    const writes = group(3 * updates.value)
    return mode === 'every-write'
      ? `Running: ${LABELS[mode]}, ${writes} innerHTML writes. The page is blocked on purpose…`
      : `Running: ${LABELS[mode]}, ${writes} signal writes…`
  }).bind(byId('bench-running-text'))

  // The latest result of each mode, with the click that ran it; the table, the bars and the ratio are views of it.
  const latest = new Signal<Partial<Record<BenchMode, BenchResult & { click: number }>>>({})
  let clicks = 0
  const slowest = computed(() => Math.max(0.001, ...Object.values(latest.value).map((r) => r.ms)))
  /** The comparison of the two latest times: its words, and whether it says coalesced was faster (shown green). */
  const comparison = computed((): { text: string; faster: boolean } => {
    const none = (text: string) => ({ text, faster: false })
    const { 'every-write': every, coalesced } = latest.value
    if (!every || !coalesced) return none('—')
    if (every.n !== coalesced.n) return none('— (run both with the same N)')
    // The ratio of the times the table shows; none when one of them reads 0.0 ms (shorter than a clock tick).
    const [everyMs, coalescedMs] = [shownMs(every.ms), shownMs(coalesced.ms)]
    const x = everyMs / coalescedMs
    if (!x || x === Infinity) return none('— (too fast to time: raise N)')
    // Below COMPARE_MS each, a time is a few clock ticks plus whatever else the page was doing. Above it, a tiny run
    // can still be slower coalesced: 3 updates once read 0.1 ms against 2.6 ms, shown as "0.0x faster".
    if (everyMs < COMPARE_MS && coalescedMs < COMPARE_MS) return none('— (too fast to compare: raise N)')
    // Times of two clicks were measured apart: not side by side, and the coalesced one after the innerHTML garbage.
    const note = every.click === coalesced.click ? '' : ' (separate runs)'
    // A ratio below 1 is said the other way round ("26x slower", not "0.0x faster"); one that rounds to 1.0 either
    // way is neither.
    const times = (r: number) => (r >= 10 ? String(Math.round(r)) : r.toFixed(1))
    if (times(x) === '1.0' || times(1 / x) === '1.0') return none(`about as fast${note}`)
    return x > 1 ? { text: `${times(x)}x faster${note}`, faster: true } : none(`${times(1 / x)}x slower${note}`)
  })
  const ratio = computed(() => comparison.value.text)
  ratio.bind(byId('bench-ratio'))
  computed(() => comparison.value.faster).bind(byId('bench-ratio'), { class: 'faster' })

  const barIds: Record<BenchMode, string> = { 'every-write': 'every', coalesced: 'coalesced' }
  for (const mode of MODES) {
    const result = computed(() => latest.value[mode])
    computed(() => (result.value ? duration(result.value.ms) : '—')).bind(byId(`bar-${barIds[mode]}-ms`))
    computed(() => (result.value ? Math.max(0.5, (result.value.ms / slowest.value) * 100) : 0)).bind(
      byId(`bar-${barIds[mode]}`),
      { style: 'width', format: (pct) => `${pct}%` },
    )
  }

  // A row appears the first time its mode reports ("Render on every write" first).
  const rows = new Set<BenchMode>()
  effect(() => {
    for (const mode of MODES) if (latest.value[mode] && !rows.has(mode)) addRow(mode)
  })

  function addRow(mode: BenchMode): void {
    rows.add(mode)
    const result = computed(() => latest.value[mode])
    const tr = document.createElement('tr')
    tr.dataset.mode = mode
    // Hidden while its mode runs again: the old figures are not shown next to the new run's.
    computed(() => !result.value).bind(tr, 'hidden')
    const th = document.createElement('th')
    th.scope = 'row'
    tr.append(th)
    // The count on a line of its own where the column is narrow; broken only after the "×" (a no-break space before
    // it), and only on the narrowest phones, where 12 px type does not fit it whole.
    const count = document.createElement('small')
    count.className = 'via'
    th.append(LABELS[mode], ' ', count)
    computed(() => (result.value ? `(3\u00a0× ${group(result.value.n)})` : '')).bind(count)
    const cells: Array<[string, (r: BenchResult) => string]> = [
      ['ms', (r) => group(r.ms, 1)],
      ['per-ms', (r) => (writesPerMs(r) === undefined ? '—' : group(writesPerMs(r)!))],
      ['dom-writes', (r) => group(r.domWrites)],
    ]
    for (const [col, show] of cells) {
      const td = document.createElement('td')
      td.dataset.col = col
      td.className = 'num'
      tr.append(td)
      computed(() => (result.value ? show(result.value) : '')).bind(td)
    }
    if (mode === 'every-write') tbody.prepend(tr)
    else tbody.append(tr)
  }

  const runOne = async (mode: BenchMode): Promise<BenchResult> => {
    const n = updates.peek()
    running.value = mode
    status.value = `Running: ${LABELS[mode]}`
    // The indicator must be on screen before the (deliberately) blocking run takes the main thread.
    await afterPaint(LEAD_MS)
    const result = mode === 'every-write' ? targets.everyWrite(n) : await targets.coalesced(n)
    latest.value = { ...latest.peek(), [mode]: { ...result, click: clicks } }
    return result
  }

  const run = async (which: BenchMode | 'both', button: HTMLButtonElement) => {
    if (busy.peek()) return
    const refocus = keepFocus(button)
    const label = which === 'both' ? 'Run both' : LABELS[which]
    busy.value = label
    clicks++
    // The results this click replaces go now: a ratio must not pair a new time with the one it is replacing.
    const kept = { ...latest.peek() }
    for (const mode of which === 'both' ? MODES : [which]) delete kept[mode]
    latest.value = kept
    try {
      if (which === 'both') {
        // Coalesced first: 3N innerHTML writes leave millions of dead nodes behind, and the garbage collection they
        // owe would otherwise land in the (short) coalesced measurement.
        const b = await runOne('coalesced')
        const a = await runOne('every-write')
        const x = ratio.value
        status.value =
          `${describe(a, LABELS[a.mode])} ${describe(b, LABELS[b.mode])} ` +
          (x.startsWith('—') ? 'Too fast to compare: raise N.' : `Coalesced is ${x}.`)
      } else {
        const r = await runOne(which)
        status.value = describe(r, LABELS[r.mode])
      }
    } catch (error) {
      status.value = `${label} failed: ${error instanceof Error ? error.message : String(error)}`
    } finally {
      running.value = ''
      busy.value = ''
      refocus()
    }
  }

  for (const button of root.querySelectorAll<HTMLButtonElement>('.bench-btn')) {
    const mode = button.dataset.mode as BenchMode | 'both'
    button.addEventListener('click', () => void run(mode, button))
  }

  // The XSS note: a hostile value, rendered by an eddy binding, stays text.
  new Signal('<img src="x" onerror="alert(\'xss\')">').bind(byId('xss-demo'))
}
