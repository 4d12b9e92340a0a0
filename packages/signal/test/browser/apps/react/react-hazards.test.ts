/// <reference types="vite/client" />
// What a React user must know, each as the README's "Using eddy with React" states it: the obvious hook
// (`s.subscribe`, `.value`) against the README's (react.ts), and React and eddy writing one node. These pin eddy's
// behaviour as documented: if one changes, the README's bullet is stale.
import { afterEach, describe, expect, it } from 'vitest'
import { renderToString } from 'react-dom/server'
import { Signal, computed, effect, flush } from '@eddy/signal'
import { sandbox, subscribers } from '../../dom.ts'
import { Boundary, R, h, mount, tick, useSignal, useSignalObvious } from './react.ts'
import readme from '../../../../README.md?raw'
import glue from './react.ts?raw'

const box = sandbox() // reportError stubbed: what eddy reported, per test
let app: ReturnType<typeof mount> | undefined
afterEach(() => {
  app?.unmount()
  app = undefined
})

describe("the README's hook", () => {
  it('is the code tested here (react.ts useSignal), comments, spacing and the R. namespace aside', () => {
    const body = (text: string) => {
      const from = text.indexOf('export function useSignal<T>')
      expect(from).toBeGreaterThanOrEqual(0)
      const code = text.slice(from, text.indexOf('\n}', from) + 2)
      return code.replace(/\/\/.*$/gm, '').replace(/\bR\./g, '').replace(/\s+/g, '')
    }
    expect(body(readme)).toBe(body(glue))
  })

  it('renders on the server (renderToString asks for getServerSnapshot, the third argument)', () => {
    const s = new Signal(3)
    expect(renderToString(h(() => h('b', null, useSignal(s))))).toBe('<b>3</b>')
    // Without it (the obvious hook), React refuses.
    expect(() => renderToString(h(() => h('b', null, useSignalObvious(s))))).toThrow(/getServerSnapshot/)
    expect(subscribers(s)).toBe(0)
  })

  it('a computed made inline in render is a new one, and a new subscription, at each render (README: "Stable arguments")', async () => {
    const n = new Signal(1)
    let runs = 0
    let setTick!: (t: number) => void
    const Inline = () => {
      const [t, set] = R.useState(0)
      setTick = set
      return h('b', null, `${t}:${useSignal(computed(() => (runs++, n.value)))}`)
    }
    app = mount(h(Inline))
    for (const t of [1, 2, 3]) R.flushSync(() => setTick(t))
    await tick()
    expect(runs).toBeGreaterThanOrEqual(4) // one computed per render, each computed anew
    expect(subscribers(n)).toBe(1) // React unsubscribed each old one
    runs = 0
    const Memo = () => {
      const [t, set] = R.useState(0)
      setTick = set
      const c = R.useMemo(() => computed(() => (runs++, n.value)), [])
      return h('b', null, `${t}:${useSignal(c)}`)
    }
    app.unmount()
    app = mount(h(Memo))
    for (const t of [1, 2, 3]) R.flushSync(() => setTick(t))
    await tick()
    expect(runs).toBe(1)
    expect(app.el.textContent).toBe('3:1')
  })
})

describe('a computed that starts throwing while a component shows it (README: "Why not s.subscribe")', () => {
  function show(hook: typeof useSignal) {
    const input = new Signal('{"n":1}')
    const parsed = computed(() => JSON.parse(input.value).n as number)
    const Show = () => h('b', null, `n=${hook(parsed)}`)
    app = mount(h(Boundary, null, h(Show)))
    expect(app.el.textContent).toBe('n=1')
    return { input, parsed }
  }

  it('s.subscribe does not call back while the value throws: the component keeps its last value, the error is reported', async () => {
    const { input } = show(useSignalObvious)
    input.value = '{"n":' // a half-typed edit
    await tick()
    expect(app!.el.textContent).toBe('n=1')
    expect(box.msgs()).toEqual([expect.stringMatching(/^SyntaxError: .*JSON/)])
    input.value = '{"n":2}'
    await tick()
    expect(app!.el.textContent).toBe('n=2')
  })

  it("the README hook tells React, so the render rethrows to the error boundary and nothing goes to reportError", async () => {
    const { input, parsed } = show(useSignal)
    input.value = '{"n":'
    await tick()
    expect(box.msgs()).toEqual([])
    expect(app!.el.textContent).toMatch(/^boundary: .*JSON/)
    expect(subscribers(parsed)).toBe(0) // the boundary unmounted the component: its subscription went with it
  })
})

describe('React rendered synchronously inside an eddy effect (README: "React inside an effect")', () => {
  // useSyncExternalStore calls getSnapshot during render, and a render inside an effect's run is tracked by it.
  function extraRuns(hook: typeof useSignal, untrack = false) {
    const open = new Signal(false)
    const count = new Signal(0)
    const el = document.body.appendChild(document.createElement('div'))
    const root = R.createRoot(el)
    // The component reads `.value` itself when `untrack` is set, so that only untracked() keeps it out.
    const Dialog = () => h('dialog', { open: true }, `count ${untrack ? count.value : hook(count)}`)
    let runs = 0
    const stop = effect(() => {
      runs++
      const o = open.value
      const render = () => R.flushSync(() => root.render(o ? h(Dialog) : null))
      untrack ? untrackedRender(render) : render()
    })
    open.value = true
    const before = runs
    for (let i = 1; i <= 5; i++) count.value = i
    const extra = runs - before
    stop()
    R.flushSync(() => root.unmount())
    el.remove()
    return extra
  }
  let untrackedRender: (f: () => void) => void

  it('a .value snapshot makes what the components read a source of the effect: one extra run per write', () => {
    expect(extraRuns(useSignalObvious)).toBe(5)
  })

  it('the README hook reads by peek(): no extra run', () => {
    expect(extraRuns(useSignal)).toBe(0)
  })

  it('flushSync wrapped in untracked() keeps a component that reads .value out of the effect', async () => {
    untrackedRender = (await import('@eddy/signal')).untracked
    expect(extraRuns(useSignal, true)).toBe(0)
    untrackedRender = (f) => f()
    expect(extraRuns(useSignal, true)).toBe(5)
  })
})

describe('passing the methods themselves, as useSyncExternalStore invites', () => {
  it('names the mistake: subscribe() needs its signal', () => {
    const count = new Signal(0)
    const Bad = () => R.useSyncExternalStore(count.subscribe, () => count.peek())
    const errors: unknown[] = []
    const el = document.body.appendChild(document.createElement('div'))
    const root = R.createRoot(el, { onUncaughtError: (e: unknown) => errors.push(e) })
    R.flushSync(() => root.render(h(Bad)))
    expect(errors.map(String)).toEqual(['TypeError: subscribe() needs its signal: s.subscribe(fn)'])
    R.flushSync(() => root.unmount())
    el.remove()
    expect(subscribers(count)).toBe(0)
  })
})

describe('React and an eddy binding writing the same node (README: "bind() on a React node")', () => {
  it('React wins a className it re-renders, and the eddy class binding does not put its class back', async () => {
    const active = new Signal(true)
    let setTone!: (t: string) => void
    const App = () => {
      const [tone, set] = R.useState('dark')
      setTone = set
      const ref = R.useRef(null)
      R.useLayoutEffect(() => {
        const b = active.bind(ref.current, { class: 'active' })
        return () => b.dispose()
      }, [])
      return h('span', { className: tone, ref })
    }
    app = mount(h(App))
    await tick()
    expect(app.el.firstElementChild!.className).toBe('dark active')
    R.flushSync(() => setTone('light'))
    await tick()
    // the signal still says active; the DOM no longer does, until the signal changes again
    expect(active.value).toBe(true)
    expect(app.el.firstElementChild!.className).toBe('light')
  })

  it('an inline ref callback re-binds at every render: React calls its cleanup and the new callback each time', async () => {
    const active = new Signal(true)
    let binds = 0
    let setTone!: (t: string) => void
    const App = () => {
      const [tone, set] = R.useState('dark')
      setTone = set
      return h('span', {
        className: tone,
        ref: (el: HTMLElement) => {
          binds++
          const b = active.bind(el, { class: 'active' })
          return () => b.dispose()
        },
      })
    }
    app = mount(h(App))
    for (const t of ['a', 'b', 'c', 'd']) R.flushSync(() => setTone(t))
    await tick()
    expect(binds).toBe(5) // a bind() and a dispose() per render; which also puts the class back after React's write
    expect(app.el.firstElementChild!.className).toBe('d active')
    expect(subscribers(active)).toBe(1)
  })

  it('an eddy text binding on an element whose children React renders breaks React at its next removal', async () => {
    const label = new Signal('eddy text')
    let setItems!: (n: string[]) => void
    const App = () => {
      const [items, set] = R.useState(['a', 'b'])
      setItems = set
      const ref = R.useRef(null)
      R.useLayoutEffect(() => {
        const b = label.bind(ref.current)
        return () => b.dispose()
      }, [])
      return h('p', { ref }, ...items.map((t: string) => h('i', { key: t }, t)))
    }
    const errors: unknown[] = []
    const el = document.body.appendChild(document.createElement('div'))
    const root = R.createRoot(el, { onUncaughtError: (e: unknown) => errors.push(e) })
    R.flushSync(() => root.render(h(App)))
    await tick()
    expect(el.textContent).toBe('eddy text') // eddy replaced React's <i> children
    R.flushSync(() => setItems(['a']))
    expect(errors.map((e) => (e as Error).name)).toEqual(['NotFoundError']) // removeChild of a node no longer there
    R.flushSync(() => root.unmount())
    el.remove()
  })
})

describe('a React layout effect reading a node an eddy binding renders (README: "Layout effects")', () => {
  // A write runs its subscribers first, and React's queues React's render microtask; eddy posts its render flush
  // after the subscribers. So React commits, and runs its layout effects, before eddy writes the bound node.
  function run(withFlush: boolean) {
    const s = new Signal(0)
    const seen: string[] = []
    const App = () => {
      const v = useSignal(s)
      const ref = R.useRef(null)
      R.useLayoutEffect(() => {
        const b = s.bind(ref.current)
        return () => b.dispose()
      }, [])
      R.useLayoutEffect(() => {
        if (withFlush) flush()
        seen.push(`${v}:${ref.current.textContent}`)
      }, [v])
      return h('div', null, h('button', { onClick: () => s.value++ }), h('p', { ref }))
    }
    return { seen, node: h(App) }
  }

  it('without flush() it sees the text of the write before', async () => {
    const { seen, node } = run(false)
    app = mount(node)
    await tick()
    app.el.querySelector('button')!.click()
    await tick()
    app.el.querySelector('button')!.click()
    await tick()
    expect(seen).toEqual(['0:', '1:0', '2:1'])
  })

  it('with flush() first it sees the new text', async () => {
    const { seen, node } = run(true)
    app = mount(node)
    app.el.querySelector('button')!.click()
    await tick()
    app.el.querySelector('button')!.click()
    await tick()
    expect(seen).toEqual(['0:0', '1:1', '2:2'])
  })
})
