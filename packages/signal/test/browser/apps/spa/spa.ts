// Measurement helpers of the SPA trial (on top of the soak trial's: heap after a full collection, live eddy
// objects by prototype through the DevTools protocol, medians and slopes).
import { renders } from '../../../../src/render.ts'
import { subscribers } from '../../dom.ts'
import type { Store } from './spa-app.ts'

export { heapUsed, liveObjects, median, prototypes, settleHeap, sleep, slope } from '../soak.ts'

/** Subscribers of each of the store's signals, and their sum. */
export function storeSubs(store: Store): { total: number; each: Record<string, number> } {
  const each = Object.fromEntries(Object.entries(store).map(([k, s]) => [k, subscribers(s)]))
  return { total: Object.values(each).reduce((a, b) => a + b, 0), each }
}

/** White-box: the store's subscribers that are bindings of views (directly or through a computed), whose node is
 * not connected (the shell's is), each with the signal's key. */
function viewSubs(store: Store): { key: string; binding: any }[] {
  const out: { key: string; binding: any }[] = []
  const walk = (key: string, s: any): void => {
    for (let l = s._subs; l; l = l._nextSub) {
      const sub = l._sub
      if (!sub._ref) {
        if (sub._subs) walk(key, sub)
        continue
      }
      if (!sub._ref.deref()?.isConnected) out.push({ key, binding: sub })
    }
  }
  for (const [k, s] of Object.entries(store)) walk(k, s)
  return out
}

/**
 * The bindings of views still subscribed to the store, each as `signal: view N, TAG alive` or `signal: view ?,
 * collected`: whether a lingering binding's node is still alive (something holds it) or gone (its registry callback
 * is still due).
 */
export const viewBindings = (store: Store): string[] =>
  viewSubs(store).map(({ key, binding }) => {
    const node: Element | undefined = binding._ref.deref()
    return `${key}: view ${node?.closest('section')?.getAttribute('data-i') ?? '?'}, ${node ? `${node.localName} alive` : 'collected'}`
  })

/** The node of the first lingering binding of a view whose node is alive, held weakly (the binding's own WeakRef). */
export const lingeringNode = (store: Store): WeakRef<Element> | undefined =>
  viewSubs(store).find(({ binding }) => binding._ref.deref())?.binding._ref

/** White-box: render jobs waiting in the shared queue. */
export const queuedRenders = (): number => renders._size - renders._start
