/** The "Signals 101" card: a counter bound to the page (e2e/tests/counter.spec.ts clicks "Increment"). */
import { computed, Signal } from '@eddy/signal'

export function setupBasics(root: HTMLElement): void {
  const count = new Signal(0)
  const doubled = computed(() => count.value * 2)
  count.bind(root.querySelector('#count')!)
  doubled.bind(root.querySelector('#doubled')!)
  root.querySelector('#increment')!.addEventListener('click', () => count.value++)
  root.querySelector('#add-thousand')!.addEventListener('click', () => {
    // A thousand writes, one DOM write per binding: the render waits for the next microtask checkpoint.
    for (let i = 0; i < 1000; i++) count.value++
  })
}
