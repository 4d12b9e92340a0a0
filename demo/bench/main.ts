/**
 * The benchmark page: exposes the cases as `window.eddyBench` for the Playwright benchmarks (e2e/bench).
 * Nothing runs on load; every measurement is one call from the test, so the Node side controls rounds and order.
 */
import { strategy } from '@eddy/scheduler'
import type { BenchApi } from './api.ts'
import { countDomWrites, millionModes, runMillion } from './million.ts'
import { reactivityAdapters, runReactivity, setupFrameworkFrame } from './reactivity.ts'
import { loop, loopKinds, queue, queueImpls, turnKinds, turns } from './scheduler.ts'

const api: BenchApi = {
  million: { modes: millionModes, run: runMillion, countDomWrites },
  scheduler: { strategy, turnKinds, turns, queueImpls, queue, loopKinds, loop },
  reactivity: { adapters: reactivityAdapters, run: runReactivity },
}

const params = new URLSearchParams(location.search)
const framework = params.get('framework')
if (framework) {
  // A frame of the reactivity benchmark: one library, its own copy of the case code (see reactivity.ts).
  setupFrameworkFrame(framework, params.get('quick') === '1')
  document.getElementById('bench-status')!.textContent = `Frame: ${framework}`
} else {
  window.eddyBench = api
  document.getElementById('bench-status')!.textContent = 'Ready'
}
