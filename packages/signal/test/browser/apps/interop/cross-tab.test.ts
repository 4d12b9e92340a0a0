// A store shared between tabs (a user trial): a Signal mirrored through BroadcastChannel and `storage` events, in
// two same-origin iframes that each load their own copy of eddy's shipped dist (as two tabs would), bound to DOM in
// both. The tabs' code runs with the frame's own BroadcastChannel, localStorage and storage events.
import { afterEach, describe, expect, it } from 'vitest'
import { observe } from '../../dom.ts'
import { distCopy } from '../../dist-copy.ts'

type Eddy = typeof import('@eddy/signal')
const copy = () => distCopy<Eddy>('signal')

const frames: HTMLIFrameElement[] = []
afterEach(() => {
  frames.splice(0).forEach((f) => f.remove())
  localStorage.clear()
})

interface Tab {
  win: Window & typeof globalThis
  eddy: Eddy
  out: HTMLOutputElement
  field: HTMLInputElement
}
async function tab(): Promise<Tab> {
  const f = document.createElement('iframe')
  f.srcdoc = '<!doctype html><input id=f><output id=o></output>'
  const loaded = new Promise((r) => (f.onload = r))
  document.body.append(f)
  frames.push(f)
  await loaded
  const doc = f.contentDocument!
  return { win: f.contentWindow as Window & typeof globalThis, eddy: await copy(), out: doc.querySelector('output')!, field: doc.querySelector('input')! }
}
/**
 * Waits until `cond()` holds, polling every few ms (messages and storage events are tasks, delivered in their own
 * time: on a loaded machine they take longer, so no fixed sleep is long enough). Fails after `timeout` ms.
 */
async function until(cond: () => boolean, what: string, timeout = 10_000): Promise<void> {
  const end = Date.now() + timeout
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

/**
 * A marker round trip on a BroadcastChannel, to wait a quiet period counted in delivered messages, not in time: the
 * channel that calls `sync()` posts a ping after what it sent; the other tab's channel of that name answers with a
 * pong after what it sent. A channel delivers in order, so once the pong is back, everything this side sent before
 * the ping has arrived there, and everything that side sent before its pong (echoes too) has arrived here.
 * The stores below ignore markers (`isMark`).
 */
const MARK = '__mark__'
type Mark = { [MARK]: 'ping' | 'pong'; id: number }
const isMark = (d: unknown): d is Mark => typeof d == 'object' && d != null && MARK in d
let marks = 0
function marker(bc: BroadcastChannel): () => Promise<void> {
  const pongs = new Set<number>()
  bc.addEventListener('message', (e) => {
    if (!isMark(e.data)) return
    if (e.data[MARK] == 'ping') bc.postMessage({ [MARK]: 'pong', id: e.data.id })
    else pongs.add(e.data.id)
  })
  return async () => {
    const id = ++marks
    bc.postMessage({ [MARK]: 'ping', id })
    await until(() => pongs.has(id), `the marker round trip ${id}`)
  }
}

/**
 * The store a user writes: a Signal whose changes go out on a BroadcastChannel (and into localStorage), and whose
 * messages come in as writes. `remote` suppresses the echo: subscribers run synchronously during the write.
 * `obvious: true` is the first version, which sends what `subscribe` calls back with at once (the value now) too.
 */
function shared<T>(
  t: Tab,
  key: string,
  initial: T,
  opts: { equals?: (a: T, b: T) => boolean; storage?: boolean; obvious?: boolean } = {},
) {
  const stored = opts.storage ? t.win.localStorage.getItem(key) : null
  const s = new t.eddy.Signal<T>(stored != null ? JSON.parse(stored) : initial, { equals: opts.equals })
  const bc = new t.win.BroadcastChannel(key)
  const sent: T[] = []
  const got: T[] = [] // messages received (markers aside), to wait for their delivery
  const sync = marker(bc)
  let remote = false
  const apply = (v: T) => {
    remote = true
    try {
      s.value = v
    } finally {
      remote = false
    }
  }
  bc.onmessage = (e: MessageEvent<T>) => {
    if (isMark(e.data)) return
    got.push(e.data)
    apply(e.data)
  }
  let first = !opts.obvious
  const off = s.subscribe((v) => {
    if (first) return void (first = false) // the call made at once is not a change
    if (remote) return
    sent.push(v)
    if (opts.storage) t.win.localStorage.setItem(key, JSON.stringify(v))
    bc.postMessage(v)
  })
  return { s, sent, got, sync, apply, dispose: () => (off(), bc.close()) }
}

// The waits poll for up to 10 s each (a loaded machine): a test may take longer than Vitest's default timeout.
describe('a Signal mirrored through BroadcastChannel between two tabs', { timeout: 60_000 }, () => {
  it('a write in one tab renders in both; typing in one field updates the other; no echo comes back', async () => {
    const [a, b] = [await tab(), await tab()]
    const A = shared(a, 'count', 0)
    const B = shared(b, 'count', 0)
    A.s.bind(a.out)
    B.s.bind(b.out)
    A.s.bind(a.field, { model: 'input' })
    B.s.bind(b.field, { model: 'input' })
    A.s.value = 5
    await until(() => B.got.length == 1, "A's 5 in tab B")
    await A.sync() // and B rendered it (a microtask of the message's task), and no echo of B's is in flight
    expect([a.out.textContent, b.out.textContent, b.field.value]).toEqual(['5', '5', '5'])
    b.field.value = '42'
    b.field.dispatchEvent(new Event('input'))
    await until(() => A.got.length == 1, "B's 42 in tab A")
    await B.sync() // quiet: an echo of A's would have come back to B before the marker, and gone into A.sent
    expect([A.s.peek(), a.out.textContent, a.field.value]).toEqual([42, '42', '42'])
    expect([A.got, B.got]).toEqual([[42], [5]]) // each tab received the other's one write, nothing more
    expect([A.sent, B.sent]).toEqual([[5], [42]]) // one message per write, none echoed
    A.dispose()
    B.dispose()
  })

  it('1,000 writes in one task of tab A: 1,000 messages, and tab B renders its output once per message task at most', async () => {
    const [a, b] = [await tab(), await tab()]
    const A = shared(a, 'n', 0)
    const B = shared(b, 'n', 0)
    B.s.bind(b.out)
    b.eddy.flush()
    const rec = observe(b.out)
    for (let i = 1; i <= 1000; i++) A.s.value = i
    await until(() => B.got.length == 1000, 'the 1,000 messages in tab B')
    await A.sync() // quiet: nothing more was in flight behind them
    const writes = rec.stop().length
    expect(B.s.peek()).toBe(1000) // in order: the last one wins
    expect(b.out.textContent).toBe('1000')
    // Each message is its own task, so the default 'microtask' schedule renders after each one that changed it
    expect(writes).toBe(1000) // one DOM write per message (1,000 in Chromium 156)
    A.dispose()
    B.dispose()
  })

  it("the same 1,000 messages with B on 'animationFrame' render a few times, not 1,000 (README: folds writes of several tasks)", async () => {
    const [a, b] = [await tab(), await tab()]
    const A = shared(a, 'n2', 0)
    const B = shared(b, 'n2', 0)
    b.eddy.configure({ schedule: 'animationFrame' })
    B.s.bind(b.out)
    b.eddy.flush()
    const rec = observe(b.out)
    for (let i = 1; i <= 1000; i++) A.s.value = i
    await until(() => B.got.length == 1000, 'the 1,000 messages in tab B')
    await until(() => b.out.textContent == '1000', "B's frame that renders the last one")
    await A.sync() // quiet: nothing more was in flight behind them
    await new Promise((r) => requestAnimationFrame(r)) // and no render was still due
    const writes = rec.stop().length
    expect(b.out.textContent).toBe('1000')
    expect(writes).toBeLessThan(100)
    A.dispose()
    B.dispose()
  })

  it('two signals written in one batch go as two messages: the other tab runs its effect twice and once sees half of it', async () => {
    const [a, b] = [await tab(), await tab()]
    const [A1, A2] = [shared(a, 'first', 'Ada'), shared(a, 'last', 'Lovelace')]
    const [B1, B2] = [shared(b, 'first', 'Ada'), shared(b, 'last', 'Lovelace')]
    const full = b.eddy.computed(() => `${B1.s.value} ${B2.s.value}`)
    const seen: string[] = []
    const stop = b.eddy.effect(() => void seen.push(full.value))
    seen.length = 0
    a.eddy.batch(() => {
      A1.s.value = 'Grace'
      A2.s.value = 'Hopper'
    })
    await until(() => B1.got.length == 1 && B2.got.length == 1, 'both messages in tab B')
    await A1.sync() // quiet, on each channel: nothing more was in flight
    await A2.sync()
    expect(seen).toEqual(['Grace Lovelace', 'Grace Hopper'])
    stop()
    ;[A1, A2, B1, B2].forEach((x) => x.dispose())
  })

  it("subscribe's immediate call, sent: a tab opened later broadcasts its initial value and resets the other tabs", async () => {
    const a = await tab()
    const A = shared(a, 'cart', 0, { obvious: true })
    A.s.value = 3
    const b = await tab()
    const B = shared(b, 'cart', 0, { obvious: true }) // no storage: B starts from the default, posted at once
    await until(() => A.got.length == 1, "B's initial value in tab A")
    await B.sync() // quiet: no answer of A's (which would restore 3) was in flight
    expect([A.got, B.got]).toEqual([[0], []])
    expect(B.sent).toEqual([0])
    expect(A.s.peek()).toBe(0) // tab A lost its 3
    A.dispose()
    B.dispose()
  })

  it("subscribe's immediate call, sent: both tabs start at 0, A writes 5 before B's initial 0 arrives: they disagree for good", async () => {
    const [a, b] = [await tab(), await tab()]
    const A = shared(a, 'count', 0, { obvious: true })
    const B = shared(b, 'count', 0, { obvious: true })
    A.s.bind(a.out)
    B.s.bind(b.out)
    A.s.value = 5 // B's initial 0 is still in flight to A
    await until(() => A.got.length == 1 && B.got.length == 1, "B's 0 in A, A's 5 in B") // (A's 0 went before B listened)
    await A.sync() // "for good": nothing more was in flight either way (and both rendered: microtasks of those tasks)
    expect([A.got, B.got]).toEqual([[0], [5]])
    expect([a.out.textContent, b.out.textContent]).toEqual(['0', '5'])
    A.dispose()
    B.dispose()
  })

  it('equals: a message that the receiving signal finds equal is dropped, so the tabs keep different objects', async () => {
    const [a, b] = [await tab(), await tab()]
    type U = { id: number; name: string }
    const equals = (x: U, y: U) => x.id === y.id
    const A = shared<U>(a, 'user', { id: 1, name: 'a' }, { equals })
    const B = shared<U>(b, 'user', { id: 1, name: 'a' }, { equals })
    A.sent.length = 0
    A.s.value = { id: 1, name: 'renamed' } // equal by id: a no-op in A itself, so nothing is sent
    expect(A.sent).toEqual([])
    B.apply({ id: 1, name: 'renamed' }) // as if a message came: dropped too
    expect(B.s.peek().name).toBe('a')
    A.dispose()
    B.dispose()
  })

  it('concurrent writes (one per tab, same task) cross on the channel and the tabs end swapped, not agreed', async () => {
    const [a, b] = [await tab(), await tab()]
    const A = shared(a, 'x', 0)
    const B = shared(b, 'x', 0)
    A.s.value = 1
    B.s.value = 2
    await until(() => A.got.length == 1 && B.got.length == 1, 'each write in the other tab')
    await A.sync() // quiet: no echo was in flight that could end them agreed
    expect([A.s.peek(), B.s.peek()]).toEqual([2, 1])
    A.dispose()
    B.dispose()
  })

  it('a write stamped (time, tab id), the last stamp wins: concurrent writes end agreed', async () => {
    const [a, b] = [await tab(), await tab()]
    type Stamped = { v: number; at: number; by: string }
    const newer = (x: Stamped, y: Stamped) => x.at > y.at || (x.at == y.at && x.by > y.by)
    const mk = (t: Tab, by: string) => {
      const s = new t.eddy.Signal<Stamped>({ v: 0, at: 0, by: '' })
      const bc = new t.win.BroadcastChannel('stamped')
      let got = 0
      bc.onmessage = (e: MessageEvent<Stamped>) => !isMark(e.data) && (got++, newer(e.data, s.peek()) && (s.value = e.data))
      const set = (v: number) => {
        s.value = { v, at: Date.now(), by }
        bc.postMessage(s.peek())
      }
      return { s, set, got: () => got, sync: marker(bc), dispose: () => bc.close() }
    }
    const A = mk(a, 'a')
    const B = mk(b, 'b')
    A.set(1)
    B.set(2)
    await until(() => A.got() == 1 && B.got() == 1, 'each write in the other tab')
    await A.sync() // quiet: nothing more was in flight
    expect(A.s.peek().v).toBe(B.s.peek().v)
    A.dispose()
    B.dispose()
  })
})

/**
 * The same marker round trip through localStorage (key MARK): storage events of one storage area are tasks of one
 * task source, delivered in the order of the writes, so once the pong is back, every event of this tab's earlier
 * writes has reached the other tab, and every event of the other tab's writes before its pong has reached this one.
 */
function storageMarker(t: Tab): () => Promise<void> {
  const pongs = new Set<string>()
  t.win.addEventListener('storage', (e) => {
    if (e.key != MARK || e.storageArea != t.win.localStorage) return
    const [kind, id] = e.newValue!.split(':') as [string, string]
    if (kind == 'ping') t.win.localStorage.setItem(MARK, `pong:${id}`)
    else pongs.add(id)
  })
  return async () => {
    const id = String(++marks)
    t.win.localStorage.setItem(MARK, `ping:${id}`)
    await until(() => pongs.has(id), `the storage marker round trip ${id}`)
  }
}

describe('through storage events', { timeout: 60_000 }, () => {
  it('localStorage: the other tab gets one storage event per change; the echoing setItem of the same text fires none', async () => {
    const [a, b] = [await tab(), await tab()]
    const mk = (t: Tab) => {
      const s = new t.eddy.Signal<number>(JSON.parse(t.win.localStorage.getItem('k') ?? '0'))
      let events = 0
      t.win.addEventListener('storage', (e) => {
        if (e.key != 'k' || e.storageArea != t.win.localStorage) return
        events++
        s.value = JSON.parse(e.newValue!)
      })
      const off = s.subscribe((v) => t.win.localStorage.setItem('k', JSON.stringify(v)))
      return { s, events: () => events, off, sync: storageMarker(t) }
    }
    const A = mk(a)
    const B = mk(b)
    B.s.bind(b.out)
    A.s.value = 7
    await until(() => B.s.peek() == 7, "A's 7 in tab B") // B wrote its 7 back (during the event), before A writes 8
    A.s.value = 8
    await until(() => B.s.peek() == 8, "A's 8 in tab B")
    await A.sync() // quiet: the events of A's writes all reached B, and of B's write-backs (if any) reached A
    expect([B.s.peek(), b.out.textContent]).toEqual([8, '8'])
    // B's: A's subscribe wrote '0' at once (an event too), then '7' and '8'; B's write-backs of the same text fired none
    expect([A.events(), B.events()]).toEqual([0, 3])
    A.off()
    B.off()
  })

  it('BroadcastChannel and storage both: each write arrives twice, and the late copies rewind the other tab through old values', async () => {
    const [a, b] = [await tab(), await tab()]
    const A = shared(a, 'both', 0, { storage: true })
    const B = shared(b, 'both', 0, { storage: true })
    const seen: number[] = []
    const off = B.s.subscribe((v) => seen.push(v))
    seen.length = 0
    let events = 0
    b.win.addEventListener('storage', (e) => e.key == 'both' && (events++, B.apply(JSON.parse(e.newValue!))))
    for (let i = 1; i <= 5; i++) A.s.value = i
    await until(() => B.got.length == 5 && events == 5, 'the 5 messages and the 5 storage events in tab B')
    await A.sync() // quiet: nothing more was in flight on the channel
    expect(B.s.peek()).toBe(5)
    // The two channels deliver separately: B (and its DOM) goes 1..5 by the channel, then back through 1..5 again
    // by storage events, each a change. Counted, not timed: at least one step back to an older value.
    const backs = seen.filter((v, i) => i > 0 && v < seen[i - 1]!).length
    expect(seen.length).toBeGreaterThan(5) // Chromium 156: 1,2,3,4,5,1,2,3,4,5
    expect(backs).toBeGreaterThanOrEqual(1)
    off()
    A.dispose()
    B.dispose()
  })
})
