/** The million-update benchmark card: controls, running indicator, results table, ratio bars. */
import { Signal } from '@eddy/signal'
import { BenchTargets, describe, type BenchMode, type BenchResult } from './bench.ts'
import { afterPaint, busy, LEAD_MS, setBusy } from './state.ts'
import { duration, group, plain } from './format.ts'

const LABELS: Record<BenchMode, string> = { 'every-write': 'Render on every write', coalesced: 'Coalesced' }
const DEFAULT_UPDATES = 1_000_000
const QUICK_UPDATES = 100_000
const MAX_UPDATES = 10_000_000

interface Row {
  mode: Signal<string>
  ms: Signal<string>
  perMs: Signal<string>
  domWrites: Signal<string>
}

export function setupBench(root: HTMLElement): void {
  const byId = <E extends HTMLElement>(id: string) => root.querySelector<E>(`#${id}`)!
  const input = byId<HTMLInputElement>('updates')
  const tbody = root.querySelector<HTMLTableSectionElement>('#bench-results tbody')!
  const runningEl = byId('bench-running')
  const targets = new BenchTargets([byId('bench-p1'), byId('bench-p2'), byId('bench-p3')])

  const updates = new Signal(DEFAULT_UPDATES)
  const status = new Signal('Ready.')
  const runningText = new Signal('Running…')
  const ratio = new Signal('—')
  const everyMs = new Signal('—')
  const coalescedMs = new Signal('—')
  status.bind(byId('bench-status'))
  runningText.bind(byId('bench-running-text'))
  ratio.bind(byId('bench-ratio'))
  everyMs.bind(byId('bar-every-ms'))
  coalescedMs.bind(byId('bar-coalesced-ms'))

  const setUpdates = (v: number) => {
    if (!Number.isFinite(v)) return
    updates.value = Math.min(MAX_UPDATES, Math.max(1, Math.round(v)))
  }
  input.addEventListener('input', () => setUpdates(input.valueAsNumber))
  byId('quick').addEventListener('click', () => {
    input.value = String(QUICK_UPDATES)
    setUpdates(QUICK_UPDATES)
  })

  const latest: Partial<Record<BenchMode, BenchResult>> = {}
  const rows = new Map<BenchMode, Row>()

  const rowFor = (mode: BenchMode): Row => {
    let row = rows.get(mode)
    if (row) return row
    const tr = document.createElement('tr')
    tr.dataset.mode = mode
    const th = document.createElement('th')
    th.scope = 'row'
    const cell = (col: string) => {
      const td = document.createElement('td')
      td.dataset.col = col
      td.className = 'num'
      return td
    }
    const ms = cell('ms')
    const perMs = cell('per-ms')
    const domWrites = cell('dom-writes')
    tr.append(th, ms, perMs, domWrites)
    // "Render on every write" always comes first.
    if (mode === 'every-write') tbody.prepend(tr)
    else tbody.append(tr)
    row = { mode: new Signal(''), ms: new Signal(''), perMs: new Signal(''), domWrites: new Signal('') }
    row.mode.bind(th)
    row.ms.bind(ms)
    row.perMs.bind(perMs)
    row.domWrites.bind(domWrites)
    rows.set(mode, row)
    return row
  }

  const show = (r: BenchResult) => {
    latest[r.mode] = r
    const row = rowFor(r.mode)
    row.mode.value = `${LABELS[r.mode]} (3 × ${group(r.n)})`
    row.ms.value = plain(r.ms, 1)
    row.perMs.value = plain((3 * r.n) / Math.max(r.ms, 0.001), 0)
    row.domWrites.value = plain(r.domWrites)
    const every = latest['every-write']
    const coalesced = latest.coalesced
    everyMs.value = every ? duration(every.ms) : '—'
    coalescedMs.value = coalesced ? duration(coalesced.ms) : '—'
    const max = Math.max(every?.ms ?? 0, coalesced?.ms ?? 0, 0.001)
    byId('bar-every').style.width = every ? `${Math.max(0.5, (every.ms / max) * 100)}%` : '0'
    byId('bar-coalesced').style.width = coalesced ? `${Math.max(0.5, (coalesced.ms / max) * 100)}%` : '0'
    if (every && coalesced && every.n === coalesced.n) {
      const x = every.ms / Math.max(coalesced.ms, 0.001)
      ratio.value = `${x >= 10 ? Math.round(x) : x.toFixed(1)}x faster`
    } else if (every && coalesced) {
      ratio.value = '— (run both with the same N)'
    }
  }

  const runOne = async (mode: BenchMode): Promise<BenchResult> => {
    const n = updates.value
    runningText.value =
      mode === 'every-write'
        ? `Running: ${LABELS[mode]}, ${group(3 * n)} innerHTML writes. The page is blocked on purpose…`
        : `Running: ${LABELS[mode]}, ${group(3 * n)} signal writes…`
    runningEl.hidden = false
    status.value = `Running: ${LABELS[mode]}`
    // The indicator must be on screen before the (deliberately) blocking run takes the main thread.
    await afterPaint(LEAD_MS)
    const result = mode === 'every-write' ? targets.everyWrite(n) : await targets.coalesced(n)
    show(result)
    return result
  }

  const run = async (which: BenchMode | 'both') => {
    if (busy.value) return
    const label = which === 'both' ? 'Run both' : LABELS[which]
    setBusy(label)
    try {
      if (which === 'both') {
        const a = await runOne('every-write')
        const b = await runOne('coalesced')
        status.value = `${describe(a, LABELS[a.mode])} ${describe(b, LABELS[b.mode])} Coalesced is ${ratio.value}.`
      } else {
        const r = await runOne(which)
        status.value = describe(r, LABELS[r.mode])
      }
    } catch (error) {
      status.value = `${label} failed: ${error instanceof Error ? error.message : String(error)}`
    } finally {
      runningEl.hidden = true
      setBusy('')
    }
  }

  for (const button of root.querySelectorAll<HTMLButtonElement>('.bench-btn')) {
    const mode = button.dataset.mode as BenchMode | 'both'
    button.addEventListener('click', () => void run(mode))
  }

  // The XSS note: a hostile value, rendered by an eddy binding, stays text.
  new Signal('<img src="x" onerror="alert(\'xss\')">').bind(byId('xss-demo'))
}
