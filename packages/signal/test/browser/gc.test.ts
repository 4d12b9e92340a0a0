// Garbage-collection tests: Vitest runs Chromium with --js-flags=--expose-gc (vite.config.ts).
import { describe, expect, it } from 'vitest'
import { Signal, computed, effect, flush, type Binding, type Dispose } from '@eddy/signal'
import { collectUntil, gc } from '../../../../scripts/gc.ts'

type Internal = { _subs?: unknown }

describe('garbage collection (Chromium)', () => {
  it('should have gc exposed', () => {
    expect(typeof gc).toBe('function')
  })

  it('should let a removed, unreferenced bound node be collected while the signal lives on', async () => {
    const s = new Signal(0)
    const collected = new Set<string>()
    const registry = new FinalizationRegistry<string>((name) => collected.add(name))
    ;(() => {
      for (const name of ['text', 'attr', 'model']) {
        const el = document.body.appendChild(document.createElement(name === 'model' ? 'input' : 'p'))
        if (name === 'text') s.bind(el)
        if (name === 'attr') s.bind(el, { attr: 'data-n' })
        if (name === 'model') s.bind(el, { model: 'input' })
        registry.register(el, name)
      }
      flush()
      document.body.replaceChildren()
    })()
    expect(await collectUntil(() => collected.size === 3)).toBe(true)
    await collectUntil(() => (s as unknown as Internal)._subs === undefined)
    // the bindings were dropped with their nodes; the signal still works
    expect((s as unknown as Internal)._subs).toBeUndefined()
    s.value = 1
    flush()
    expect(s.value).toBe(1)
  })

  it('should let a removed node be collected when its format or sanitizer can reach it (a component closure)', async () => {
    // The binding, held by its signal, held these functions, and through them the node: none was collected.
    const s = new Signal('x')
    const collected = new Set<string>()
    const registry = new FinalizationRegistry<string>((name) => collected.add(name))
    ;(() => {
      for (const name of ['shared context', 'reads the node', 'sanitize']) {
        const el = document.body.appendChild(document.createElement('p'))
        el.dataset.unit = '!'
        // A listener that names `el` puts it in the context every closure made here shares.
        el.addEventListener('click', () => el.classList.toggle('on'))
        if (name === 'shared context') s.bind(el, { format: (v) => `${v}?` })
        if (name === 'reads the node') s.bind(el, { format: (v) => `${v}${el.dataset.unit}` })
        if (name === 'sanitize') s.bind(el, { html: true, sanitize: (html) => html.replace(/</g, '&lt;') })
        registry.register(el, name)
      }
      flush()
      const texts = [...document.body.children].map((p) => p.textContent)
      expect(texts).toEqual(['x?', 'x!', 'x'])
      document.body.replaceChildren()
    })()
    expect(await collectUntil(() => collected.size === 3), `collected: ${[...collected]}`).toBe(true)
    await collectUntil(() => (s as unknown as Internal)._subs === undefined)
    expect((s as unknown as Internal)._subs).toBeUndefined()
  })

  it('should let a node bound to a computed be collected, and then the computed too', async () => {
    const s = new Signal(0)
    const collected = new Set<string>()
    const registry = new FinalizationRegistry<string>((name) => collected.add(name))
    ;(() => {
      const c = computed(() => s.value * 2)
      const el = document.body.appendChild(document.createElement('p'))
      c.bind(el)
      flush()
      registry.register(el, 'node')
      registry.register(c, 'computed')
      el.remove()
    })()
    expect(await collectUntil(() => collected.size === 2)).toBe(true)
    expect((s as unknown as Internal)._subs).toBeUndefined()
  })

  it('should let a component go whole when its computed, bound to its node, can reach that node', async () => {
    // Held by the bindings' FinalizationRegistry, the binding held its computed, whose getter's closure held the
    // node: the registry's own target, so none of it was ever collected, even with nothing else left.
    const collected = new Set<string>()
    const registry = new FinalizationRegistry<string>((name) => collected.add(name))
    ;(() => {
      const count = new Signal(1)
      const el = document.body.appendChild(document.createElement('p'))
      el.dataset.unit = ' items'
      const label = computed(() => `${count.value}${el.dataset.unit}`)
      label.bind(el)
      flush()
      expect(el.textContent).toBe('1 items')
      registry.register(el, 'node')
      registry.register(label, 'computed')
      registry.register(count, 'signal')
      el.remove()
    })()
    expect(await collectUntil(() => collected.size === 3), `collected: ${[...collected]}`).toBe(true)
  })

  it('should not retain an unobserved computed from its sources', async () => {
    const s = new Signal(1)
    const collected = new Set<string>()
    const registry = new FinalizationRegistry<string>((name) => collected.add(name))
    ;(() => {
      const read = computed(() => s.value + 1)
      expect(read.value).toBe(2)
      registry.register(read, 'read once')
      const watched = computed(() => s.value + 2)
      const stop = effect(() => {
        watched.value
      })
      stop()
      registry.register(watched, 'watched, then not')
    })()
    expect(await collectUntil(() => collected.size === 2, () => (s.value += 1))).toBe(true)
  })

  // Module-level, as a registry that is collected itself never calls back: each test gets its own set of names.
  const named = new FinalizationRegistry<[Set<string>, string]>(([set, name]) => set.add(name))
  const tracker = () => {
    const collected = new Set<string>()
    return { collected, track: (o: object, name: string) => named.register(o, [collected, name]) }
  }
  // A node that stays in the document (an app shell's link, rebound at each route).
  const shell = document.body.appendChild(document.createElement('a'))

  describe('a node that lives on does not keep the bindings of signals dropped since', () => {
    const bindAndDrop = (track: (o: object, name: string) => void, name: string, target?: BindTarget) => {
      const s = new Signal('/x')
      s.bind(shell, target)
      flush()
      track(s, name)
    }
    type BindTarget = Parameters<Signal<string>['bind']>[1]

    it.each([
      ['text (no format)', undefined],
      ['a format', { format: (v: unknown) => `${v}!` }],
      ['an href attribute (its URL check is a format)', { attr: 'href' }],
    ] as [string, BindTarget][])('with %s', async (name, target) => {
      const { collected, track } = tracker()
      bindAndDrop(track, name, target)
      expect(await collectUntil(() => collected.has(name))).toBe(true)
    })

    it('with a format, bound to a computed: its getter and what it reaches are collected', async () => {
      const { collected, track } = tracker()
      ;(() => {
        const id = new Signal(1)
        const big = new Array(1e6).fill(0)
        const url = computed(() => `/u/${id.value}/${big.length}`)
        url.bind(shell, { format: (v) => v })
        flush()
        track(big, 'big')
      })()
      expect(await collectUntil(() => collected.has('big'))).toBe(true)
    })
  })

  describe('a handle kept after dispose keeps nothing of what it disposed', () => {
    it("an effect's dispose function: not its body, nor what the body reached", async () => {
      const { collected, track } = tracker()
      const keep: Dispose[] = []
      ;(() => {
        const s = new Signal(0)
        const big = { data: new Array(1e6).fill(0) }
        keep.push(effect(() => void (s.value + big.data.length)))
        track(big, 'big')
        track(s, 'signal')
      })()
      keep[0]!()
      expect(await collectUntil(() => collected.size === 2), `collected: ${[...collected]}`).toBe(true)
    })

    it("subscribe's unsubscribe function: not the signal, nor the callback", async () => {
      const { collected, track } = tracker()
      const keep: Dispose[] = []
      ;(() => {
        const s = new Signal(0)
        const callback = (v: number) => void v
        keep.push(s.subscribe(callback))
        track(s, 'signal')
        track(callback, 'callback')
      })()
      keep[0]!()
      expect(await collectUntil(() => collected.size === 2), `collected: ${[...collected]}`).toBe(true)
    })

    it.each(['text', 'model'])('a disposed %s Binding: not its source (a computed, and what its getter reached)', async (kind) => {
      const { collected, track } = tracker()
      const keep: Binding[] = []
      ;(() => {
        const s = new Signal(0)
        const big = new Array(1e6).fill(0)
        const c = computed(() => s.value + big.length)
        const el = document.body.appendChild(document.createElement('input'))
        keep.push(kind == 'model' ? s.bind(el, { model: 'input' }) : c.bind(el))
        flush()
        track(kind == 'model' ? s : c, 'source')
        track(big, 'big')
      })()
      keep[0]!.dispose()
      document.body.replaceChildren(shell)
      expect(await collectUntil(() => collected.size === 2), `collected: ${[...collected]}`).toBe(true)
    })
  })

  describe('what the queues held is let go', () => {
    it('a binding disposed while queued, at the flush', async () => {
      const { collected, track } = tracker()
      ;(() => {
        const s = new Signal(0)
        const el = document.createElement('p')
        const b = s.bind(el)
        s.value = 1
        b.dispose()
        track(s, 'signal')
        track(el, 'node')
      })()
      flush()
      expect(await collectUntil(() => collected.size === 2), `collected: ${[...collected]}`).toBe(true)
    })

    it('renders cut off by a cycle', async () => {
      const { collected, track } = tracker()
      let errors = 0
      ;(() => {
        const a = new Signal(0)
        const el = document.createElement('p')
        const b = a.bind(el, { format: (v) => ((a.value = (v as number) + 1), v) })
        expect(flush).toThrow('Cycle detected')
        errors++
        b.dispose()
        track(a, 'signal')
        track(el, 'node')
      })()
      expect(errors).toBe(1)
      expect(await collectUntil(() => collected.size === 2), `collected: ${[...collected]}`).toBe(true)
    })

    it('an effect made in a getter, once disposed, goes with the computed', async () => {
      const { collected, track } = tracker()
      const s = new Signal(0)
      ;(() => {
        let stop: Dispose | undefined
        const c = computed(() => {
          stop?.()
          stop = effect(() => void s.value)
          return s.value
        })
        const off = effect(() => void c.value)
        s.value = 1
        off()
        stop!()
        track(c, 'computed')
      })()
      expect(await collectUntil(() => collected.size === 1)).toBe(true)
      expect((s as unknown as Internal)._subs).toBeUndefined()
    })
  })
})
