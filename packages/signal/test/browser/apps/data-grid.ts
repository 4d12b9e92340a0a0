// A big data grid with live updates, written the way the two READMEs teach: 20,000 records, each with Signals
// (price, qty) and computeds (total, hot); each visible row binds four cells and a class with .bind(). Rows are
// rendered in chunks with loop() (or, for comparison, in one blocking run); a filter-as-you-type input (model-bound)
// re-filters with yieldToMain() between chunks of the scan and stops the stale run with loop().stop(); a sort
// toggle; a live feed of thousands of updates a second through a createQueue() macrotask per message, written in
// batch(); a monitor() that sheds the feed while under pressure and applies what was held back on relief.
import { Signal, batch, computed, effect, untracked, type Binding, type Computed } from '@eddy/signal'
import { createQueue, loop, yieldToMain, type Loop, type Monitor } from '@eddy/scheduler'
import { rng } from '../dom.ts'

export const ADJ = ['red', 'green', 'blue', 'amber', 'violet', 'ochre', 'teal']
export const NOUN = ['apple', 'pear', 'plum', 'grape', 'lime', 'kiwi', 'fig', 'date', 'melon', 'peach', 'quince']

export interface Rec {
  id: number
  name: string
  price: Signal<number>
  qty: Signal<number>
  total: Computed<number>
  hot: Computed<boolean>
}

export const money = (v: number): string => v.toFixed(2)
export const HOT = 1000

export function makeRecords(n: number, seed = 1): Rec[] {
  const random = rng(seed)
  return Array.from({ length: n }, (_, id) => {
    const price = new Signal(Math.round(random() * 10_000) / 100)
    const qty = new Signal(1 + Math.floor(random() * 20))
    const total = computed(() => price.value * qty.value)
    const hot = computed(() => total.value > HOT)
    return { id, name: `${ADJ[id % ADJ.length]} ${NOUN[(id * 3) % NOUN.length]} #${id}`, price, qty, total, hot }
  })
}

export const matches = (r: Rec, q: string): boolean => r.name.includes(q.trim().toLowerCase())
export type Dir = 'none' | 'asc' | 'desc'
export function sortRecs(list: Rec[], dir: Dir): Rec[] {
  if (dir === 'none') return list
  const s = dir === 'asc' ? 1 : -1
  return [...list].sort((a, b) => s * (a.price.peek() - b.price.peek()) || a.id - b.id)
}

export interface Row {
  rec: Rec
  tr: HTMLTableRowElement
  bindings: Binding[]
  disposed: boolean
}

export interface Stats {
  started: number
  completed: number
  stopped: number
  /** steps of a run started after its stop(): must stay 0 */
  staleSteps: number
  /** formats (so renders) called for a row already disposed: must stay 0 */
  disposedRenders: number
  liveBindings: number
  rowsCreated: number
  rowsDisposed: number
  renders: number
}

const SCAN_CHUNK = 1000
const BUILD_CHUNK = 50

export function mountGrid(root: HTMLElement, records: Rec[], opts: { mode?: 'loop' | 'blocking'; budgetMs?: number; onMount?: (root: HTMLElement) => void; onRow?: (rows: number) => void } = {}) {
  const mode = opts.mode ?? 'loop'
  root.innerHTML = `
    <input class="q" type="search" aria-label="filter">
    <button class="sort">sort</button> <button class="ping">ping</button>
    <output class="count"></output> <output class="status"></output>
    <div class="scroller"><table><thead><tr><th>id</th><th>name</th><th>price</th><th>qty</th><th>total</th></tr></thead><tbody></tbody></table></div>
    <style>
      .scroller { height: 400px; overflow: auto; contain: strict }
      .scroller tbody { display: block }
      .scroller tr { display: flex; content-visibility: auto; contain-intrinsic-size: auto 20px }
      .scroller td { flex: 1 }
    </style>`
  const $ = <E extends Element = HTMLElement>(s: string) => root.querySelector<E>(s)!
  const tbody = $('tbody')
  const tpl = document.createElement('tr')
  tpl.innerHTML = '<td class="id"></td><td class="name"></td><td class="price"></td><td class="qty"></td><td class="total"></td>'

  const stats: Stats = {
    started: 0, completed: 0, stopped: 0, staleSteps: 0, disposedRenders: 0, liveBindings: 0, rowsCreated: 0,
    rowsDisposed: 0, renders: 0,
  }
  const rows = new Map<number, Row>()
  const query = new Signal('')
  const sortDir = new Signal<Dir>('none')
  const visible = new Signal(0)
  const busy = new Signal(false)
  const app: Binding[] = [
    query.bind($('.q'), { model: 'input' }),
    visible.bind($('.count'), { format: (n) => `${n} rows` }),
    busy.bind($('.status'), { format: (b) => (b ? 'working…' : 'ready') }),
    busy.bind($('table'), { attr: 'aria-busy' }),
    sortDir.bind($('.sort'), { format: (d) => `sort: ${d}` }),
  ]
  $('.sort').onclick = () => {
    sortDir.value = sortDir.peek() === 'asc' ? 'desc' : 'asc'
  }

  function createRow(rec: Rec): Row {
    const tr = tpl.cloneNode(true) as HTMLTableRowElement
    const [id, name, price, qty, total] = tr.children as unknown as HTMLElement[]
    id!.textContent = String(rec.id)
    name!.textContent = rec.name
    tr.dataset.id = String(rec.id)
    const row: Row = { rec, tr, bindings: [], disposed: false }
    // Each format counts its call: a format runs only when its binding renders, so a call for a disposed row is
    // a render of a disposed row.
    const seen = <T, R>(f: (v: T) => R) => (v: T): R => {
      stats.renders++
      if (row.disposed) stats.disposedRenders++
      return f(v)
    }
    row.bindings.push(
      rec.price.bind(price!, { format: seen(money) }),
      rec.qty.bind(qty!, { format: seen(String) }),
      rec.total.bind(total!, { format: seen(money) }),
      rec.hot.bind(tr, { class: 'hot', format: seen((h: boolean) => h) }),
    )
    stats.liveBindings += row.bindings.length
    stats.rowsCreated++
    rows.set(rec.id, row)
    return row
  }
  const disposed: WeakRef<HTMLTableRowElement>[] = []
  function disposeRow(row: Row) {
    for (const b of row.bindings) b.dispose()
    stats.liveBindings -= row.bindings.length
    row.disposed = true
    row.tr.remove()
    rows.delete(row.rec.id)
    stats.rowsDisposed++
    disposed.push(new WeakRef(row.tr))
  }
  // Puts the rows of `ordered` in that order, moving only the ones out of place.
  function placeInOrder(ordered: Rec[]) {
    let at = tbody.firstChild
    for (const rec of ordered) {
      const tr = rows.get(rec.id)!.tr
      if (tr === at) at = at.nextSibling
      else tbody.insertBefore(tr, at)
    }
  }

  interface Run {
    id: number
    q: string
    dir: Dir
    stopped: boolean
    finished?: boolean
    loop?: Loop
    done: Promise<unknown>
    stop(): void
    ordered?: Rec[]
  }
  let seq = 0
  let current: Run | undefined
  const runs: Run[] = []

  function startRun(q: string, dir: Dir): Run {
    stats.started++
    busy.value = true
    const run = { id: ++seq, q, dir, stopped: false } as Run
    const matched: Rec[] = []
    let ordered: Rec[] = []
    let i = 0
    let b = 0
    let phase: 'scan' | 'dispose' | 'build' | 'order' = 'scan'
    const step = (): unknown => {
      if (run.stopped) stats.staleSteps++
      if (phase === 'scan') {
        const end = Math.min(i + SCAN_CHUNK, records.length)
        for (; i < end; i++) if (matches(records[i]!, q)) matched.push(records[i]!)
        if (i < records.length) return mode === 'loop' ? yieldToMain().then(() => true) : true
        run.ordered = ordered = sortRecs(matched, dir)
        phase = 'dispose'
        return true
      }
      if (phase === 'dispose') {
        const keep = new Set(ordered.map((r) => r.id))
        for (const row of [...rows.values()]) if (!keep.has(row.rec.id)) disposeRow(row)
        phase = 'build'
        return true
      }
      if (phase === 'build') {
        const end = Math.min(b + BUILD_CHUNK, ordered.length)
        for (; b < end; b++) if (!rows.has(ordered[b]!.id)) tbody.appendChild(createRow(ordered[b]!).tr), opts.onRow?.(rows.size)
        if (b >= ordered.length) phase = 'order'
        return true
      }
      placeInOrder(ordered)
      batch(() => {
        visible.value = ordered.length
        busy.value = false
      })
      stats.completed++
      run.finished = true
      return false
    }
    if (mode === 'loop') {
      const l = (run.loop = loop(step, { budgetMs: opts.budgetMs ?? 5 }))
      run.done = l.done
    } else {
      while (step() !== false);
      run.done = Promise.resolve()
    }
    run.stop = () => {
      if (run.stopped || run.finished) return
      run.stopped = true
      stats.stopped++
      run.loop?.stop()
    }
    runs.push(run)
    return run
  }

  opts.onMount?.(root)
  // Each keystroke (or sort toggle) stops the stale run and starts a new one.
  const stopFilter = effect(() => {
    const q = query.value
    const dir = sortDir.value
    untracked(() => {
      current?.stop()
      current = startRun(q, dir)
    })
  })

  /** Resolves once the current run completed (runs started meanwhile too). */
  async function idle(): Promise<void> {
    for (let r: Run | undefined; r !== current; ) await (r = current)!.done
  }

  function destroy() {
    current?.stop()
    stopFilter()
    for (const row of [...rows.values()]) disposeRow(row)
    app.forEach((b) => b.dispose())
  }

  return {
    $, tbody, rows, stats, query, sortDir, runs, disposed, destroy, idle,
    get current() { return current! },
    visibleIds: () => [...tbody.children].map((tr) => Number((tr as HTMLElement).dataset.id)),
  }
}
export type Grid = ReturnType<typeof mountGrid>

export interface Update {
  seq: number
  id: number
  price: number
  qty: number
}

/**
 * A live feed: a producer on a 4 ms timer makes `rate` updates a second at random records, each delivered as a
 * macrotask of its own queue (as a socket's messages would be), applied in a batch. With a monitor: while
 * `underPressure`, an update is held back (the latest per record) instead of applied; on 'relief', what was held
 * back is applied in one batch.
 */
export function startFeed(
  records: Rec[],
  opts: {
    rate: number
    seed?: number
    monitor?: Monitor
    maxPerTick?: number
    /** what holds updates back: `m.underPressure` itself (default), or a flag set by the pressure and relief listeners */
    gate?: 'underPressure' | 'listeners'
  },
) {
  const random = rng(opts.seed ?? 7)
  const q = createQueue()
  /** the latest update made for each record, in the order made: what the grid must end up showing */
  const latest = new Map<number, Update>()
  const held = new Map<number, Update>()
  const stats = { produced: 0, delivered: 0, applied: 0, held: 0, releases: 0, released: 0, appliedWhileHeld: 0, staleOverwrites: 0 }
  const m = opts.monitor
  // the seq of the update each record shows
  const shown = new Map<number, number>()
  let shedding = false
  const offPressure = m?.on('pressure', () => (shedding = true))
  let timer: any
  let stopped = false
  const t0 = performance.now()
  const apply = (u: Update) => {
    if ((shown.get(u.id) ?? -1) > u.seq) stats.staleOverwrites++
    shown.set(u.id, u.seq)
    const r = records[u.id]!
    batch(() => {
      r.price.value = u.price
      r.qty.value = u.qty
    })
  }
  const deliver = (u: Update) => {
    stats.delivered++
    if (opts.gate === 'listeners' ? shedding : m?.underPressure) {
      held.set(u.id, u)
      stats.held++
      return
    }
    if (held.size) stats.appliedWhileHeld++
    apply(u)
    stats.applied++
  }
  const offRelief = m?.on('relief', () => {
    shedding = false
    stats.releases++
    batch(() => {
      for (const u of held.values()) apply(u), stats.released++
    })
    held.clear()
  })
  const produce = () => {
    if (stopped) return
    const due = Math.min(Math.floor(((performance.now() - t0) * opts.rate) / 1000) - stats.produced, opts.maxPerTick ?? 200)
    for (let k = 0; k < due; k++) {
      const u: Update = {
        seq: stats.produced,
        id: Math.floor(random() * records.length),
        price: Math.round(random() * 10_000) / 100,
        qty: 1 + Math.floor(random() * 20),
      }
      stats.produced++
      latest.set(u.id, u)
      q.macrotask(() => deliver(u))
    }
    timer = setTimeout(produce, 4)
  }
  produce()
  return {
    stats, latest, held,
    /** Stops producing; resolves once every update produced was delivered. */
    async stop() {
      stopped = true
      clearTimeout(timer)
      while (stats.delivered < stats.produced) await new Promise<void>((r) => q.macrotask(r))
    },
    off() {
      offRelief?.()
      offPressure?.()
    },
  }
}
