// After whatever a test threw at eddy: a new binding still renders its first value and a later write (nothing stuck).
import { expect } from 'vitest'
import { Signal } from '@eddy/signal'

const macro = () => new Promise<void>((r) => setTimeout(r, 0))

/** Binds a new node under `root` and checks that it renders, then renders a write, each after `wait` (a macrotask). */
export async function stillRenders(root: Element, wait: () => Promise<unknown> = macro): Promise<void> {
  const node = root.appendChild(document.createElement('i'))
  const s = new Signal('ok-1')
  s.bind(node)
  await wait()
  expect(node.textContent).toBe('ok-1')
  s.value = 'ok-2'
  await wait()
  expect(node.textContent).toBe('ok-2')
}
