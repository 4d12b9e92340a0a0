/** The demo page: wires each card to its element. */
import { Signal } from '@eddy/signal'
import { fps, frameCount, paused, startLlama } from './llama.ts'
import { setupLoops } from './loops-card.ts'
import { setupBench } from './bench-card.ts'
import { setupBasics } from './basics.ts'
import { setupMonitor } from './monitor-panel.ts'
import { afterPaint, disableWhileBusy, madeWhileBusy } from './state.ts'

const $ = <E extends Element = HTMLElement>(selector: string): E => {
  const el = document.querySelector<E>(selector)
  if (!el) throw new Error(`demo: ${selector} is missing from index.html`)
  return el
}

// The llama and its readouts.
frameCount.bind($('#frame-count'))
fps.bind($('#fps'))
startLlama($<SVGSVGElement>('#llama'))
paused.bind($('#llama-pause'), { attr: 'aria-pressed' })
$('#llama-pause').addEventListener('click', () => (paused.value = !paused.value))

// The click probe is never disabled: clicking it during a run shows when input is handled.
const clicks = new Signal(0)
clicks.bind($('#click-count'))
$('#click-probe').addEventListener('click', () => clicks.value++)

// While one run is in progress, every run button and input is disabled (index.html marks them), and a click made
// meanwhile, dispatched once a frozen page is free again, reaches none of them.
for (const el of document.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>('[data-busy-disables]')) {
  disableWhileBusy(el)
  el.addEventListener('click', (e) => void (madeWhileBusy(e) && e.stopImmediatePropagation()), { capture: true })
}

setupLoops($('.loops-card'))
setupBench($('.bench-card'))
setupBasics($('.basics-card'))

// The monitor watches the page in use, not its loading: it starts once the first frames are on screen, so the
// one-off cost of the first style, layout and paint does not open the chart with a spike and a pressure alarm.
void afterPaint().then(() => setupMonitor($('.monitor-card')))
