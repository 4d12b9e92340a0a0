// The async-app trial (see async-app.ts and async-server.ts): hundreds of random keystroke / delivery / failure
// sequences on a seeded fake server, checking that the final UI always shows the results of the last query, that
// no stale response is ever written, that every request ends (delivered, failed or aborted) and that every cleanup
// runs, on re-run and on dispose. Counts are asserted, never times.
import { describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { computed, configure, effect, settled, Signal } from '@eddy/signal'
import { rng, sandbox, schedules, subscribers } from '../dom.ts'
import { fakeServer, pageFor, searchFor, type FakeServer } from './async-server.ts'
import { mountApp, type App, type AppOptions } from './async-app.ts'

const box = sandbox()
const macro = () => new Promise<void>((r) => setTimeout(r, 0))

function type(input: HTMLInputElement, value: string): void {
  input.value = value
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

/** Delivers every response (and what the app starts meanwhile), lets loops finish, then waits for the renders. */
async function quiesce(server: FakeServer, app: App): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    await server.drain()
    if (!server.pending && !app.counts.loopsActive) break
    await macro()
  }
  await settled()
}

const titles = (el: Element) => [...el.children].map((li) => li.textContent)

/** At a settled point: what the list shows is the whole answer to one query, the one the status names. */
function checkConsistent(app: App): string | undefined {
  const status = app.$('.status').textContent!
  if (app.loading.peek()) return status == 'loading…' ? undefined : `loading but status "${status}"`
  const q = app.resultsFor.peek()
  if (q == null) return undefined
  const want = searchFor(q).map((it) => it.title)
  const shown = titles(app.$('.results'))
  if (JSON.stringify(shown) != JSON.stringify(want)) return `list is not the answer to "${q}"`
  if (status != `${want.length} results for "${q}"`) return `status "${status}" for "${q}"`
}

const LETTERS = 'aelmptz '
const WORDS = ['alpha', 'beta', 'gamma', 'eta', 'lambda', 'mu', 'zzz', '']

async function randomSession(seed: number, options: AppOptions & { failRate?: number } = {}) {
  const rand = rng(seed)
  const server = fakeServer(rand, { failRate: options.failRate ?? 0.15, maxDelay: 80 })
  const app = mountApp(box.root, server, { feed: false, ...options })
  const input = app.$<HTMLInputElement>('.q')
  const problems: string[] = []
  // How many times the search effect should run: once, then once per change of the trimmed query and per retry.
  let expectedRuns = 1
  let last = ''
  const steps = 3 + Math.floor(rand() * 14)
  for (let s = 0; s < steps; s++) {
    const r = rand()
    let v = input.value
    if (r < 0.55) v += LETTERS[Math.floor(rand() * LETTERS.length)]
    else if (r < 0.75) v = v.slice(0, -1)
    else if (r < 0.85) v = ''
    else v = WORDS[Math.floor(rand() * WORDS.length)]!
    type(input, v)
    if (v.trim() != last) (last = v.trim()), expectedRuns++
    const w = rand()
    if (w < 0.4) await server.advance(Math.floor(rand() * 60))
    else if (w < 0.6) {
      await settled()
      const p = checkConsistent(app)
      if (p) problems.push(`step ${s}: ${p}`)
    } else if (w < 0.7) {
      const lis = app.$('.results').children
      if (lis.length) (lis[Math.floor(rand() * lis.length)] as HTMLElement).click()
    } else if (w < 0.8) {
      await settled()
      if (!app.$('.retry').hidden) app.$('.retry').click(), expectedRuns++
    }
  }
  await quiesce(server, app)
  for (let k = 0; app.error.peek() && k < 30; k++) {
    app.$('.retry').click()
    expectedRuns++
    await quiesce(server, app)
  }
  for (let k = 0; app.detailError.peek() && k < 30; k++) {
    app.$('.d-retry').click()
    await quiesce(server, app)
  }
  if (app.counts.searchRuns != expectedRuns) problems.push(`search effect ran ${app.counts.searchRuns} times, expected ${expectedRuns}`)
  return { app, server, q: input.value.trim(), problems }
}

describe('async app: search races under random delays and failures', () => {
  it('300 seeded sessions: the final UI always shows the results of the last query, nothing stale, nothing leaked', async () => {
    const failures: string[] = []
    let aborted = 0
    let started = 0
    let failed = 0
    for (let seed = 1; seed <= 300; seed++) {
      const { app, server, q, problems } = await randomSession(seed)
      const fail = (what: string) => failures.push(`seed ${seed}: ${what}`)
      for (const p of problems) fail(p)
      const want = searchFor(q)
      if (app.error.peek()) fail(`error still shown: ${app.error.peek()}`)
      if (app.resultsFor.peek() !== q) fail(`results are for "${app.resultsFor.peek()}", query is "${q}"`)
      if (JSON.stringify(titles(app.$('.results'))) != JSON.stringify(want.map((it) => it.title))) fail('list is stale')
      if (app.$('.status').textContent != `${want.length} results for "${q}"`) fail(`status "${app.$('.status').textContent}"`)
      if (app.$('.results').getAttribute('aria-busy') != 'false') fail('aria-busy')
      if (!app.$('.retry').hidden || app.$('.error').textContent) fail('error UI visible')
      // The detail pane shows the selected result, if it is still among the results.
      const sel = app.selected.peek()
      if (sel && app.$('.d-title').textContent != sel.title) fail(`detail shows "${app.$('.d-title').textContent}" for "${sel.title}"`)
      if (!sel && app.$('.d-title').textContent) fail('detail shown with nothing selected')
      // Nothing stale was ever written; every request ended; every listener the server added was removed.
      if (app.counts.lateWrites) fail(`${app.counts.lateWrites} late writes`)
      if (server.pending || server.stats.listeners) fail(`pending ${server.pending}, listeners ${server.stats.listeners}`)
      const s = server.stats
      if (s.started != s.delivered + s.failed + s.aborted) fail(`requests: ${JSON.stringify(s)}`)
      // Every run but the last was cleaned up; after dispose, all of them, and nothing stays subscribed.
      if (app.counts.searchCleanups != app.counts.searchRuns - 1) fail(`search runs ${app.counts.searchRuns}, cleanups ${app.counts.searchCleanups}`)
      app.dispose()
      if (app.counts.searchCleanups != app.counts.searchRuns) fail('cleanup not run on dispose')
      if (app.counts.detailCleanups != app.counts.detailRuns) fail('detail cleanup not run on dispose')
      if (subscribers(app.query) || subscribers(app.results) || subscribers(app.selected)) fail('subscribers left')
      aborted += s.aborted
      started += s.started
      failed += s.failed
      box.root.replaceChildren()
    }
    expect(failures).toEqual([])
    // The sessions did exercise the races: many aborted requests, some failures.
    expect(aborted).toBeGreaterThan(300)
    expect(failed).toBeGreaterThan(30)
    console.log(`300 sessions: ${started} requests, ${aborted} aborted, ${failed} failed`)
  })

  for (const [name, schedule] of Object.entries(schedules))
    it(`30 sessions under the ${name} schedule: same checks`, async () => {
      configure({ schedule })
      try {
        const failures: string[] = []
        for (let seed = 1001; seed <= 1030; seed++) {
          const { app, server, q, problems } = await randomSession(seed)
          failures.push(...problems.map((p) => `seed ${seed}: ${p}`))
          if (checkConsistent(app)) failures.push(`seed ${seed}: ${checkConsistent(app)}`)
          if (app.resultsFor.peek() !== q || app.error.peek()) failures.push(`seed ${seed}: not the last query`)
          if (server.stats.listeners || server.pending) failures.push(`seed ${seed}: leaked requests`)
          app.dispose()
          box.root.replaceChildren()
        }
        expect(failures).toEqual([])
      } finally {
        configure({ schedule: 'microtask' })
      }
    })

  it('sanity: the same sessions with no abort and no guard do show stale results (the check can fail)', async () => {
    let stale = 0
    for (let seed = 1; seed <= 100; seed++) {
      const { app, q } = await randomSession(seed, { guard: 'none', failRate: 0 })
      if (app.resultsFor.peek() !== q) stale++
      app.dispose()
      box.root.replaceChildren()
    }
    expect(stale).toBeGreaterThan(5)
  })

  it('real keystrokes (userEvent.type), responses in random order: the last query wins', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const rand = rng(seed)
      const server = fakeServer(rand, { maxDelay: 50 })
      const app = mountApp(box.root, server, { feed: false })
      const input = app.$<HTMLInputElement>('.q')
      await userEvent.click(input)
      const word = ['alpha 1', 'gamma', 'lambda 2', 'beta'][seed % 4]!
      await userEvent.type(input, word)
      expect(app.query.peek()).toBe(word)
      // One request per keystroke that changes the trimmed query (a trailing space does not: the computed `q` cuts
      // it off), plus the first, for ''; all but the last were aborted at the next one.
      const distinct = new Set(Array.from({ length: word.length + 1 }, (_, i) => word.slice(0, i).trim())).size
      expect(app.counts.searchRuns).toBe(distinct)
      expect(server.stats.aborted).toBe(distinct - 1)
      await quiesce(server, app)
      expect(titles(app.$('.results'))).toEqual(searchFor(word).map((it) => it.title))
      expect(app.$('.status').textContent).toBe(`${searchFor(word).length} results for "${word}"`)
      app.dispose()
      box.root.replaceChildren()
    }
  })
})

describe('async app: detail pane', () => {
  it('loading flag, error message, retry, and abort when the selection changes', async () => {
    const server = fakeServer(rng(7), { maxDelay: 10 })
    const app = mountApp(box.root, server, { feed: false })
    type(app.$('.q'), 'alpha')
    await quiesce(server, app)
    const lis = app.$('.results').children
    expect(lis.length).toBeGreaterThan(3)
    const aborted = server.stats.aborted
    ;(lis[0] as HTMLElement).click()
    await settled()
    expect(app.$('.d-title').textContent).toBe('loading…')
    // A second selection before the first answer: the first is aborted, its answer never shown.
    ;(lis[1] as HTMLElement).click()
    expect(server.stats.aborted - aborted).toBe(1)
    await quiesce(server, app)
    expect(app.$('.d-title').textContent).toBe(lis[1]!.textContent)
    // A failure: the message is shown with its retry button, the loading flag goes.
    server.failNext('/item/')
    ;(lis[2] as HTMLElement).click()
    await quiesce(server, app)
    expect(app.$('.d-error').textContent).toBe('detail failed: HTTP 500')
    expect(app.$('.d-retry').hidden).toBe(false)
    expect(app.$('.d-title').textContent).toBe(lis[1]!.textContent) // the old detail stays, not 'loading…'
    app.$('.d-retry').click()
    await settled()
    expect(app.$('.d-error').textContent).toBe('')
    expect(app.$('.d-retry').hidden).toBe(true)
    await quiesce(server, app)
    expect(app.$('.d-title').textContent).toBe(lis[2]!.textContent)
    // A new query whose results no longer hold the selection: the pane empties.
    type(app.$('.q'), 'zzz')
    await quiesce(server, app)
    expect(app.$('.d-title').textContent).toBe('')
    app.dispose()
    expect(server.stats.listeners).toBe(0)
  })

  it('a refresh of the same results (retry) refetches the detail: the computed returns a new object (counted)', async () => {
    // A pitfall, not a bug: `selected` is a computed of (results, selectedId) returning the item object. New results
    // from JSON are new objects, so the effect that reads `selected` runs again and refetches the same detail.
    // A computed of the id alone (equality cut-off on a number) does not.
    const server = fakeServer(rng(8), { maxDelay: 10 })
    const app = mountApp(box.root, server, { feed: false })
    type(app.$('.q'), 'beta')
    await quiesce(server, app)
    ;(app.$('.results').children[0] as HTMLElement).click()
    await quiesce(server, app)
    const byId = computed(() => app.selected.value?.id)
    let idRuns = 0
    const stop = effect(() => void (byId.value, idRuns++))
    const before = app.counts.detailRuns
    for (let i = 0; i < 3; i++) {
      app.$('.retry').hidden = false
      app.$('.retry').click()
      await quiesce(server, app)
    }
    expect(app.counts.detailRuns - before).toBe(3) // refetched at each refresh
    expect(idRuns).toBe(1) // the id-keyed effect did not run again
    stop()
    app.dispose()
  })
})

describe('async app: infinite list with loop() and yieldToMain()', () => {
  it('20 seeded sessions: the feed holds exactly the pages of the last query, old loops stop, no rejection leaks', async () => {
    const failures: string[] = []
    for (let seed = 1; seed <= 20; seed++) {
      const rand = rng(seed)
      const server = fakeServer(rand, { maxDelay: 30 })
      const app = mountApp(box.root, server, { chunk: 1 + Math.floor(rand() * 10) })
      const input = app.$<HTMLInputElement>('.q')
      for (let s = 0; s < 4; s++) {
        type(input, ['a', 'alpha', 'et', 'mu', 'beta', 'e', 'gamma 1'][Math.floor(rand() * 7)]!)
        // Part of the pages arrive, and part of their chunks are appended, before the query changes again.
        for (let k = Math.floor(rand() * 6); k > 0; k--) {
          await server.advance(Math.floor(rand() * 30))
          await macro()
        }
      }
      await quiesce(server, app)
      const q = input.value.trim()
      const want: string[] = []
      for (let p = 0; ; p++) {
        const page = pageFor(q, p)
        want.push(...page.map((it) => it.title))
        if (page.length < 25) break
      }
      if (JSON.stringify(titles(app.$('.feed'))) != JSON.stringify(want)) failures.push(`seed ${seed}: feed for "${q}" is wrong (${app.$('.feed').children.length} vs ${want.length})`)
      if (app.$('.feed-status').textContent != `${want.length} items`) failures.push(`seed ${seed}: status ${app.$('.feed-status').textContent}`)
      if (app.counts.doneErrors.length) failures.push(`seed ${seed}: done rejected with ${app.counts.doneErrors}`)
      if (app.counts.feedCleanups != app.counts.feedRuns - 1) failures.push(`seed ${seed}: feed cleanups`)
      if (server.stats.listeners) failures.push(`seed ${seed}: listeners`)
      app.dispose()
      if (app.counts.feedCleanups != app.counts.feedRuns) failures.push(`seed ${seed}: feed cleanup on dispose`)
      box.root.replaceChildren()
    }
    expect(failures).toEqual([])
  })

  it('dispose mid-load stops the loop, aborts the page in flight, and nothing is appended afterwards', async () => {
    const server = fakeServer(rng(3), { maxDelay: 30 })
    const app = mountApp(box.root, server)
    type(app.$('.q'), 'a')
    await server.advance(30)
    await macro()
    await server.advance(30)
    const loop = app.loop!
    const n = app.feed.peek().length
    app.dispose()
    // The step in flight ends: with the AbortError of its fetch, or `false` from its check between chunks.
    const end = await loop.done.catch((e) => e.name)
    expect(end === 'AbortError' || typeof end == 'number').toBe(true)
    await server.drain()
    for (let i = 0; i < 5; i++) await macro()
    expect(app.feed.peek().length).toBe(n)
    expect(server.pending).toBe(0)
    expect(server.stats.listeners).toBe(0)
  })
})

describe('async app: optimistic likes', () => {
  it('concurrent likes with 40% failures, rolled back by inverse: the UI ends at the server count (50 seeds)', async () => {
    const lost: string[] = []
    for (let seed = 1; seed <= 50; seed++) {
      const rand = rng(seed)
      const server = fakeServer(rand, { maxDelay: 40, failRate: 0 })
      const app = mountApp(box.root, server, { feed: false })
      type(app.$('.q'), 'kappa')
      await quiesce(server, app)
      ;(app.$('.results').children[0] as HTMLElement).click()
      await quiesce(server, app)
      const id = app.detail.peek()!.id
      const seen: number[] = []
      for (let k = 0; k < 8; k++) {
        if (rand() < 0.4) server.failNext('/like/')
        app.$('.like').click()
        await settled()
        seen.push(parseInt(app.$('.likes').textContent!))
        await server.advance(Math.floor(rand() * 30))
      }
      await quiesce(server, app)
      // The optimistic count showed at once (the first click, before any answer, shows 1).
      if (seen[0] !== 1) lost.push(`seed ${seed}: first click showed ${seen[0]}`)
      if (app.likes.peek()[id] !== (server.likes.get(id) ?? 0)) lost.push(`seed ${seed}: ${app.likes.peek()[id]} vs ${server.likes.get(id)}`)
      if (app.$('.likes').textContent != `${server.likes.get(id) ?? 0} likes`) lost.push(`seed ${seed}: shown ${app.$('.likes').textContent}`)
      app.dispose()
      box.root.replaceChildren()
    }
    expect(lost).toEqual([])
  })

  it('sanity: a snapshot rollback (write back the value from before) loses concurrent likes', async () => {
    let lost = 0
    for (let seed = 1; seed <= 30; seed++) {
      const rand = rng(seed)
      const server = fakeServer(rand, { maxDelay: 40 })
      const app = mountApp(box.root, server, { feed: false, rollback: 'snapshot' })
      type(app.$('.q'), 'kappa')
      await quiesce(server, app)
      ;(app.$('.results').children[0] as HTMLElement).click()
      await quiesce(server, app)
      const id = app.detail.peek()!.id
      for (let k = 0; k < 8; k++) {
        if (rand() < 0.4) server.failNext('/like/')
        app.$('.like').click()
        await server.advance(Math.floor(rand() * 30))
      }
      await quiesce(server, app)
      if (app.likes.peek()[id] !== (server.likes.get(id) ?? 0)) lost++
      app.dispose()
      box.root.replaceChildren()
    }
    expect(lost).toBeGreaterThan(0)
  })

  it('the optimistic write and its rollback are each one render (batch), and one effect run', async () => {
    const server = fakeServer(rng(2), { maxDelay: 5 })
    const app = mountApp(box.root, server, { feed: false })
    type(app.$('.q'), 'kappa')
    await quiesce(server, app)
    ;(app.$('.results').children[0] as HTMLElement).click()
    await quiesce(server, app)
    let runs = 0
    const stop = effect(() => void (app.likes.value, app.likeError.value, runs++))
    server.failNext('/like/')
    const p = app.like(app.detail.peek()!.id)
    expect(runs).toBe(2) // once at creation, once for the batch
    await server.drain()
    await p
    expect(runs).toBe(3) // the rollback: one more
    await settled()
    expect(app.$('.like-error').textContent).toBe('like failed: HTTP 500')
    expect(app.$('.likes').textContent).toBe('0 likes')
    stop()
    app.dispose()
  })
})

describe('settled() with fetches', () => {
  it('settled() alone does not wait for a fetch in flight; awaiting the response, then settled(), does', async () => {
    const server = fakeServer(rng(1), { maxDelay: 5 })
    const app = mountApp(box.root, server, { feed: false })
    await quiesce(server, app)
    type(app.$('.q'), 'gamma')
    await settled()
    expect(app.$('.status').textContent).toBe('loading…')
    await server.drain()
    // The response was applied (signals), the render not yet written: settled() waits for it.
    expect(app.resultsFor.peek()).toBe('gamma')
    await settled()
    expect(app.$('.status').textContent).toBe(`${searchFor('gamma').length} results for "gamma"`)
    app.dispose()
  })

  it('a signal left alone: one subscriber per binding and effect, none after dispose', () => {
    const server = fakeServer(rng(1))
    const app = mountApp(box.root, server)
    expect(subscribers(app.query)).toBe(2) // the model binding and the computed q
    app.dispose()
    expect(subscribers(app.query)).toBe(0)
    expect(server.stats.listeners).toBe(0)
    void Signal
  })
})
