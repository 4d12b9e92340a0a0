// A React 19 user's glue for eddy, written from the READMEs as a user would (a user trial; the README's "Using eddy
// with React" section comes from it). React and react-dom are devDependencies of the repository, in their
// development build here (Vite serves it in tests), so StrictMode and useSyncExternalStore's dev checks are on.
import * as React from 'react'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { Signal, computed, effect, untracked, type Computed } from '@eddy/signal'

// Untyped on purpose: the tests build elements with createElement and read React's internals nowhere.
export const R: any = { ...React, createRoot, flushSync }
export const h = R.createElement as (type: any, props?: any, ...children: any[]) => any

/** The README's hook ("Using eddy with React"): told of every change, also while a computed throws; reads by peek(). */
export function useSignal<T>(s: Computed<T>): T {
  const subscribe = R.useCallback(
    (onChange: () => void) =>
      effect(() => {
        try { s.value } catch {} // tracked even while a computed throws: the render rethrows it to your boundary
        untracked(onChange)
      }),
    [s],
  )
  const get = () => s.peek() // peek: see "React inside an effect" below
  return R.useSyncExternalStore(subscribe, get, get) // the third: server rendering (renderToString) asks for it
}

/** The obvious hook a user writes first: `subscribe` for "it changed", `.value` as the snapshot (see the hazards). */
export function useSignalObvious<T>(s: Computed<T>): T {
  const subscribe = R.useCallback((onChange: () => void) => s.subscribe(() => onChange()), [s])
  return R.useSyncExternalStore(subscribe, () => s.value)
}

/** A computed that lives as long as the component (deps as useMemo's). */
export function useComputed<T>(fn: () => T, deps: unknown[]): Computed<T> {
  return R.useMemo(() => computed(fn), deps)
}

/** An eddy effect for the component's lifetime: made in useEffect, disposed in its cleanup. */
export function useEddyEffect(fn: () => void | (() => void), deps: unknown[]): void {
  R.useEffect(() => effect(fn), deps)
}

/** An error boundary that shows `boundary: <message>` in place of its children once one of them threw. */
export class Boundary extends (R.Component as any) {
  state = { error: undefined as unknown }
  static getDerivedStateFromError(error: unknown) {
    return { error }
  }
  render(this: any) {
    return this.state.error ? h('em', null, `boundary: ${(this.state.error as Error).message}`) : this.props.children
  }
}

/** A fresh container in the page, a root in it, and an unmount that removes both. */
export function mount(node: any, options?: { strict?: boolean }) {
  const el = document.body.appendChild(document.createElement('div'))
  const root = R.createRoot(el, { onRecoverableError: () => {}, onUncaughtError: () => {}, onCaughtError: () => {} })
  const wrap = (n: any) => (options?.strict ? h(R.StrictMode, null, n) : n)
  R.flushSync(() => root.render(wrap(node)))
  return {
    el,
    root,
    render(n: any) {
      R.flushSync(() => root.render(wrap(n)))
    },
    unmount() {
      R.flushSync(() => root.unmount())
      el.remove()
    },
  }
}

/** Waits for React's scheduled work and eddy's microtask flush (a macrotask later, twice). */
export const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0)).then(() => new Promise((r) => setTimeout(r, 0)))

/** A framework-agnostic store: signals and actions, nothing React in it. */
export function createTodoStore() {
  const todos = new Signal<{ id: number; text: string; done: boolean }[]>([])
  const filter = new Signal<'all' | 'open' | 'done'>('all')
  let nextId = 1
  const remaining = computed(() => todos.value.filter((t) => !t.done).length)
  const visible = computed(() => {
    const f = filter.value
    return todos.value.filter((t) => (f === 'all' ? true : f === 'done' ? t.done : !t.done))
  })
  return {
    todos,
    filter,
    remaining,
    visible,
    add(text: string) {
      todos.value = [...todos.value, { id: nextId++, text, done: false }]
    },
    toggle(id: number) {
      todos.value = todos.value.map((t) => (t.id === id ? { ...t, done: !t.done } : t))
    },
  }
}

export { Signal, computed, effect }
