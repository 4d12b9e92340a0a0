// The big data grid trial (see data-grid.ts): 20,000 rows rendered in loop() chunks, compared side by side with a
// blocking render; filter-as-you-type with stale runs stopped; a sort toggle; a live feed with load shedding; rows
// disposed when filtered out or torn down, checked with subscriber counts and WeakRef + gc.
// Only counts, orders and ratios are asserted: never an absolute time.
import { describe, expect, it } from 'vitest'
import { cdp } from 'vitest/browser'
import { Signal, batch, flush, settled } from '@eddy/signal'
import { createQueue, loop, macrotask, yieldToMain } from '@eddy/scheduler'
import { commit, observe, sandbox, subscribers } from '../dom.ts'
import { collectUntil } from '../../../../../scripts/gc.ts'
import { retainerPath } from '../heap.ts'
import { HOT, makeRecords, matches, money, mountGrid, sortRecs, startFeed, type Grid, type Rec } from './data-grid.ts'

const N = 20_000
const box = sandbox()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
const key = (type: 'keyDown' | 'keyUp') =>
  cdp().send('Input.dispatchKeyEvent', { type, key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, ...(type === 'keyDown' ? { text: '\r' } : {}) })

/** Every row of the grid shows its record's current values; returns the mismatches. */
function mismatches(g: Grid, records: Rec[]): string[] {
  const bad: string[] = []
  for (const tr of g.tbody.children as unknown as HTMLTableRowElement[]) {
    const r = records[Number(tr.dataset.id)]!
    const [, , price, qty, total] = tr.children as unknown as HTMLElement[]
    const p = r.price.peek()
    const q = r.qty.peek()
    const want = [money(p), String(q), money(p * q), String(p * q > HOT)]
    const got = [price!.textContent, qty!.textContent, total!.textContent, String(tr.classList.contains('hot'))]
    if (want.join() !== got.join()) bad.push(`#${r.id}: ${got} != ${want}`)
  }
  return bad
}

/** What a filter and sort should show, by id. */
const expectedIds = (records: Rec[], q: string, dir: 'none' | 'asc' | 'desc') =>
  sortRecs(records.filter((r) => matches(r, q)), dir).map((r) => r.id)

/** Subscribers of each record's nodes against what a shown (or not shown) row holds. */
function leakCheck(g: Grid, records: Rec[]): string[] {
  const bad: string[] = []
  for (const r of records) {
    const shown = g.rows.has(r.id)
    // price: its binding + total; qty: binding + total; total: binding + hot; hot: binding
    const want = shown ? [2, 2, 2, 1] : [0, 0, 0, 0]
    const got = [subscribers(r.price), subscribers(r.qty), subscribers(r.total), subscribers(r.hot)]
    if (want.join() !== got.join()) bad.push(`#${r.id} (${shown ? 'shown' : 'hidden'}): ${got} != ${want}`)
  }
  return bad
}

describe('data grid: rendering 20,000 rows', () => {
  it('loop() keeps frames and a keyboard click coming mid-render; the blocking render gets neither (side by side)', async () => {
    const results: Record<'loop' | 'blocking', { frames: number; rowsAtClick: number; clickShare: number; betweenFrames: number; blank: number; duration: number }[]> = { loop: [], blocking: [] }
    for (let round = 0; round < 3; round++) {
      for (const mode of round % 2 ? (['blocking', 'loop'] as const) : (['loop', 'blocking'] as const)) {
        const root = box.root.appendChild(document.createElement('div'))
        const records = makeRecords(N, round + 1)
        const frames: number[] = []
        let blank = 0
        let on = true
        let g: Grid | undefined
        const raf = (t: number) => {
          if (!on) return
          frames.push(performance.now())
          // every row in the table at a frame shows its values: no blank cells painted
          const last = g?.tbody.lastElementChild as HTMLTableRowElement | null
          if (last && last.children[2]!.textContent === '') blank++
          requestAnimationFrame(raf)
        }
        requestAnimationFrame(raf)
        await new Promise((r) => requestAnimationFrame(r))
        let click: { at: number; stamp: number; rows: number } | undefined
        let sent = false
        const start = performance.now()
        // A user presses Enter on the focused "ping" button once 1,000 rows are on the page.
        g = mountGrid(root, records, {
          mode,
          onMount: (el) => {
            const ping = el.querySelector<HTMLButtonElement>('.ping')!
            ping.onclick = (e) => (click = { at: performance.now(), stamp: e.timeStamp, rows: el.querySelector('tbody')!.childElementCount })
            ping.focus()
          },
          onRow: (n) => {
            if (n < 1000 || sent) return
            sent = true
            void key('keyDown')
            void key('keyUp')
          },
        })
        await g.idle()
        const end = performance.now()
        for (let i = 0; i < 60 && !click; i++) await sleep(10)
        on = false
        expect(click, `${mode}: the click was handled`).toBeDefined()
        expect(g.tbody.childElementCount).toBe(N)
        expect(mismatches(g, records)).toEqual([])
        const inRender = frames.filter((t) => t > start && t < end).length
        results[mode].push({
          frames: inRender,
          rowsAtClick: click!.rows,
          clickShare: (click!.at - start) / (end - start),
          betweenFrames: frames.filter((t) => t > click!.stamp && t < click!.at).length,
          blank,
          duration: end - start,
        })
        g.destroy()
        expect(g.stats.liveBindings).toBe(0)
        root.remove()
      }
    }
    console.log(JSON.stringify(results))
    for (const r of results.loop) {
      expect(r.rowsAtClick).toBeLessThan(N) // handled while rows were still coming
      expect(r.blank).toBe(0)
    }
    for (const r of results.blocking) {
      expect(r.rowsAtClick).toBe(N) // waited for the whole render
      expect(r.frames).toBeLessThanOrEqual(1)
    }
    expect(median(results.loop.map((r) => r.frames))).toBeGreaterThanOrEqual(5)
    expect(median(results.loop.map((r) => r.betweenFrames))).toBeLessThanOrEqual(2)
    expect(median(results.loop.map((r) => r.clickShare))).toBeLessThan(0.5)
    expect(box.reported).toEqual([])
  }, 120_000)
})

async function mounted(records = makeRecords(N)) {
  const g = mountGrid(box.root, records)
  await g.idle()
  await settled()
  return { g, records }
}

describe('data grid: filter and sort', () => {
  it('filter as you type: each keystroke stops the stale run; the last one shows exactly its rows, no stale step', async () => {
    const { g, records } = await mounted()
    const input = g.$<HTMLInputElement>('.q')
    input.focus()
    const text = 'red pl'
    for (const [i, ch] of [...text].entries()) {
      await commit(ch)
      if (i % 2) await sleep(3) // some keys back to back, some a little apart
    }
    expect(input.value).toBe(text)
    expect(g.query.peek()).toBe(text)
    await g.idle()
    await settled()
    const s = g.stats
    console.log(JSON.stringify(g.runs.map((r) => [r.q, r.stopped])))
    expect(s.started).toBe(1 + text.length)
    expect(s.completed + s.stopped).toBe(s.started)
    expect(g.runs.at(-1)!.q).toBe(text)
    expect(s.staleSteps).toBe(0)
    expect(s.disposedRenders).toBe(0)
    expect(g.visibleIds()).toEqual(expectedIds(records, text, 'none'))
    expect(g.$('.count').textContent).toBe(`${g.visibleIds().length} rows`)
    expect(g.$('.status').textContent).toBe('ready')
    expect(mismatches(g, records)).toEqual([])
    expect(leakCheck(g, records)).toEqual([])
    expect(s.liveBindings).toBe(4 * g.rows.size)
    // back to everything
    g.query.value = ''
    await g.idle()
    await settled()
    expect(input.value).toBe('')
    expect(g.tbody.childElementCount).toBe(N)
    expect(mismatches(g, records)).toEqual([])
    expect(leakCheck(g, records)).toEqual([])
    g.destroy()
    expect(box.reported).toEqual([])
  }, 120_000)

  it('the sort toggle orders the filtered rows by price, both ways, and back to all rows keeps the order', async () => {
    const { g, records } = await mounted()
    g.query.value = 'amber'
    g.$('.sort').click()
    await g.idle()
    await settled()
    expect(g.$('.sort').textContent).toBe('sort: asc')
    expect(g.visibleIds()).toEqual(expectedIds(records, 'amber', 'asc'))
    g.$('.sort').click()
    await g.idle()
    await settled()
    expect(g.visibleIds()).toEqual(expectedIds(records, 'amber', 'desc'))
    const prices = [...g.tbody.querySelectorAll('.price')].map((td) => Number(td.textContent))
    expect(prices).toEqual([...prices].sort((a, b) => b - a))
    g.query.value = ''
    await g.idle()
    expect(g.visibleIds()).toEqual(expectedIds(records, '', 'desc'))
    expect(mismatches(g, records)).toEqual([])
    expect(g.stats.staleSteps).toBe(0)
    g.destroy()
  }, 120_000)
})

describe('data grid: live updates', () => {
  it('thousands of updates a second while the user filters and sorts: nothing lost, no disposed row rendered', async () => {
    const { g, records } = await mounted()
    const feed = startFeed(records, { rate: 5000 })
    await sleep(300)
    g.query.value = 'blue'
    await sleep(150)
    g.query.value = 'blue a'
    await sleep(200)
    g.$('.sort').click()
    await sleep(200)
    g.query.value = 'green'
    await g.idle()
    await sleep(300)
    await feed.stop()
    await g.idle()
    await settled()
    expect(feed.stats.produced).toBeGreaterThan(3000)
    expect(feed.stats.applied).toBe(feed.stats.produced)
    // the signals hold the latest update of each record, and every shown row shows its record
    const lost = [...feed.latest].filter(([id, u]) => records[id]!.price.peek() !== u.price || records[id]!.qty.peek() !== u.qty)
    expect(lost).toEqual([])
    expect(mismatches(g, records)).toEqual([])
    // sorted by the prices of when the sort ran; the feed moved them since: the same rows, not the same order
    expect(g.visibleIds().sort((a, b) => a - b)).toEqual(expectedIds(records, 'green', 'none'))
    expect(g.stats.disposedRenders).toBe(0)
    expect(g.stats.staleSteps).toBe(0)
    expect(leakCheck(g, records)).toEqual([])
    g.destroy()
    expect(box.reported).toEqual([])
  }, 120_000)

  it('a feed macrotask batch of many updates costs one render of each cell, after the batch', async () => {
    const { g, records } = await mounted(makeRecords(2000))
    const q = createQueue()
    const rec = records[5]!
    const cell = g.rows.get(5)!.tr.children[2]!
    const initial = cell.textContent
    const rendersBefore = g.stats.renders
    const rec2 = observe(cell)
    const log: string[] = []
    for (let i = 1; i <= 300; i++) q.macrotask(() => batch(() => { rec.price.value = i; rec.qty.value = 1 }))
    q.macrotask(() => {
      log.push(`last callback sees ${cell.textContent}`)
      queueMicrotask(() => log.push(`microtask after the batch sees ${cell.textContent}`))
    })
    await new Promise<void>((r) => q.macrotask(r))
    const writes = rec2.stop().length
    // the batch's callbacks share a task: the flush (a microtask) comes after the last of them
    expect(log).toEqual([`last callback sees ${initial}`, 'microtask after the batch sees 300.00'])
    expect(cell.textContent).toBe('300.00')
    // one flush for the whole batch (callbacks share a task): price, total, and hot may each render once
    expect(writes).toBeLessThanOrEqual(1)
    expect(g.stats.renders - rendersBefore).toBeLessThanOrEqual(4)
    g.destroy()
  })
})

describe('data grid: teardown and leaks', () => {
  it('destroy: every binding gone (subscriber counts back to 0), no render of a disposed row, rows collected', async () => {
    const records = makeRecords(N)
    const baseline = records.map((r) => subscribers(r.price) + subscribers(r.qty) + subscribers(r.total) + subscribers(r.hot))
    expect(baseline.every((n) => n === 0)).toBe(true)
    const { g } = await mounted(records)
    g.query.value = 'teal'
    await g.idle()
    g.query.value = ''
    await g.idle()
    await settled()
    expect(g.stats.rowsDisposed).toBeGreaterThan(10_000)
    const sample = [...g.tbody.children].slice(0, 50) as HTMLTableRowElement[]
    const shown = sample.map((tr) => tr.children[2]!.textContent)
    g.destroy()
    expect(g.stats.liveBindings).toBe(0)
    expect(g.rows.size).toBe(0)
    expect(leakCheck(g, records)).toEqual([])
    const renders = g.stats.renders
    batch(() => {
      for (const r of records) r.price.value += 1
    })
    flush()
    await settled()
    expect(g.stats.renders).toBe(renders)
    expect(sample.map((tr) => tr.children[2]!.textContent)).toEqual(shown)
    sample.length = 0
    expect(records[0]!.total.value).toBe(records[0]!.price.peek() * records[0]!.qty.peek())
    const refs = g.disposed
    expect(refs.length).toBe(g.stats.rowsDisposed)
    const alive = () => refs.filter((r) => r.deref()).length
    // At most 1%: a leak through the graph or a binding keeps every disposed row. Fresh-clone CI runs kept 1, and
    // once 200, of 37,143 after 50 collections (engine-side stragglers; collectUntil now also runs for 3 s).
    await collectUntil(() => alive() === 0)
    // Where some are left, what holds the first (a heap snapshot's shortest chain from a root), for the log.
    const left = refs.find((r) => r.deref())
    if (left) console.log(`[data grid] ${alive()} rows alive; what holds one:`, await retainerPath(left))
    expect(alive(), `${alive()} of ${refs.length} disposed rows still alive`).toBeLessThanOrEqual(refs.length / 100)
  }, 120_000)
})

describe('data grid: ordering of loop(), yieldToMain, macrotask and renders', () => {
  it('sync loop() steps render once per slice; steps that await yieldToMain render once per step', async () => {
    const s = new Signal(0)
    const el = box.root.appendChild(document.createElement('p'))
    s.bind(el)
    flush()
    let slices = 0
    let fresh = true
    const o = observe(el)
    const l = loop(
      () => {
        // a microtask queued by a step runs once the slice's synchronous steps are done
        if (fresh) (slices++, (fresh = false), queueMicrotask(() => (fresh = true)))
        s.value++
        // Until the loop has yielded a few times, however fast the machine (20,000 steps fit in one slice when idle).
        return slices < 5
      },
      { budgetMs: 2 },
    )
    await l.done
    await settled()
    const syncWrites = o.stop().length
    expect(el.textContent).toBe(String(s.peek()))
    const o2 = observe(el)
    let i = 0
    await loop(async () => {
      s.value++
      await yieldToMain()
      return ++i < 20
    }).done
    await settled()
    const asyncWrites = o2.stop().length
    console.log(JSON.stringify({ syncWrites, asyncWrites, slices }))
    expect(slices).toBeGreaterThan(1)
    expect(syncWrites).toBe(slices) // one render per slice, not per step
    expect(asyncWrites).toBe(20)
  })

  it('a loop() created after macrotask() and a write runs its first slice before the macrotask, after the render', async () => {
    const s = new Signal('a')
    const el = box.root.appendChild(document.createElement('p'))
    s.bind(el)
    flush()
    const log: string[] = []
    macrotask(() => log.push(`macrotask sees ${el.textContent}`))
    s.value = 'b'
    const l = loop(() => {
      log.push(`slice sees ${el.textContent}`)
      s.value = 'c'
      return false
    })
    log.push('sync')
    await l.done
    await new Promise((r) => macrotask(() => r(undefined)))
    expect(log).toEqual(['sync', 'slice sees b', 'macrotask sees c'])
  })
})
