// A fake server for the async-app trial, implemented in the page: a `fetch`-shaped function returning real
// `Response`s, on a virtual clock the test drives. Each request gets a random delay (seeded), and may fail with a
// 500 or a network error. `advance(ms)` delivers, in due order, the responses due within `ms`; `drain()` delivers
// all of them. Aborts behave as in a browser: `fetch` rejects with an `AbortError` at once, and the body of a
// response delivered before the abort rejects too (`res.json()` of an aborted request).
//
// Counters let a test see leaks: every request must end delivered, failed or aborted, and every abort listener the
// server added must be removed again.

export interface ServerOptions {
  /** Delay range, in virtual ms. */
  minDelay?: number
  maxDelay?: number
  /** Chance that a request fails (half as HTTP 500, half as a network TypeError). */
  failRate?: number
}

export interface Item {
  id: number
  title: string
}

interface Pending {
  seq: number
  url: string
  due: number
  fail: 'none' | '500' | 'network'
  signal?: AbortSignal
  resolve(r: Response): void
  reject(e: unknown): void
  cleanup(): void
}

export const abortError = () => new DOMException('The operation was aborted.', 'AbortError')
export const isAbort = (e: unknown) => (e as any)?.name === 'AbortError'

/** The data the server knows: items whose title contains the query (a deterministic catalogue). */
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu']
export const catalogue: Item[] = Array.from({ length: 600 }, (_, i) => ({
  id: i,
  title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 5 + 3) % WORDS.length]} ${i}`,
}))
export const searchFor = (q: string): Item[] => catalogue.filter((it) => it.title.includes(q)).slice(0, 20)
export const PAGE = 25
export const pageFor = (q: string, page: number): Item[] =>
  catalogue.filter((it) => it.title.includes(q)).slice(page * PAGE, page * PAGE + PAGE)

export function fakeServer(rand: () => number, options: ServerOptions = {}) {
  const { minDelay = 1, maxDelay = 100, failRate = 0 } = options
  let now = 0
  let seq = 0
  const pending: Pending[] = []
  // Likes, the server's truth for optimistic updates.
  const likes = new Map<number, number>()
  // Requests that must fail next, by URL prefix (a test forcing a failure).
  const forced: string[] = []
  const stats = { started: 0, delivered: 0, failed: 0, aborted: 0, listeners: 0, urls: [] as string[] }

  function route(url: URL, method: string): unknown {
    const p = url.pathname
    if (p == '/search') return searchFor(url.searchParams.get('q') ?? '')
    if (p == '/page') return pageFor(url.searchParams.get('q') ?? '', +url.searchParams.get('page')!)
    if (p.startsWith('/item/')) {
      const id = +p.slice(6)
      return { id, title: catalogue[id]!.title, body: `details of ${id}`, likes: likes.get(id) ?? 0 }
    }
    if (p.startsWith('/like/') && method == 'POST') {
      const id = +p.slice(6)
      likes.set(id, (likes.get(id) ?? 0) + 1)
      return { id, likes: likes.get(id) }
    }
    throw new Error('no route ' + p)
  }

  function fetch(input: string, init: RequestInit = {}): Promise<Response> {
    const signal = init.signal ?? undefined
    stats.started++
    stats.urls.push(input)
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) {
        stats.aborted++
        return reject(abortError())
      }
      const f = forced.findIndex((prefix) => input.startsWith(prefix))
      const fail = f >= 0 ? (forced.splice(f, 1), '500' as const) : rand() < failRate ? (rand() < 0.5 ? '500' : 'network') : 'none'
      const p: Pending = {
        seq: seq++,
        url: input,
        due: now + minDelay + Math.floor(rand() * (maxDelay - minDelay + 1)),
        fail,
        signal,
        resolve,
        reject,
        cleanup: () => {
          if (signal) signal.removeEventListener('abort', onAbort), stats.listeners--
          pending.splice(pending.indexOf(p), 1)
        },
      }
      const onAbort = () => {
        p.cleanup()
        stats.aborted++
        reject(abortError())
      }
      if (signal) signal.addEventListener('abort', onAbort), stats.listeners++
      pending.push(p)
      // What the request does happens at once on the server (a like is counted even if the client aborts later):
      // computed at delivery for reads, here for writes.
      if (init.method == 'POST' && fail == 'none') (p as any).body = route(new URL(input, 'http://x'), 'POST')
    })
  }

  function deliver(p: Pending): void {
    p.cleanup()
    if (p.fail == 'network') {
      stats.failed++
      return p.reject(new TypeError('Failed to fetch'))
    }
    if (p.fail == '500') {
      stats.failed++
      return p.resolve(new Response('{"error":"boom"}', { status: 500 }))
    }
    stats.delivered++
    const body = (p as any).body ?? route(new URL(p.url, 'http://x'), 'GET')
    const text = JSON.stringify(body)
    const res = new Response(text, { status: 200, headers: { 'content-type': 'application/json' } })
    // As a browser does: the body of an aborted request's response rejects. Read in a microtask (a real body is read
    // in a later task, which the virtual clock would not see).
    const signal = p.signal
    res.json = async () => {
      if (signal?.aborted) throw abortError()
      return JSON.parse(text)
    }
    p.resolve(res)
  }

  /** Lets the microtasks queued by a delivery run (the app's `await res.json()` and what follows). */
  const settleMicrotasks = async () => {
    for (let i = 0; i < 8; i++) await Promise.resolve()
  }

  return {
    fetch,
    stats,
    likes,
    get now() {
      return now
    },
    get pending() {
      return pending.length
    },
    pendingUrls: () => pending.map((p) => p.url),
    /** The next request to `prefix` fails with a 500. */
    failNext(prefix: string) {
      forced.push(prefix)
    },
    /** Moves the clock by `ms`, delivering what comes due, in due order, with the app's microtasks in between. */
    async advance(ms: number) {
      const until = now + ms
      for (;;) {
        let next: Pending | undefined
        for (const p of pending) if (p.due <= until && (!next || p.due < next.due || (p.due == next.due && p.seq < next.seq))) next = p
        if (!next) break
        now = next.due
        deliver(next)
        await settleMicrotasks()
      }
      now = until
    },
    /** Delivers every pending response, including those the app's reaction starts meanwhile. */
    async drain() {
      for (let guard = 0; pending.length && guard < 10_000; guard++) {
        const due = Math.min(...pending.map((p) => p.due))
        await this.advance(due - now)
      }
      await settleMicrotasks()
    },
  }
}

export type FakeServer = ReturnType<typeof fakeServer>
