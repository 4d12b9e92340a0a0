// Garbage-collection tests: Vitest runs Chromium with --js-flags=--expose-gc (vite.config.ts).
import { describe, expect, it } from 'vitest'
import { Signal, computed, effect, flush } from '@eddy/signal'

const gc = (globalThis as { gc?: () => void }).gc!

/** Runs gc between macrotasks until `done()` or 50 attempts; returns done(). */
async function collectUntil(done: () => boolean, between?: () => void): Promise<boolean> {
  for (let i = 0; i < 50 && !done(); i++) {
    between?.()
    await new Promise((r) => setTimeout(r, 5))
    gc()
  }
  return done()
}

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
})
