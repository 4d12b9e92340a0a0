/**
 * Node only: gives the benchmark a DOM (happy-dom) through the usual globals.
 * The adapters' `bind` and the checks use `document`, `Node`, `Element` and `MutationObserver` of one window.
 */
import { Window } from 'happy-dom'

/** Installs `window`, `document`, `Node`, ... on globalThis (only where missing). */
export function installDom(): void {
  const window = new Window()
  const g = globalThis as Record<string, unknown>
  const w = window as unknown as Record<string, unknown>
  g.window ??= window
  for (const name of ['document', 'Node', 'Element', 'HTMLElement', 'Text', 'MutationObserver']) g[name] ??= w[name]
}
