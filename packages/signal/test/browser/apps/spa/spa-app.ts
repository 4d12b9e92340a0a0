// The SPA trial's app: a dashboard that stays open all day. A global store lives for the session, a live feed writes
// it ~50 times a second, a router swaps views, and each view builds its DOM, signals, computeds, effects (one of
// them nested), a subscription, bindings of every kind (text, attr, class, style, model) and, for some views, a
// widget computed read by the store's own effect, a loop() and a monitor(). Views are torn down three ways.
import { Signal, batch, computed, effect, type Binding, type Computed, type Dispose } from '@eddy/signal'
import { loop, monitor, type Loop, type Monitor } from '@eddy/scheduler'

export interface Store {
  route: Signal<string>
  user: Signal<string>
  theme: Signal<string>
  tick: Signal<number>
  prices: Signal<number[]>
  online: Signal<boolean>
  query: Signal<string>
  /** Computeds registered by views; the store's own effect sums them. */
  widgets: Signal<Computed<number>[]>
  /** Written by the store's effect. */
  total: Signal<number>
}

export const makeStore = (): Store => ({
  route: new Signal('home'),
  user: new Signal('ada'),
  theme: new Signal('light'),
  tick: new Signal(0),
  prices: new Signal<number[]>([1, 2, 3]),
  online: new Signal(true),
  query: new Signal(''),
  widgets: new Signal<Computed<number>[]>([]),
  total: new Signal(0),
})

/** The store's session-long effects and the shell's bindings (a status bar that lives on). */
export function startSession(store: Store, shell: HTMLElement): Dispose {
  const status = shell.appendChild(document.createElement('span'))
  const stops = [
    effect(() => {
      let sum = 0
      for (const w of store.widgets.value) sum += w.value
      store.total.value = sum
    }),
  ]
  const bindings = [store.tick.bind(status, { format: (t) => `tick ${t}` }), store.total.bind(status, { attr: 'data-total' })]
  return Object.assign(() => {
    for (const s of stops) s()
    for (const b of bindings) b.dispose()
    status.remove()
  }, { [Symbol.dispose]: () => {} }) as Dispose
}

/** The live feed's write: what 20 ms of a market feed does to the store. */
export function feed(store: Store, n: number): void {
  batch(() => {
    store.tick.value = n
    if (n % 4 == 0) store.prices.value = store.prices.peek().map((p, i) => p + ((n + i) % 3) - 1)
    if (n % 97 == 0) store.online.value = !store.online.peek()
  })
}

export type Teardown = 'careful' | 'careless' | 'half'

export interface Features {
  /** Registers a computed in store.widgets (read by the store's effect). */
  widget?: boolean
  /** Runs a loop() of its own while shown. */
  loop?: boolean
  /** Runs a monitor() of its own while shown. */
  monitor?: boolean
}

export interface Tally {
  views: number
  effectRuns: number
  innerRuns: number
  cleanups: number
  subCalls: number
  steps: number
}
export const makeTally = (): Tally => ({ views: 0, effectRuns: 0, innerRuns: 0, cleanups: 0, subCalls: 0, steps: 0 })

export interface View {
  root: HTMLElement
  /** What the view shows for the store now. */
  expectedTitle(): string
  leave(how: Teardown): void
}

// A widget computed made in a function of its own, so its getter reaches no node (README, bind: "Make such a
// computed in a function of its own").
const titleOf = (store: Store, local: Signal<number>, kind: string) =>
  computed(() => `${store.user.value} #${local.value} ${kind}`)
const widthOf = (store: Store, local: Signal<number>) => computed(() => (store.tick.value + local.value) % 100)
const widgetOf = (store: Store, local: Signal<number>) => computed(() => store.prices.value[0]! + local.value)

/** Mounts view `i` into `outlet`. */
export function mountView(outlet: HTMLElement, store: Store, i: number, t: Tally, f: Features = {}): View {
  const root = outlet.appendChild(document.createElement('section'))
  root.innerHTML = `<h1></h1><p class="price"></p><div class="bar"></div><input class="q"><input class="local">
    <input type="checkbox" class="ok"><select class="pick"><option>a</option><option>b</option></select><output></output>`
  const $ = <E extends Element = HTMLElement>(sel: string) => root.querySelector<E>(sel)!
  const local = new Signal(i)
  const note = new Signal(`note ${i}`)
  const ok = new Signal(i % 2 == 0)
  const pick = new Signal('a')
  root.dataset.kind = `v${i % 3}`
  root.dataset.i = String(i)
  const title = titleOf(store, local, root.dataset.kind)
  const width = widthOf(store, local)

  const bindings: Binding[] = [
    local.bind($('output')),
    store.prices.bind($('.price'), { format: (p) => `${p.join(' / ')} (${root.id})` }),
    store.tick.bind($('.price'), { attr: 'data-tick' }),
    store.online.bind($('.price'), { class: 'online' }),
    width.bind($('.bar'), { style: 'width', format: (w) => `${w}%` }),
    store.query.bind($('.q'), { model: 'input' }),
    note.bind($('.local'), { model: 'input' }),
    ok.bind($('.ok'), { model: 'change' }),
    pick.bind($('.pick'), { model: 'change' }),
    title.bind($('h1')),
  ]

  const stops: Dispose[] = [
    effect(() => {
      t.effectRuns++
      root.dataset.theme = store.theme.value
      const w = width.value
      return () => void (t.cleanups++, w)
    }),
    // Nested: the outer runs at each theme change and makes an inner one, disposed in the outer's cleanup.
    effect(() => {
      if (store.theme.value == 'off') return
      return effect(() => {
        t.innerRuns++
        root.title = `${store.tick.value}`
      })
    }),
    store.prices.subscribe((p) => void (t.subCalls += p.length > 0 ? 1 : 0)),
  ]
  let widget: Computed<number> | undefined
  if (f.widget) {
    widget = widgetOf(store, local)
    store.widgets.value = [...store.widgets.peek(), widget]
  }
  let l: Loop | undefined
  let m: Monitor | undefined
  if (f.loop) {
    const work = { rows: new Array(64).fill(i) } // the view's data, which its step reaches
    l = loop(() => {
      t.steps++
      work.rows[t.steps % 64] = root.childElementCount
      return true
    }, { budgetMs: 1 })
    l.done.catch(reportError)
  }
  if (f.monitor) {
    m = monitor({ maxLagMs: 100 })
    m.on('pressure', () => root.classList.add('busy'))
    m.on('relief', () => root.classList.remove('busy'))
    void m.turnsPerSecond // starts a probe
  }
  t.views++
  return {
    root,
    expectedTitle: () => `${store.user.peek()} #${local.peek()} ${root.dataset.kind}`,
    leave(how) {
      if (how != 'careless') {
        batch(() => {
          for (const s of stops) s()
          if (widget) store.widgets.value = store.widgets.peek().filter((w) => w !== widget)
        })
        l?.stop()
        m?.stop()
      }
      if (how == 'careful') for (const b of bindings) b.dispose()
      root.remove()
    },
  }
}
