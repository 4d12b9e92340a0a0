// A user trial: eddy signals as the state layer of a React 19 app (real Chromium, React's development build), through
// the README's hook (react.ts). What a user must know (the README's bullets) is pinned in react-hazards.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Signal, batch, computed, effect, flush } from '@eddy/signal'
import { subscribers } from '../../dom.ts'
import { Boundary, R, h, mount, tick, useSignal, useSignalObvious, useComputed, useEddyEffect, createTodoStore } from './react.ts'

let app: ReturnType<typeof mount> | undefined
let consoleErrors: unknown[][] = []
beforeEach(() => {
  consoleErrors = []
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void consoleErrors.push(args))
})
afterEach(() => {
  app?.unmount()
  app = undefined
  vi.restoreAllMocks()
  // React's development build warns here (getSnapshot not cached, updates while rendering, act): none expected
  expect(consoleErrors.map((a) => String(a[0]).slice(0, 120))).toEqual([])
})

describe('a todo app on a framework-agnostic eddy store', () => {
  function TodoApp({ store, renders }: { store: ReturnType<typeof createTodoStore>; renders: Record<string, number> }) {
    renders.app = (renders.app ?? 0) + 1
    const visible = useSignal(store.visible)
    const remaining = useSignal(store.remaining)
    return h(
      'div',
      null,
      h('button', { id: 'add', onClick: () => store.add(`t${store.todos.peek().length + 1}`) }, 'add'),
      h('button', { id: 'open', onClick: () => (store.filter.value = 'open') }, 'open'),
      h('ul', null, ...visible.map((t) => h('li', { key: t.id, onClick: () => store.toggle(t.id) }, t.text))),
      h('output', null, `${remaining} left`),
    )
  }

  it('should render, update on clicks, and leave no subscription behind (StrictMode)', async () => {
    const store = createTodoStore()
    const renders: Record<string, number> = {}
    app = mount(h(TodoApp, { store, renders }), { strict: true })
    // StrictMode mounts, unmounts and mounts again: one subscription per hook remains
    expect(subscribers(store.visible)).toBe(1)
    expect(subscribers(store.remaining)).toBe(1)
    const add = app.el.querySelector<HTMLButtonElement>('#add')!
    add.click()
    add.click()
    add.click()
    await tick()
    expect([...app.el.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['t1', 't2', 't3'])
    expect(app.el.querySelector('output')!.textContent).toBe('3 left')
    app.el.querySelectorAll('li')[1]!.click()
    app.el.querySelector<HTMLButtonElement>('#open')!.click()
    await tick()
    expect([...app.el.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['t1', 't3'])
    expect(app.el.querySelector('output')!.textContent).toBe('2 left')
    app.unmount()
    app = undefined
    expect(subscribers(store.visible)).toBe(0)
    expect(subscribers(store.remaining)).toBe(0)
    expect(subscribers(store.todos)).toBe(0)
    expect(subscribers(store.filter)).toBe(0)
  })

  it('should leave no subscription after 50 StrictMode mount/unmount cycles of many components', () => {
    const store = createTodoStore()
    store.add('a')
    const Row = () => h('span', null, useSignal(store.remaining))
    for (let i = 0; i < 50; i++) {
      const a = mount(h('div', null, ...Array.from({ length: 10 }, (_, k) => h(Row, { key: k }))), { strict: true })
      expect(subscribers(store.remaining)).toBe(10)
      a.unmount()
    }
    expect(subscribers(store.remaining)).toBe(0)
    expect(subscribers(store.todos)).toBe(0)
  })
})

// Both subscribe functions call back at once (subscribe with the value, the README hook's effect on its first run).
for (const [name, hook] of [['the README hook', useSignal], ['s.subscribe', useSignalObvious]] as const)
describe(`${name} calls back at once: useSyncExternalStore does not mind`, () => {
  it('should render once per mount (twice under StrictMode, its double render), not once more for the immediate call', () => {
    const s = new Signal(1)
    let renders = 0
    const C = () => {
      renders++
      return h('b', null, hook(s))
    }
    app = mount(h(C))
    expect(renders).toBe(1)
    app.unmount()
    renders = 0
    app = mount(h(C), { strict: true })
    expect(renders).toBe(2)
    expect(app.el.textContent).toBe('1')
  })

  it('should pick up a write made between render and subscription (the immediate call is harmless)', async () => {
    const s = new Signal('render')
    const C = () => {
      R.useLayoutEffect(() => {
        s.value = 'layout' // before useSyncExternalStore subscribes (a passive effect)
      }, [])
      return h('b', null, hook(s))
    }
    app = mount(h(C))
    await tick()
    expect(app.el.textContent).toBe('layout')
  })
})

describe('batch() in React event handlers', () => {
  it('should render React once per click with or without batch, and run an eddy effect once only with batch', async () => {
    const first = new Signal('Ada')
    const last = new Signal('Lovelace')
    const full = computed(() => `${first.value} ${last.value}`)
    const seen: string[] = []
    const stop = effect(() => void seen.push(full.value))
    let renders = 0
    const C = () => {
      renders++
      const name = useSignal(full)
      return h(
        'div',
        null,
        h('button', { id: 'plain', onClick: () => ((first.value = 'Grace'), (last.value = 'Hopper')) }),
        h('button', { id: 'batched', onClick: () => batch(() => ((first.value = 'Alan'), (last.value = 'Turing'))) }),
        h('output', null, name),
      )
    }
    app = mount(h(C))
    renders = 0
    seen.length = 0
    app.el.querySelector<HTMLButtonElement>('#plain')!.click()
    expect(seen).toEqual(['Grace Lovelace', 'Grace Hopper']) // eddy effects: synchronous, once per write
    expect(renders).toBe(0) // React renders the click's updates in a microtask (React 19)
    await tick()
    expect(renders).toBe(1) // React's automatic batching: one render
    app.el.querySelector<HTMLButtonElement>('#batched')!.click()
    await tick()
    expect(renders).toBe(2)
    expect(seen).toEqual(['Grace Lovelace', 'Grace Hopper', 'Alan Turing'])
    expect(app.el.textContent).toBe('Alan Turing')
    stop()
  })
})

describe('computeds read in render', () => {
  it('should recompute once per change, not once per render, when read through the hook', async () => {
    const n = new Signal(1)
    let runs = 0
    const sq = computed(() => (runs++, n.value * n.value))
    const other = new Signal(0)
    const C = () => h('b', null, `${useSignal(sq)}/${useSignal(other)}`)
    app = mount(h('div', null, h(C), h(C), h(C)), { strict: true })
    expect(runs).toBe(1)
    for (let i = 1; i <= 5; i++) other.value = i // re-renders all three, sq unchanged
    await tick()
    expect(runs).toBe(1)
    n.value = 3
    await tick()
    expect(runs).toBe(2)
    expect(app.el.textContent).toBe('9/59/59/5')
  })

  it('should let a component own a computed through useMemo and release it on unmount', () => {
    const price = new Signal(10)
    const Item = ({ qty }: { qty: number }) => {
      const total = useComputed(() => price.value * qty, [qty])
      return h('i', null, useSignal(total))
    }
    app = mount(h('div', null, h(Item, { qty: 2 }), h(Item, { qty: 3 })), { strict: true })
    expect(app.el.textContent).toBe('2030')
    expect(subscribers(price)).toBe(2) // each component's computed, watched by its hook
    app.render(h('div', null, h(Item, { qty: 4 })))
    expect(app.el.textContent).toBe('40')
    expect(subscribers(price)).toBe(1)
    app.unmount()
    app = undefined
    expect(subscribers(price)).toBe(0)
  })
})

describe('eddy effects made in useEffect', () => {
  it('should run once per change and stop at unmount, under StrictMode', () => {
    const s = new Signal(0)
    const log: string[] = []
    const C = ({ tag }: { tag: string }) => {
      useEddyEffect(() => {
        const v = s.value
        log.push(`${tag}:${v}`)
        return () => log.push(`${tag}:cleanup ${v}`)
      }, [tag])
      return null
    }
    app = mount(h(C, { tag: 'a' }), { strict: true })
    // StrictMode: effect, its cleanup, effect again
    expect(log).toEqual(['a:0', 'a:cleanup 0', 'a:0'])
    s.value = 1
    expect(log.slice(3)).toEqual(['a:cleanup 0', 'a:1'])
    app.render(h(C, { tag: 'b' })) // deps change: the old effect disposed, a new one made
    expect(log.slice(5)).toEqual(['a:cleanup 1', 'b:1'])
    app.unmount()
    app = undefined
    s.value = 2
    expect(log.slice(7)).toEqual(['b:cleanup 1'])
    expect(subscribers(s)).toBe(0)
  })
})

describe('concurrent rendering', () => {
  const busy = (ms: number) => {
    const end = performance.now() + ms
    while (performance.now() < end);
  }

  it('should not tear: 60 slow components reading one signal during a transition, written mid-render', async () => {
    const s = new Signal(0)
    const commits: number[][] = []
    let rendered: number[] = []
    let cellRenders = 0
    const Cell = ({ i }: { i: number }) => {
      cellRenders++
      const v = useSignal(s)
      busy(1)
      R.useLayoutEffect(() => void (rendered[i] = v))
      return h('i', null, v)
    }
    const List = () => {
      R.useLayoutEffect(() => {
        commits.push(rendered.slice())
      })
      return h('div', null, ...Array.from({ length: 60 }, (_, i) => h(Cell, { key: i, i })))
    }
    let setShow!: (b: boolean) => void
    const App = () => {
      const [show, set] = R.useState(false)
      setShow = set
      return show ? h(List) : h('p', null, 'empty')
    }
    app = mount(h(App))
    R.startTransition(() => setShow(true))
    // writes from other tasks while React renders the transition in 5 ms slices
    let writes = 0
    await new Promise<void>((resolve) => {
      const id = setInterval(() => {
        s.value = ++writes
        if (writes === 8) clearInterval(id), resolve()
      }, 8)
    })
    await new Promise((r) => setTimeout(r, 300))
    expect(app.el.querySelectorAll('i').length).toBe(60)
    const shown = new Set([...app.el.querySelectorAll('i')].map((i) => i.textContent))
    expect([...shown]).toEqual(['8'])
    for (const c of commits) expect(new Set(c).size, `a commit showed ${[...new Set(c)]}`).toBe(1)
    // the writes did land mid-render: React threw renders away and started again
    expect(cellRenders).toBeGreaterThan(60)
  })
})

describe('an eddy binding on a node React rendered, through a ref with a cleanup (React 19)', () => {
  it('should bind once per node and dispose when React removes it, under StrictMode', async () => {
    const label = new Signal('hello')
    const Badge = () =>
      h('span', {
        ref: (el: HTMLElement) => {
          const b = label.bind(el)
          return () => b.dispose()
        },
      })
    let setOn!: (b: boolean) => void
    const App = () => {
      const [on, set] = R.useState(true)
      setOn = set
      return h('div', null, on ? h(Badge) : null)
    }
    app = mount(h(App), { strict: true })
    expect(subscribers(label)).toBe(1)
    await tick()
    expect(app.el.textContent).toBe('hello')
    label.value = 'world'
    await tick()
    expect(app.el.textContent).toBe('world')
    R.flushSync(() => setOn(false))
    expect(subscribers(label)).toBe(0)
    R.flushSync(() => setOn(true))
    expect(subscribers(label)).toBe(1)
    await tick()
    expect(app.el.textContent).toBe('world')
  })

  it('should coexist on one element when React and eddy write different things (React the id, eddy the text)', async () => {
    const count = new Signal(0)
    let setId!: (s: string) => void
    const App = () => {
      const [id, set] = R.useState('a')
      setId = set
      const ref = R.useRef(null)
      R.useLayoutEffect(() => {
        const b = count.bind(ref.current)
        return () => b.dispose()
      }, [])
      return h('output', { id, ref })
    }
    app = mount(h(App), { strict: true })
    count.value = 5
    await tick()
    R.flushSync(() => setId('b'))
    expect(app.el.innerHTML).toBe('<output id="b">5</output>')
  })
})

describe('one store, React and eddy bindings on one page', () => {
  it('should show the same value in a React component and an eddy-bound node before the next frame', async () => {
    const s = new Signal(0)
    const bound = document.body.appendChild(document.createElement('p'))
    const b = s.bind(bound)
    app = mount(h(() => h('b', null, useSignal(s))))
    const mismatches: string[] = []
    for (let i = 1; i <= 10; i++) {
      await new Promise((r) => setTimeout(r, 0))
      s.value = i
      await new Promise((r) => requestAnimationFrame(r))
      if (app.el.textContent !== bound.textContent) mismatches.push(`${app.el.textContent} vs ${bound.textContent}`)
    }
    expect(mismatches).toEqual([])
    expect(bound.textContent).toBe('10')
    b.dispose()
    bound.remove()
    flush()
  })
})

describe('errors thrown by a computed read in render', () => {
  it('should reach the error boundary when the computed throws at the first render, and render after a reset', async () => {
    const input = new Signal('{')
    let runs = 0
    const parsed = computed(() => (runs++, JSON.parse(input.value).n as number))
    const Show = () => h('b', null, `n=${useSignal(parsed)}`)
    app = mount(h(Boundary, { key: 1 }, h(Show)))
    expect(app.el.textContent).toMatch(/^boundary: .*JSON/)
    // React renders a component that threw once more before giving up; the error was cached, not recomputed
    expect(runs).toBe(1)
    expect(subscribers(parsed)).toBe(0)
    input.value = '{"n":2}'
    app.render(h(Boundary, { key: 2 }, h(Show))) // the user's reset: a new boundary
    expect(app.el.textContent).toBe('n=2')
  })

  it("should reach the boundary when the computed throws by the time React subscribes (subscribe's first call throws)", async () => {
    const input = new Signal('{"n":1}')
    const parsed = computed(() => JSON.parse(input.value).n as number)
    const Show = () => {
      R.useLayoutEffect(() => void (input.value = '{'), []) // after render, before the passive subscribe
      return h('b', null, `n=${useSignal(parsed)}`)
    }
    app = mount(h(Boundary, null, h(Show)))
    await tick()
    expect(app.el.textContent).toMatch(/^boundary: .*JSON/)
    expect(subscribers(parsed)).toBe(0)
    expect(subscribers(input)).toBe(0)
  })
})

describe('bound nodes React removes without a dispose (the README: nodes held weakly)', () => {
  it('should drop the bindings of unmounted components once their nodes are collected', async () => {
    const { collectUntil } = await import('../../../../../../scripts/gc.ts')
    const s = new Signal('x')
    const Leaky = () => h('span', { ref: (el: HTMLElement | null) => void (el && s.bind(el)) })
    for (let i = 0; i < 20; i++) {
      const a = mount(h('div', null, ...Array.from({ length: 10 }, (_, k) => h(Leaky, { key: k }))))
      a.unmount()
    }
    expect(subscribers(s)).toBeGreaterThan(0)
    const dropped = await collectUntil(() => subscribers(s) === 0, () => void (s.value += '!'))
    expect(dropped, `${subscribers(s)} of 200 bindings left`).toBe(true)
  })
})

describe('signal writes inside startTransition (a React limit of useSyncExternalStore, for the README)', () => {
  it('should render a signal write synchronously even in startTransition, while a useState write yields', async () => {
    const s = new Signal(0)
    let setN!: (n: number) => void
    const Slow = ({ v }: { v: number }) => {
      const end = performance.now() + 0.5
      while (performance.now() < end);
      return h('i', null, v)
    }
    const App = () => {
      const fromSignal = useSignal(s)
      const [n, set] = R.useState(0)
      setN = set
      return h('div', null, ...Array.from({ length: 80 }, (_, i) => h(Slow, { key: i, v: fromSignal + n })))
    }
    app = mount(h(App))
    const ticksDuring = async (update: () => void) => {
      let ticks = 0
      let done = false
      const ch = new MessageChannel()
      ch.port1.onmessage = () => {
        if (done) return
        ticks++
        ch.port2.postMessage(0)
      }
      ch.port2.postMessage(0)
      R.startTransition(update)
      const target = app!.el.textContent
      await new Promise<void>((resolve) => {
        const check = () => (app!.el.textContent !== target ? resolve() : setTimeout(check, 1))
        check()
      })
      done = true
      ch.port1.close()
      return ticks
    }
    const viaState = await ticksDuring(() => setN(1))
    const viaSignal = await ticksDuring(() => void (s.value = 1))
    // the state transition lets other tasks in between its 5 ms slices; the signal's render is one blocking task
    expect(viaState).toBeGreaterThan(5)
    expect(viaSignal).toBeLessThan(viaState / 3)
  })
})
