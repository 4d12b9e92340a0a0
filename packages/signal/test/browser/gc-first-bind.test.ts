// Garbage collection of the first bind() of a page: its own file, as Vitest's browser mode runs each test file in a
// fresh iframe. The bindings' FinalizationRegistry is made at the first bind(), and its cleanup arrow was made there
// too: it closed over that call's context, which holds its binding, so the first binding, its source and all they
// reach were kept for the page's life.
import { describe, expect, it } from 'vitest'
import { Signal, computed, flush } from '@eddy/signal'
import { collectUntil } from '../../../../scripts/gc.ts'

// Module-level: a registry that is collected itself never calls back.
const collected = new Set<string>()
const registry = new FinalizationRegistry<string>((name) => collected.add(name))

function component(name: string) {
  const count = new Signal(1)
  const el = document.body.appendChild(document.createElement('p'))
  el.dataset.unit = ' items'
  const big = new Array(1e6).fill(0)
  const label = computed(() => `${count.value}${el.dataset.unit}${big.length ? '' : '?'}`)
  label.bind(el)
  flush()
  registry.register(el, name + ' node')
  registry.register(label, name + ' computed')
  registry.register(count, name + ' signal')
  el.remove()
}

describe('the first binding of a page', () => {
  it('is collected whole once dropped (node, computed, signal), like any later one', async () => {
    component('first')
    component('second')
    await collectUntil(() => collected.size === 6)
    expect([...collected].sort()).toEqual([
      'first computed',
      'first node',
      'first signal',
      'second computed',
      'second node',
      'second signal',
    ])
  })
})
