// SPA trial: its one finding, documented (README, bind, "Nodes held weakly"): a { model } binding on a field that
// lives on keeps its signal. These tests pin what the README now says.
import { watch, listenerCount } from '../soak-spy.ts'
import { describe, expect, it } from 'vitest'
import { Signal, flush } from '@eddy/signal'
import { sandbox } from '../../dom.ts'
import { collectUntil } from '../../../../../../scripts/gc.ts'
import { heapUsed, slope } from './spa.ts'

const box = sandbox()

// README (bind, "Nodes held weakly"): "A node that lives on (an app shell's link) does not keep the bindings of
// signals dropped since, nor their formats. What the node does keep, until it goes, is 52 B of the registry's for
// each such binding you did not dispose." That holds for the one-way kinds (soak-routes.test.ts). A { model }
// binding is different: its listeners are on the node, and they hold the binding and its signal. So a shell's
// search field that each view binds to a signal of its own, without dispose, keeps every view's signal (and what
// the signal's subscribers reach), and every keystroke writes into all of them.
describe('a field that lives on, model-bound by each view without dispose', () => {
  it("keeps the views' signals, three listeners each, and each keystroke writes into all of them", async () => {
    const search = box.root.appendChild(document.createElement('input'))
    watch(search)
    const gone = { n: 0 }
    const reg = new FinalizationRegistry<null>(() => void gone.n++)
    let writes = 0
    const views = 200
    for (let i = 0; i < views; i++) {
      ;(() => {
        const query = new Signal('') // the view's own
        query.bind(search, { model: 'input' })
        // What the view does with it, dropped with the view (as an effect disposed by a half teardown would be).
        query.subscribe(() => void writes++)()
        reg.register(query, null)
      })()
    }
    flush()
    search.value = 'x'
    search.dispatchEvent(new Event('input'))
    // Given the time a collection of them all would take; none comes.
    await collectUntil(() => gone.n >= views - 2)
    console.log('[spa findings] model on a live field', { collected: gone.n, of: views, listeners: listenerCount(search) })
    // The field's listeners (input, compositionend, focusout per binding) hold each binding and its signal.
    expect(listenerCount(search)).toBe(3 * views)
    expect(gone.n).toBe(0)
  })

  it('costs the live field a few hundred bytes per binding, where the one-way kinds cost ~52 B (teardown.test.ts)', async () => {
    const search = box.root.appendChild(document.createElement('input'))
    const heaps: number[] = []
    const perBatch = 1000
    for (let b = 0; b < 4; b++) {
      for (let k = 0; k < perBatch; k++)
        (() => {
          const query = new Signal(`q${k}`, { equals: () => false })
          query.bind(search, { model: 'input' })
        })()
      flush()
      heaps.push((await heapUsed()).cdp)
    }
    const bytesPerBinding = slope(heaps.map((_, i) => i * perBatch), heaps)
    console.log('[spa findings] model on a live field, bytes per binding', { heaps, bytesPerBinding })
    // ~380-400 B per binding (the signal, the Binding, its Link, its listener, three listener entries).
    expect(bytesPerBinding).toBeGreaterThan(200)
  })
})
