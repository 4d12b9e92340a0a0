/**
 * The benchmark page: exposes the cases as `window.eddyBench` for the Playwright benchmarks (e2e/bench).
 * Nothing runs on load. The million-update modes are measured one call at a time (the test runs the rounds); the
 * scheduler and reactivity benchmarks run their packages' own runners (the bench folders of packages/signal and packages/scheduler) in the page.
 */
import type { BenchApi } from './api.ts'
import { countDomWrites, millionModes, runMillion } from './million.ts'
import { reactivityAdapters, runReactivity, setupFrameworkFrame } from './reactivity.ts'
import { runScheduler } from './scheduler.ts'

const api: BenchApi = {
  million: { modes: millionModes, run: runMillion, countDomWrites },
  scheduler: { run: runScheduler },
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
