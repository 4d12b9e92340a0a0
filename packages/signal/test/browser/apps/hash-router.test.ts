// A hash-router app shell, as a user of the README would write it: a route signal fed by `hashchange`, an effect
// that mounts the route's view and disposes it in its cleanup. Each view makes bindings (text, model, attr, class,
// style, html) and effects over shared app state, collected in a DisposableStack (Binding and Dispose are
// Disposables, README) or with `using`. Navigates 200 times and checks that nothing is written to detached views,
// that no subscriber is left behind on the shared signals, and that the DOM is right after each `await settled()`.
import { afterEach, describe, expect, it } from 'vitest'
import { Signal, computed, configure, effect, flush, settled, type Binding, type Dispose } from '@eddy/signal'
import { observe, schedules, subscribers } from '../dom.ts'


// The subscriber count of each shared signal.
const counts = (state: ReturnType<typeof app>['state']) =>
  Object.fromEntries(Object.entries(state).map(([name, s]) => [name, subscribers(s)]))

function app(root: HTMLElement) {
  // Shared app state, living for the whole session.
  const user = new Signal('Ada')
  const cart = new Signal<string[]>(['tea'])
  const theme = new Signal<'light' | 'dark'>('light')
  const clicks = new Signal(0)
  const route = new Signal(location.hash.slice(1) || 'home')
  const cartSize = computed(() => cart.value.length)
  const onHash = () => (route.value = location.hash.slice(1) || 'home')
  addEventListener('hashchange', onHash)

  const mounts: Record<string, number> = { home: 0, profile: 0, cart: 0 }
  const effectRuns = { live: 0, afterDispose: 0 }
  const detached: HTMLElement[] = []

  const views: Record<string, (el: HTMLElement, stack: DisposableStack) => void> = {
    home(el, stack) {
      el.innerHTML = '<h1></h1><p class="count"></p><button>+</button>'
      stack.use(user.bind(el.querySelector('h1')!, { format: (u) => `Welcome, ${u}` }))
      stack.use(cartSize.bind(el.querySelector('.count')!, { format: (n) => `${n} item(s)` }))
      stack.use(theme.bind(el, { class: 'dark', format: (t) => t === 'dark' }))
      const btn = el.querySelector('button')!
      const onClick = () => clicks.value++
      btn.addEventListener('click', onClick)
      stack.defer(() => btn.removeEventListener('click', onClick))
      stack.use(clicks.bind(btn, { attr: 'data-clicks' }))
    },
    profile(el, stack) {
      el.innerHTML = '<input class="name"><span class="echo"></span><div class="bio"></div>'
      const input = el.querySelector('input')!
      stack.use(user.bind(input, { model: 'input' }))
      stack.use(user.bind(el.querySelector('.echo')!))
      stack.use(user.bind(el.querySelector('.bio')!, { html: true, sanitize: (h) => h.replace(/</g, '&lt;'), format: (u) => `<i>${u}</i>` }))
      // A view effect that writes the DOM by hand (document.title-like side effect).
      const stop = effect(() => {
        const u = user.value
        if (!el.isConnected) effectRuns.afterDispose++
        else effectRuns.live++
        el.dataset.user = u
      })
      stack.use(stop)
    },
    cart(el, stack) {
      el.innerHTML = '<ul></ul><div class="bar"></div>'
      const ul = el.querySelector('ul')!
      // A nested effect that re-renders the list: its own disposal in the stack.
      stack.use(
        effect(() => {
          ul.replaceChildren(...cart.value.map((item) => Object.assign(document.createElement('li'), { textContent: item })))
          if (!el.isConnected) effectRuns.afterDispose++
        }),
      )
      stack.use(cartSize.bind(el.querySelector('.bar')!, { style: 'width', format: (n) => n * 10 }))
      stack.use(cartSize.bind(el.querySelector('.bar')!, { attr: 'aria-valuenow' }))
    },
  }

  const outlet = root.appendChild(document.createElement('main'))
  const stopShell = effect(() => {
    const name = route.value in views ? route.value : 'home'
    const el = outlet.appendChild(document.createElement('section'))
    el.dataset.route = name
    mounts[name]!++
    const stack = new DisposableStack()
    views[name]!(el, stack)
    return () => {
      stack.dispose()
      el.remove()
      detached.push(el)
    }
  })
  return {
    outlet,
    state: { user, cart, theme, clicks, route, cartSize },
    mounts,
    effectRuns,
    detached,
    [Symbol.dispose]() {
      removeEventListener('hashchange', onHash)
      stopShell()
    },
  }
}

const hashchange = () => new Promise<void>((r) => addEventListener('hashchange', () => r(), { once: true }))

afterEach(() => {
  flush()
  configure({ schedule: 'microtask' })
  history.replaceState(null, '', location.pathname + location.search)
  document.body.replaceChildren()
})

describe.each(Object.entries(schedules))('hash-router app shell, schedule %s', (_, schedule) => {
  it('mounts and disposes views over 200 navigations: no writes to detached views, no leaked subscribers', async () => {
    configure({ schedule })
    history.replaceState(null, '', '#home')
    const root = document.body.appendChild(document.createElement('div'))
    using shell = app(root)
    const { state, outlet } = shell
    await settled()
    const baseline = counts(state)
    const routes = ['home', 'profile', 'cart']
    let records: MutationRecord[] = []
    for (let i = 1; i <= 200; i++) {
      const name = routes[i % 3]!
      const changed = hashchange()
      location.hash = name
      await changed
      // Shared state moves while we navigate; detached views must not see it.
      state.user.value = `user${i}`
      state.cart.value = Array.from({ length: i % 5 }, (_, k) => `item${k}`)
      state.theme.value = i % 2 ? 'dark' : 'light'
      state.clicks.value = i
      await settled()
      expect(outlet.children).toHaveLength(1)
      const view = outlet.firstElementChild as HTMLElement
      expect(view.dataset.route).toBe(name)
      if (name === 'home') {
        expect(view.querySelector('h1')!.textContent).toBe(`Welcome, user${i}`)
        expect(view.querySelector('.count')!.textContent).toBe(`${i % 5} item(s)`)
        expect(view.classList.contains('dark')).toBe(i % 2 === 1)
        expect(view.querySelector('button')!.dataset.clicks).toBe(String(i))
      } else if (name === 'profile') {
        expect(view.querySelector('input')!.value).toBe(`user${i}`)
        expect(view.querySelector('.echo')!.textContent).toBe(`user${i}`)
        expect(view.querySelector('.bio')!.innerHTML).toBe(`&lt;i&gt;user${i}&lt;/i&gt;`)
        expect(view.dataset.user).toBe(`user${i}`)
        // two-way still works in the live view
        const input = view.querySelector('input')!
        input.value = `typed${i}`
        input.dispatchEvent(new Event('input', { bubbles: true }))
        expect(state.user.value).toBe(`typed${i}`)
        await settled()
        expect(view.querySelector('.echo')!.textContent).toBe(`typed${i}`)
      } else {
        expect([...view.querySelectorAll('li')].map((li) => li.textContent)).toEqual(state.cart.value)
        expect((view.querySelector('.bar') as HTMLElement).style.width).toBe(i % 5 ? `${(i % 5) * 10}px` : '0px')
        expect(view.querySelector('.bar')!.getAttribute('aria-valuenow')).toBe(String(i % 5))
      }
      // Watch every view detached so far (only the last few, to keep the observer cheap).
      if (i === 150) {
        const watch = shell.detached.slice(-6).map((el) => observe(el))
        const snap = shell.detached.slice(-6).map((el) => el.outerHTML)
        ;(shell as any).watch = { watch, snap }
      }
      // Subscriber counts of shared state do not grow with navigations.
      expect(subscribers(state.user) - baseline.user).toBeLessThanOrEqual(4)
      expect(subscribers(state.cart)).toBeLessThanOrEqual(baseline.cart + 2)
      expect(subscribers(state.theme)).toBeLessThanOrEqual(baseline.theme + 1)
      expect(subscribers(state.clicks)).toBeLessThanOrEqual(baseline.clicks + 1)
      expect(subscribers(state.cartSize)).toBeLessThanOrEqual(baseline.cartSize + 2)
      expect(subscribers(state.route)).toBe(baseline.route)
    }
    const { watch, snap } = (shell as any).watch as { watch: { stop(): MutationRecord[] }[]; snap: string[] }
    records = watch.flatMap((w) => w.stop())
    expect(records).toEqual([])
    expect(shell.detached.slice(-56, -50).map((el) => el.outerHTML)).toEqual(snap)
    expect(shell.effectRuns.afterDispose).toBe(0)
    expect(shell.mounts).toEqual({ home: 67, profile: 67, cart: 67 })
    // After the last route, back home; exact subscriber counts per route.
    location.hash = 'home'
    await hashchange()
    await settled()
    expect(counts(state)).toEqual(baseline)
  })
})

describe.each(Object.entries(schedules))('programmatic navigation in the same task as writes, schedule %s', (_, schedule) => {
  it('drops the pending renders of the view being left (its bindings are disposed before the flush)', async () => {
    configure({ schedule })
    history.replaceState(null, '', '#profile')
    const root = document.body.appendChild(document.createElement('div'))
    using shell = app(root)
    await settled()
    let left = 0
    for (let i = 0; i < 60; i++) {
      const leaving = shell.outlet.firstElementChild as HTMLElement
      // Writes that the current view's bindings would render, then a route change, all before any flush (with a
      // synchronous schedule the bindings render at the write: nothing is pending then). Effects run at the write.
      shell.state.user.value = `u${i}`
      shell.state.cart.value = [`c${i}`]
      shell.state.clicks.value = i
      const before = leaving.innerHTML
      const rec = observe(leaving)
      shell.state.route.value = ['home', 'profile', 'cart'][i % 3]!
      await settled()
      const recs = rec.stop()
      // Each route differs from the one before (from #profile: home, profile, cart, ...): every view is left.
      if (leaving.isConnected) continue
      left++
      expect(recs).toEqual([])
      expect(leaving.innerHTML).toBe(before)
      const view = shell.outlet.firstElementChild as HTMLElement
      if (view.dataset.route === 'home') expect(view.querySelector('h1')!.textContent).toBe(`Welcome, u${i}`)
    }
    expect(left).toBe(60)
    expect(shell.effectRuns.afterDispose).toBe(0)
  })
})

describe('view disposal without a DisposableStack (Chromium)', () => {
  it('disposes a view made with `using` declarations when its block ends', async () => {
    const el = document.body.appendChild(document.createElement('p'))
    const s = new Signal(1)
    let runs = 0
    {
      using b: Binding = s.bind(el)
      using e: Dispose = effect(() => void (runs++, s.value))
      using sub = s.subscribe(() => runs++)
      void [b, e, sub]
      await settled()
      expect(el.textContent).toBe('1')
      expect(subscribers(s)).toBe(3)
    }
    expect(subscribers(s)).toBe(0)
    s.value = 2
    await settled()
    expect(el.textContent).toBe('1')
    expect(runs).toBe(2)
  })

  it('disposes bindings created inside an effect when the effect re-runs (through the cleanup)', async () => {
    const route = new Signal('a')
    const text = new Signal('x')
    const host = document.body.appendChild(document.createElement('div'))
    const made: HTMLElement[] = []
    const stop = effect(() => {
      const el = host.appendChild(document.createElement('span'))
      el.dataset.r = route.value
      made.push(el)
      const b = text.bind(el)
      return () => {
        b.dispose()
        el.remove()
      }
    })
    for (let i = 0; i < 100; i++) {
      route.value = String(i)
      text.value = `t${i}`
      await settled()
      expect(host.textContent).toBe(`t${i}`)
    }
    expect(subscribers(text)).toBe(1)
    // Each detached span kept the text it had when its view was replaced, and gets nothing more.
    expect(made.slice(1, -1).map((el) => el.textContent)).toEqual(made.slice(1, -1).map((_, k) => `t${k}`))
    const snap = made.map((el) => el.textContent)
    text.value = 'later'
    await settled()
    expect(made.slice(0, -1).map((el) => el.textContent)).toEqual(snap.slice(0, -1))
    expect(made.at(-1)!.textContent).toBe('later')
    stop()
    expect(subscribers(text)).toBe(0)
  })
})
