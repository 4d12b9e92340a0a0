// The soak trial's app: an app-wide store of signals that lives all day, and "cards" (components) that come and
// go, each with signals, computeds, effects with cleanups, a subscription and a binding of every kind, as a
// single-page app that stays open all day mounts and unmounts them.
import { Signal, batch, computed, effect, type Binding, type Dispose } from '@eddy/signal'

export interface Store {
  user: Signal<string>
  theme: Signal<string>
  count: Signal<number>
  online: Signal<boolean>
  tags: Signal<string[]>
}

export const makeStore = (): Store => ({
  user: new Signal('ada'),
  theme: new Signal('light'),
  count: new Signal(0),
  online: new Signal(true),
  tags: new Signal<string[]>([]),
})

export interface Counters {
  mounted: number
  unmounted: number
  effectRuns: number
  cleanups: number
  subCalls: number
  thrown: number
}

export const makeCounters = (): Counters => ({ mounted: 0, unmounted: 0, effectRuns: 0, cleanups: 0, subCalls: 0, thrown: 0 })

const sanitize = (html: string) => html.replace(/</g, '&lt;')

export interface Card {
  root: HTMLElement
  /** Types into the card's fields as a user would (input/change events). */
  type(n: number): void
  /** Makes the card's failing effect throw at its next run (an error to be reported, not lost). */
  arm(): void
  /** What the card should show for the store's current values. */
  expected(): { h2: string; name: string }
  /** Disposes everything and removes the node (dispose = false: removes it only, as a route change might). */
  unmount(dispose?: boolean): void
}

/** Mounts card `i` into `parent`. */
export function mountCard(parent: HTMLElement, store: Store, i: number, c: Counters): Card {
  const root = document.createElement('section')
  root.className = 'card'
  root.innerHTML = `
    <h2></h2><span class="badge"></span><div class="html"></div><p class="count"></p>
    <input class="name"><input class="qty" type="number"><input class="ok" type="checkbox">
    <select class="pick"><option>a</option><option>b</option><option>c</option></select>
    <select class="tags" multiple><option>x</option><option>y</option><option>z</option></select>
    <input type="radio" name="r${i}" value="s"><input type="radio" name="r${i}" value="m"><textarea></textarea>`
  parent.appendChild(root)
  const $ = <E extends Element>(sel: string) => root.querySelector<E>(sel)!

  // Local state.
  const name = new Signal(`card ${i}`)
  const qty = new Signal(i % 7)
  const ok = new Signal(i % 2 == 0)
  const pick = new Signal('b')
  const tags = new Signal<string[]>(['y'])
  const size = new Signal('m')
  const note = new Signal('')
  const boom = new Signal(false)

  // Derived state, from the store and the card.
  const title = computed(() => `${store.user.value} / ${name.value} (${store.count.value})`)
  const width = computed(() => (qty.value * 10) % 100)
  const badge = computed(() => (ok.value && store.online.value ? 'on' : 'off'))
  const html = computed(() => `<b>${store.theme.value}</b> ${note.value}`)

  const bindings: Binding[] = [
    title.bind($('h2')),
    badge.bind($('.badge'), { attr: 'data-state' }),
    store.online.bind($('.badge'), { class: 'online' }),
    width.bind($('.badge'), { style: 'width', format: (v) => `${v}%` }),
    name.bind($('.badge'), 'title'),
    html.bind($('.html'), { html: true, sanitize }),
    store.count.bind($('.count'), { format: (v) => `#${v}` }),
    name.bind($('.name'), { model: 'input' }),
    qty.bind($('.qty'), { model: 'input' }),
    ok.bind($('.ok'), { model: 'change' }),
    pick.bind($('.pick'), { model: 'change' }),
    tags.bind($('.tags'), { model: 'change' }),
    ...[...root.querySelectorAll('input[type=radio]')].map((r) => size.bind(r, { model: 'change' })),
    note.bind($('textarea'), { model: 'input' }),
  ]

  const stops: Dispose[] = [
    effect(() => {
      c.effectRuns++
      root.dataset.theme = store.theme.value
      const id = `${title.value}:${width.value}`
      return () => {
        c.cleanups++
        void id
      }
    }),
    effect(() => {
      if (boom.value && store.count.value >= 0) {
        c.thrown++
        throw new Error(`boom ${i}`)
      }
    }),
    store.tags.subscribe((v) => void (c.subCalls += v.length >= 0 ? 1 : 0)),
  ]
  // A listener of the card's own, on its root (a component closure that reaches the node).
  const onClick = () => root.classList.toggle('picked')
  root.addEventListener('click', onClick)
  c.mounted++

  const fire = (el: Element, type: string) => el.dispatchEvent(new Event(type, { bubbles: true }))
  return {
    root,
    type(n) {
      const input = $<HTMLInputElement>('.name')
      input.value = `typed ${n}`
      fire(input, 'input')
      const q = $<HTMLInputElement>('.qty')
      q.value = String(n % 50)
      fire(q, 'input')
      const box = $<HTMLInputElement>('.ok')
      box.click()
      const sel = $<HTMLSelectElement>('.pick')
      sel.value = ['a', 'b', 'c'][n % 3]!
      fire(sel, 'change')
      const multi = $<HTMLSelectElement>('.tags')
      for (const o of multi.options) o.selected = o.value != 'y'
      fire(multi, 'change')
      root.querySelector<HTMLInputElement>('input[value=s]')!.click()
      const area = $<HTMLTextAreaElement>('textarea')
      area.value = `note ${n}`
      fire(area, 'input')
    },
    arm() {
      boom.value = true
    },
    expected: () => ({ h2: title.value, name: name.value }),
    unmount(dispose = true) {
      if (dispose) {
        batch(() => {
          for (const b of bindings) b.dispose()
          for (const s of stops) s()
        })
        root.removeEventListener('click', onClick)
      }
      root.remove()
      c.unmounted++
    },
  }
}
