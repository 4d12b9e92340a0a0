// The heap-snapshot helper the soak tests print when something they expected collected is still there: it must name
// the real chain, or its diagnostics mislead.
import { describe, expect, it } from 'vitest'
import { retainerPath } from './heap.ts'

class Holder {
  constructor(readonly inner: object) {}
}
const held: Holder[] = []

describe('retainerPath (DevTools heap snapshot)', () => {
  it('names the chain from a root to a detached node: the module array, the holder, its field', async () => {
    const p = document.createElement('p')
    held.push(new Holder(p))
    const path = await retainerPath(new WeakRef(p))
    console.log('[retainers] held', path)
    expect(path.at(-1)).toBe('property inner -> native <p>')
    expect(path.at(-2)).toBe('element [0] -> object Holder')
    expect(path.at(-3)).toBe('context held -> object Array')
    held.length = 0
  }, 30_000)

  it('follows Blink\'s edges too: a listener on a connected node holds a detached tree, and the tree its child', async () => {
    const host = document.body.appendChild(document.createElement('aside'))
    const section = document.createElement('section')
    const h1 = section.appendChild(document.createElement('h1'))
    const listener = () => section.id
    host.addEventListener('click', listener)
    const path = await retainerPath(new WeakRef(h1))
    console.log('[retainers] tree', path)
    const text = path.join('\n')
    expect(path.at(-1)).toMatch(/ -> native <h1>$/)
    expect(text).toMatch(/-> native <section>\n/)
    expect(text).toMatch(/-> native <aside>\n/)
    expect(text).toMatch(/context section -> native <section>/)
    host.removeEventListener('click', listener)
    host.remove()
  }, 30_000)

  it('gives an empty path for a node nothing holds strongly', async () => {
    const ref = new WeakRef(document.createElement('div'))
    // A full GC (the snapshot's own) collects it, unless a retainer is left by the helper itself.
    await new Promise((r) => setTimeout(r, 0))
    const path = await retainerPath(ref)
    expect(path).toEqual([])
  }, 30_000)
})
