/** The "Five ways to loop" card: buttons, run time, status, and the results table. */
import { Signal } from '@eddy/signal'
import { LOOP_NAMES, RUNNERS, type LoopId } from './loops.ts'
import { readGapWindow, startGapWindow } from './llama.ts'
import { afterPaint, busy, LEAD_MS, setBusy } from './state.ts'
import { unitsPerSecond, WORK_ROUNDS } from './work.ts'
import { group, plain } from './format.ts'

const ORDER: LoopId[] = ['blocking', 'nonblocking', 'microtask', 'cooperative', 'worker']

/** One results row: its cells are bound to these signals. */
interface Row {
  work: Signal<string>
  gap: Signal<string>
  perSecond: number
  bar: HTMLElement
}

export function setupLoops(root: HTMLElement): void {
  const input = root.querySelector<HTMLInputElement>('#run-seconds')!
  const statusEl = root.querySelector<HTMLElement>('#loop-status')!
  const tbody = root.querySelector<HTMLTableSectionElement>('#loop-results tbody')!
  const empty = root.querySelector<HTMLElement>('#loop-empty')!
  root.querySelector('#work-rounds')!.textContent = String(WORK_ROUNDS)

  const runSeconds = new Signal(3)
  const status = new Signal('Idle')
  status.bind(statusEl)
  input.addEventListener('input', () => {
    const v = input.valueAsNumber
    if (Number.isFinite(v)) runSeconds.value = Math.min(10, Math.max(0.5, v))
  })

  const rows = new Map<LoopId, Row>()

  const rowFor = (id: LoopId): Row => {
    let row = rows.get(id)
    if (row) return row
    const tr = document.createElement('tr')
    tr.dataset.loop = id
    const name = document.createElement('th')
    name.scope = 'row'
    name.textContent = LOOP_NAMES[id]
    const work = document.createElement('td')
    work.dataset.col = 'work'
    work.className = 'num'
    const gap = document.createElement('td')
    gap.dataset.col = 'gap'
    gap.className = 'num'
    const barCell = document.createElement('td')
    barCell.className = 'bar-col'
    const track = document.createElement('span')
    track.className = 'bar-track'
    const bar = document.createElement('span')
    bar.className = `bar bar-${id}`
    track.append(bar)
    barCell.append(track)
    tr.append(name, work, gap, barCell)
    // Keep the rows in button order, whatever order the loops ran in.
    const next = ORDER.slice(ORDER.indexOf(id) + 1).map((later) => tbody.querySelector(`tr[data-loop="${later}"]`)).find(Boolean)
    tbody.insertBefore(tr, next ?? null)
    row = { work: new Signal(''), gap: new Signal(''), perSecond: 0, bar }
    row.work.bind(work)
    row.gap.bind(gap)
    rows.set(id, row)
    empty.hidden = true
    return row
  }

  const showBars = () => {
    let max = 1
    for (const row of rows.values()) max = Math.max(max, row.perSecond)
    for (const row of rows.values()) row.bar.style.width = `${Math.max(1, (row.perSecond / max) * 100).toFixed(1)}%`
  }

  const run = async (id: LoopId) => {
    if (busy.value) return
    const name = LOOP_NAMES[id]
    const ms = runSeconds.value * 1000
    setBusy(name)
    status.value = `Running: ${name}`
    // Show "Running" before a blocking loop takes the thread away from rendering.
    await afterPaint(LEAD_MS)
    startGapWindow()
    try {
      const result = await RUNNERS[id](ms)
      const gap = Math.round(await readGapWindow())
      const perSecond = unitsPerSecond(result)
      const row = rowFor(id)
      row.perSecond = perSecond
      row.work.value = plain(perSecond)
      row.gap.value = plain(gap)
      showBars()
      status.value = `${name}: ${group(perSecond)} work units per second for ${(result.ms / 1000).toFixed(1)} s; longest frame gap ${group(gap)} ms.`
    } catch (error) {
      status.value = `${name} failed: ${error instanceof Error ? error.message : String(error)}`
    } finally {
      setBusy('')
    }
  }

  for (const button of root.querySelectorAll<HTMLButtonElement>('.loop-btn')) {
    const id = button.dataset.loop as LoopId
    button.addEventListener('click', () => void run(id))
  }
}
