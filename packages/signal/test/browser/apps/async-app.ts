// An async, data-fetching app, written as a user would with eddy: a model-bound search box whose effect fetches
// the results (aborted in the effect's cleanup), a detail pane for the selected result (a computed of the selection)
// with loading flag, error message and retry, an infinite list loaded page by page with loop() and appended in chunks
// with yieldToMain(), cancelled when the query changes, and optimistic likes rolled back when the server fails.
import { Signal, batch, computed, effect, type Binding, type Dispose } from '@eddy/signal'
import { loop, yieldToMain, type Loop } from '@eddy/scheduler'
import { isAbort, type FakeServer, type Item } from './async-server.ts'

export interface AppOptions {
  /** 'abort': the cleanup aborts the request (the right way); 'none': nothing (the naive app, for the sanity test). */
  guard?: 'abort' | 'none'
  /** 'inverse': a failed like is undone by -1; 'snapshot': the value from before is written back (naive). */
  rollback?: 'inverse' | 'snapshot'
  /** Items appended per chunk of the infinite list. */
  chunk?: number
  /** Whether to run the infinite list at all. */
  feed?: boolean
}

interface Detail {
  id: number
  title: string
  body: string
  likes: number
}

export function mountApp(root: HTMLElement, server: FakeServer, options: AppOptions = {}) {
  const { guard = 'abort', rollback = 'inverse', chunk = 5, feed: withFeed = true } = options
  root.innerHTML = `
    <input class="q" type="search" aria-label="search">
    <p class="status"></p>
    <p class="error" role="alert"></p><button class="retry">retry</button>
    <ul class="results"></ul>
    <section class="detail">
      <h2 class="d-title"></h2><p class="d-body"></p><p class="d-error" role="alert"></p>
      <button class="d-retry">retry</button>
      <button class="like">like</button> <span class="likes"></span> <span class="like-error"></span>
    </section>
    <p class="feed-status"></p>
    <ol class="feed"></ol>`
  const $ = <E extends Element = HTMLElement>(s: string) => root.querySelector<E>(s)!
  const fetch = server.fetch
  const counts = { loopsActive: 0, searchRuns: 0, searchCleanups: 0, detailRuns: 0, detailCleanups: 0, feedRuns: 0, feedCleanups: 0, lateWrites: 0, doneErrors: [] as unknown[] }

  // ---- search ----
  const query = new Signal('')
  const results = new Signal<Item[]>([])
  const resultsFor = new Signal<string | null>(null)
  const loading = new Signal(false)
  const error = new Signal<string | null>(null)
  const retry = new Signal(0)
  const q = computed(() => query.value.trim())

  const disposers: Dispose[] = []
  const bindings: Binding[] = [
    query.bind($('.q'), { model: 'input' }),
    computed(() => (loading.value ? 'loading…' : resultsFor.value == null ? '' : `${results.value.length} results for "${resultsFor.value}"`)).bind($('.status')),
    error.bind($('.error')),
    error.bind($('.retry'), { attr: 'hidden', format: (e) => !e }),
    loading.bind($('.results'), { attr: 'aria-busy', format: (b) => String(b) }),
  ]

  disposers.push(
    effect(() => {
      const text = q.value
      retry.value
      counts.searchRuns++
      const ctrl = new AbortController()
      batch(() => {
        loading.value = true
        error.value = null
      })
      ;(async () => {
        try {
          const res = await fetch(`/search?q=${encodeURIComponent(text)}`, guard == 'abort' ? { signal: ctrl.signal } : {})
          if (!res.ok) throw new Error(`search failed: HTTP ${res.status}`)
          const items: Item[] = await res.json()
          if (ctrl.signal.aborted) counts.lateWrites++
          batch(() => {
            results.value = items
            resultsFor.value = text
            loading.value = false
          })
        } catch (e) {
          if (isAbort(e)) return
          batch(() => {
            error.value = (e as Error).message
            loading.value = false
          })
        }
      })()
      return () => {
        counts.searchCleanups++
        ctrl.abort()
      }
    }),
  )

  // The results list: rebuilt by an effect (the app's own DOM code), clicks delegated.
  const selectedId = new Signal<number | null>(null)
  disposers.push(
    effect(() => {
      const ul = $('.results')
      const sel = selectedId.value
      ul.replaceChildren(
        ...results.value.map((it) => {
          const li = document.createElement('li')
          li.textContent = it.title
          li.dataset.id = String(it.id)
          if (it.id === sel) li.setAttribute('aria-selected', 'true')
          return li
        }),
      )
    }),
  )
  const onClick = (e: Event) => {
    const id = (e.target as HTMLElement).closest('li')?.dataset.id
    if (id != null) selectedId.value = +id
  }
  $('.results').addEventListener('click', onClick)
  const onRetry = () => retry.value++
  $('.retry').addEventListener('click', onRetry)

  // ---- detail pane ----
  const selected = computed(() => results.value.find((it) => it.id === selectedId.value) ?? null)
  const detail = new Signal<Detail | null>(null)
  const detailLoading = new Signal(false)
  const detailError = new Signal<string | null>(null)
  const detailRetry = new Signal(0)
  bindings.push(
    computed(() => (detailLoading.value ? 'loading…' : detail.value?.title ?? '')).bind($('.d-title')),
    computed(() => detail.value?.body ?? '').bind($('.d-body')),
    detailError.bind($('.d-error')),
    detailError.bind($('.d-retry'), { attr: 'hidden', format: (e) => !e }),
  )
  disposers.push(
    effect(() => {
      const item = selected.value
      detailRetry.value
      if (!item)
        return void batch(() => {
          // Reset the flags too: the request aborted by the last cleanup never clears them (an AbortError is dropped).
          detail.value = null
          detailLoading.value = false
          detailError.value = null
        })
      counts.detailRuns++
      const ctrl = new AbortController()
      batch(() => {
        detailLoading.value = true
        detailError.value = null
      })
      fetch(`/item/${item.id}`, { signal: ctrl.signal })
        .then((res) => {
          if (!res.ok) throw new Error(`detail failed: HTTP ${res.status}`)
          return res.json() as Promise<Detail>
        })
        .then(
          (d) =>
            batch(() => {
              detail.value = d
              detailLoading.value = false
              // The server's count, unless a like of ours is still in flight.
              if (!inFlightLikes.get(d.id)) likes.value = { ...likes.value, [d.id]: d.likes }
            }),
          (e) => {
            if (isAbort(e)) return
            batch(() => {
              detailError.value = (e as Error).message
              detailLoading.value = false
            })
          },
        )
      return () => {
        counts.detailCleanups++
        ctrl.abort()
      }
    }),
  )
  const onDetailRetry = () => detailRetry.value++
  $('.d-retry').addEventListener('click', onDetailRetry)

  // ---- optimistic likes ----
  const likes = new Signal<Record<number, number>>({})
  const likeError = new Signal<string | null>(null)
  const inFlightLikes = new Map<number, number>()
  bindings.push(
    computed(() => {
      const id = detail.value?.id
      return id == null ? '' : `${likes.value[id] ?? 0} likes`
    }).bind($('.likes')),
    likeError.bind($('.like-error')),
  )
  async function like(id: number): Promise<void> {
    const before = likes.value
    inFlightLikes.set(id, (inFlightLikes.get(id) ?? 0) + 1)
    batch(() => {
      likes.value = { ...likes.value, [id]: (likes.value[id] ?? 0) + 1 }
      likeError.value = null
    })
    try {
      const res = await fetch(`/like/${id}`, { method: 'POST' })
      if (!res.ok) throw new Error(`like failed: HTTP ${res.status}`)
    } catch (e) {
      batch(() => {
        likes.value = rollback == 'inverse' ? { ...likes.value, [id]: likes.value[id]! - 1 } : before
        likeError.value = (e as Error).message
      })
    } finally {
      inFlightLikes.set(id, inFlightLikes.get(id)! - 1)
    }
  }
  const onLike = () => {
    const id = detail.peek()?.id
    if (id != null) void like(id)
  }
  $('.like').addEventListener('click', onLike)

  // ---- infinite list: pages fetched with loop(), appended in chunks with yieldToMain() ----
  const feed = new Signal<Item[]>([])
  const feedFor = new Signal<string | null>(null)
  const feedDone = new Signal(false)
  bindings.push(computed(() => `${feed.value.length} items${feedDone.value ? '' : '…'}`).bind($('.feed-status')))
  // The list appends what was added (the rendered prefix is kept), or starts over.
  let shown: Item[] = []
  disposers.push(
    effect(() => {
      const items = feed.value
      const ol = $('.feed')
      if (shown.length > items.length || shown.some((it, i) => items[i] !== it)) ol.replaceChildren(), (shown = [])
      for (let i = shown.length; i < items.length; i++) {
        const li = document.createElement('li')
        li.textContent = items[i]!.title
        ol.append(li)
      }
      shown = items.slice()
    }),
  )
  let current: Loop | undefined
  if (withFeed) disposers.push(
    effect(() => {
      const text = q.value
      counts.feedRuns++
      const ctrl = new AbortController()
      batch(() => {
        feed.value = []
        feedFor.value = text
        feedDone.value = false
      })
      let page = 0
      const l = (current = loop(async () => {
        const res = await fetch(`/page?q=${encodeURIComponent(text)}&page=${page++}`, { signal: ctrl.signal })
        if (!res.ok) throw new Error(`page failed: HTTP ${res.status}`)
        const items: Item[] = await res.json()
        for (let i = 0; i < items.length; i += chunk) {
          if (ctrl.signal.aborted) return false
          feed.value = [...feed.value, ...items.slice(i, i + chunk)]
          await yieldToMain()
        }
        if (items.length < 25) feedDone.value = true
        return items.length == 25
      }))
      // A stopped loop's step in flight rejects with the AbortError: handled here, or it is an unhandled rejection.
      counts.loopsActive++
      l.done.catch((e) => isAbort(e) || counts.doneErrors.push(e)).finally(() => counts.loopsActive--)
      return () => {
        counts.feedCleanups++
        l.stop()
        ctrl.abort()
      }
    }),
  )

  function dispose(): void {
    for (const b of bindings) b.dispose()
    for (const d of disposers) d()
    $('.results').removeEventListener('click', onClick)
    $('.retry').removeEventListener('click', onRetry)
    $('.d-retry').removeEventListener('click', onDetailRetry)
    $('.like').removeEventListener('click', onLike)
  }

  return {
    $,
    query,
    results,
    resultsFor,
    loading,
    error,
    selectedId,
    selected,
    detail,
    detailError,
    likes,
    likeError,
    feed,
    feedFor,
    feedDone,
    counts,
    like,
    get loop() {
      return current
    },
    dispose,
  }
}

export type App = ReturnType<typeof mountApp>
