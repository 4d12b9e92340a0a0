// A searchable list of 20,000 rows, as a user would build it with both packages: the query is a Signal bound
// two-way to an <input>; each change of it starts a filter run with the scheduler's loop() (chunks of rows, so the
// page stays responsive) and stops the stale one in the effect's cleanup; the results, a "loading" flag (aria-busy)
// and a progress bar (style width + aria-valuenow) are rendered through bindings and one effect.
// Only what does not depend on the machine's speed is asserted: how long a run takes (how many slices, whether a
// frame comes in between) is the scheduler tests' and benchmarks' business.
import { afterEach, describe, expect, it } from 'vitest'
import { Signal, batch, computed, configure, effect, flush, settled, type Binding } from '@eddy/signal'
import { createQueue, loop, type Loop } from '@eddy/scheduler'

const ROWS = 20_000
const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape', 'honeydew', 'kiwi', 'lemon']
const rows = Array.from({ length: ROWS }, (_, i) => `row ${i} ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}`)

// A per-row cost a real app might have (normalizing accents, scoring): enough that one run takes a few slices.
let sink = 0
function matches(row: string, q: string): boolean {
  let h = sink
  for (let k = 0; k < 600; k++) h = (h * 31 + row.charCodeAt(k % row.length)) | 0
  sink = h & 1
  return row.normalize('NFKD').toLowerCase().includes(q)
}
const expected = (q: string) => rows.filter((r) => matches(r, q.trim().toLowerCase()))

type Engine = 'loop' | 'queue'

function mountSearch(root: HTMLElement, engine: Engine = 'loop', chunk = 250) {
  root.innerHTML = `
    <input class="q" type="search" aria-label="search">
    <div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="100"></div>
    <p class="count"></p>
    <ul class="list" aria-live="polite"></ul>`
  const $ = <E extends Element = HTMLElement>(s: string) => root.querySelector<E>(s)!
  const query = new Signal('')
  const results = new Signal<readonly string[]>(rows)
  const loading = new Signal(false)
  const progress = new Signal(100) // 0..100
  // `late`: steps and ends of runs that were stopped already (counted, not skipped: a stop that fails shows).
  const stats = { started: 0, completed: 0, stopped: 0, late: 0, errors: [] as unknown[] }
  let current: Loop | undefined
  const summary = computed(() => (loading.value ? 'searching…' : `${results.value.length} results`))
  const bindings: Binding[] = [
    query.bind($('.q'), { model: 'input' }),
    loading.bind($('.list'), { attr: 'aria-busy' }),
    progress.bind($('.bar'), { attr: 'aria-valuenow' }),
    progress.bind($('.bar'), { style: 'width' }), // a bare number, as a user would first try
    summary.bind($('.count')),
    loading.bind($('.count'), { class: 'busy' }),
  ]
  // The filter: one run per query, cancelled by the cleanup when the query changes again.
  const stopFilter = effect(() => {
    const q = query.value.trim().toLowerCase()
    stats.started++
    const found: string[] = []
    let i = 0
    let cancelled = false
    batch(() => {
      loading.value = true
      progress.value = 0
    })
    const finish = () => {
      if (cancelled) stats.late++
      stats.completed++
      batch(() => {
        results.value = found
        progress.value = 100
        loading.value = false
      })
    }
    if (engine === 'loop') {
      const l = loop(() => {
        if (cancelled) stats.late++
        const end = Math.min(i + chunk, ROWS)
        for (; i < end; i++) if (matches(rows[i]!, q)) found.push(rows[i]!)
        progress.value = Math.round((i / ROWS) * 100)
        if (i < ROWS) return true
        finish()
        return false
      })
      current = l
      l.done.catch((e) => stats.errors.push(e))
      return () => {
        cancelled = true
        stats.stopped++
        l.stop()
      }
    }
    // The same with a queue: one chunk per macrotask, a cancel per pending chunk.
    const q2 = queue
    let cancel = () => {}
    const next = () => {
      if (cancelled) stats.late++
      const end = Math.min(i + chunk, ROWS)
      for (; i < end; i++) if (matches(rows[i]!, q)) found.push(rows[i]!)
      progress.value = Math.round((i / ROWS) * 100)
      if (i < ROWS) cancel = q2.macrotask(next)
      else finish()
    }
    cancel = q2.macrotask(next)
    return () => {
      cancelled = true
      stats.stopped++
      cancel()
    }
  })
  // The list: the first 50 results, rebuilt when the results change.
  const stopList = effect(() => {
    const list = results.value
    const ul = $('.list')
    ul.replaceChildren(
      ...list.slice(0, 50).map((r) => {
        const li = document.createElement('li')
        li.textContent = r
        return li
      }),
    )
  })
  return {
    $,
    query,
    results,
    loading,
    progress,
    stats,
    get current() {
      return current
    },
    dispose() {
      stopFilter()
      stopList()
      bindings.forEach((b) => b.dispose())
    },
  }
}
const queue = createQueue({ budgetMs: 5 })

function type(input: HTMLInputElement, text: string) {
  input.value = text
  input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: text.slice(-1) }))
}
const until = async (cond: () => boolean, ms = 4_000) => {
  const t0 = performance.now()
  while (!cond()) {
    if (performance.now() - t0 > ms) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 5))
  }
}

const reported: unknown[] = []
const onError = (e: ErrorEvent) => reported.push(e.error)
window.addEventListener('error', onError)

let app: ReturnType<typeof mountSearch> | undefined
afterEach(() => {
  app?.dispose()
  app = undefined
  flush()
  configure({ schedule: 'microtask' })
  document.body.replaceChildren()
  reported.length = 0
})

describe.each(['loop', 'queue'] as const)('search list (%s)', (engine) => {
  it('shows every row at first, then the filtered rows once the run completes', async () => {
    app = mountSearch(document.body.appendChild(document.createElement('main')), engine)
    await until(() => app!.stats.completed === 1)
    await settled()
    expect(app.$('.count').textContent).toBe(`${ROWS} results`)
    expect(app.$('.list').children).toHaveLength(50)
    expect(app.$('.list').getAttribute('aria-busy')).toBe('false')

    type(app.$<HTMLInputElement>('.q'), 'kiwi')
    expect(app.query.value).toBe('kiwi') // the input event wrote the signal synchronously
    expect(app.loading.peek()).toBe(true) // and the effect started a run (whether a frame shows it is timing)
    await until(() => app!.stats.completed === 2)
    await settled()
    const want = expected('kiwi')
    expect(app.results.value).toEqual(want)
    expect(app.$('.count').textContent).toBe(`${want.length} results`)
    expect(app.$('.list').firstElementChild!.textContent).toBe(want[0])
    expect(app.$('.list').getAttribute('aria-busy')).toBe('false')
    expect(app.$('.count').classList.contains('busy')).toBe(false)
    expect(app.stats.errors).toEqual([])
    expect(reported).toEqual([])
  })

  it('the progress bar ends at 100, its width in px though it was given a number', async () => {
    app = mountSearch(document.body.appendChild(document.createElement('main')), engine)
    await until(() => app!.stats.completed === 1)
    type(app.$<HTMLInputElement>('.q'), 'row 1')
    await until(() => app!.stats.completed === 2)
    await settled()
    const bar = app.$('.bar')
    expect(bar.getAttribute('aria-valuenow')).toBe('100')
    expect(bar.style.width).toBe('100px')
  })

  it('typing fast cancels the stale runs: nothing of a stale one shows, and the last one completes', async () => {
    app = mountSearch(document.body.appendChild(document.createElement('main')), engine)
    await until(() => app!.stats.completed === 1)
    const input = app.$<HTMLInputElement>('.q')
    const typed = 'row 12'
    for (let n = 1; n <= typed.length; n++) {
      type(input, typed.slice(0, n))
      await new Promise((r) => setTimeout(r, 3)) // a keystroke every few ms: the runs overlap
    }
    await until(() => !app!.loading.peek())
    await new Promise((r) => setTimeout(r, 100)) // a stale run that was not really stopped would land now
    await settled()
    expect(app.stats.started).toBe(1 + typed.length)
    expect(app.stats.stopped).toBe(typed.length)
    expect(app.stats.late).toBe(0)
    // A run may end before the next keystroke (on a fast machine): what is checked is that none lands after it.
    expect(app.stats.completed).toBeGreaterThanOrEqual(2)
    const want = expected(typed)
    expect(app.results.value).toEqual(want)
    expect(app.$('.count').textContent).toBe(`${want.length} results`)
    expect(app.$('.list').children).toHaveLength(Math.min(50, want.length))
    expect(app.stats.errors).toEqual([])
    expect(reported).toEqual([])
  })

  it('writing the query from code (a "clear" button) updates the field and re-runs the filter', async () => {
    app = mountSearch(document.body.appendChild(document.createElement('main')), engine)
    await until(() => app!.stats.completed === 1)
    const input = app.$<HTMLInputElement>('.q')
    type(input, 'fig')
    await until(() => app!.stats.completed === 2)
    app.query.value = ''
    await settled()
    expect(input.value).toBe('')
    await until(() => app!.stats.completed === 3)
    await settled()
    expect(app.$('.count').textContent).toBe(`${ROWS} results`)
  })
})

describe('search list: render schedules', () => {
  it("under configure({ schedule: 'animationFrame' }) the results still land", async () => {
    configure({ schedule: 'animationFrame' })
    app = mountSearch(document.body.appendChild(document.createElement('main')))
    await until(() => app!.stats.completed === 1)
    type(app.$<HTMLInputElement>('.q'), 'lemon')
    await until(() => app!.stats.completed === 2)
    await settled()
    expect(app.$('.count').textContent).toBe(`${expected('lemon').length} results`)
  })
})

describe('search list: a filter whose steps await (an IndexedDB page, a worker reply...)', () => {
  // Each chunk awaits something already resolved. loop() chains such steps at microtask speed inside one slice, and
  // every step writes `progress`: with the default microtask schedule the bar is written once per step (the
  // README: an await lets the flush run); with 'animationFrame' it is written at most once per frame.
  async function run(schedule: 'microtask' | 'animationFrame') {
    configure({ schedule })
    const bar = document.body.appendChild(document.createElement('div'))
    const progress = new Signal(0)
    const b = progress.bind(bar, { attr: 'aria-valuenow' })
    await settled()
    let writes = 0
    const mo = new MutationObserver((l) => (writes += l.length))
    mo.observe(bar, { attributes: true })
    let frames = 0
    let running = true
    const raf = () => (frames++, running && requestAnimationFrame(raf))
    requestAnimationFrame(raf)
    let i = 0
    const found: string[] = []
    const l = loop(async () => {
      const chunk = await Promise.resolve(rows.slice(i, i + 100))
      for (const r of chunk) if (r.includes('kiwi')) found.push(r)
      i += chunk.length
      progress.value = Math.round((i / ROWS) * 100)
      return i < ROWS
    })
    const steps = await l.done
    await settled()
    await new Promise((r) => setTimeout(r))
    running = false
    mo.disconnect()
    b.dispose()
    bar.remove()
    expect(found).toEqual(rows.filter((r) => r.includes('kiwi')))
    expect(bar.getAttribute('aria-valuenow')).toBe('100')
    return { steps, writes, frames }
  }
  it('microtask schedule: a DOM write per awaited step that changed the value', async () => {
    const { steps, writes } = await run('microtask')
    expect(steps).toBe(ROWS / 100)
    // Distinct values only (progress rounds to whole %): about one write per percent, i.e. per step here.
    expect(writes).toBeGreaterThan(50)
  })
  it("'animationFrame' schedule: at most one DOM write per frame", async () => {
    const { writes, frames } = await run('animationFrame')
    expect(writes).toBeLessThanOrEqual(frames + 1)
  })
})

describe('search list: edge cases a user hits', () => {
  it('a query with no match: empty list, "0 results", bar at 100, not busy', async () => {
    app = mountSearch(document.body.appendChild(document.createElement('main')))
    await until(() => app!.stats.completed === 1)
    type(app.$<HTMLInputElement>('.q'), 'zzz-no-such-row')
    await until(() => app!.stats.completed === 2)
    await settled()
    expect(app.$('.list').children).toHaveLength(0)
    expect(app.$('.count').textContent).toBe('0 results')
    expect(app.$('.bar').getAttribute('aria-valuenow')).toBe('100')
    expect(app.$('.list').getAttribute('aria-busy')).toBe('false')
  })
  it.each(['loop', 'queue'] as const)('disposing mid-run stops the filter (%s): no step runs after it', async (engine) => {
    app = mountSearch(document.body.appendChild(document.createElement('main')), engine)
    await until(() => app!.stats.completed === 1)
    type(app.$<HTMLInputElement>('.q'), 'a')
    const l = app.current!
    await settled()
    app.dispose()
    // loop(): its first slice ran (a microtask); done resolves with the steps run so far, short of the 80 of a run.
    if (engine === 'loop') expect(await l.done).toBeLessThan(ROWS / 250)
    await new Promise((r) => setTimeout(r, 50))
    expect(app.stats.late).toBe(0)
    expect(app.stats.completed).toBe(1)
    app = undefined
  })
})
