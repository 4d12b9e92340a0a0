#!/usr/bin/env node
// Compares this run's benchmark results with a baseline's (e.g. main's last run, kept as a CI artifact).
//   node scripts/bench-compare.mjs <baseline-dir> [<current-dir> = e2e/results] [--tolerance 0.25] [--json]
// Each directory holds million.json, scheduler.json, reactivity.json as `npm run bench` writes them.
// Only within-run ratios are compared (they cancel out the runner's speed); absolute ms are never compared.
// A metric regresses when it is worse than the baseline by more than its tolerance (a fraction: 0.25 = 25%).
// Exit: 0 no regression, 1 a regression, 2 a file or a metric is missing.
import { readFileSync } from 'node:fs'

const args = process.argv.slice(2)
const flag = (name) => args.includes(name)
const option = (name, fallback) => {
  const i = args.indexOf(name)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const dirs = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--tol'))
const [baseDir, curDir = 'e2e/results'] = dirs
if (!baseDir) {
  console.error('usage: node scripts/bench-compare.mjs <baseline-dir> [<current-dir>] [--tolerance 0.25] [--json]')
  process.exit(2)
}
const defaultTolerance = option('--tolerance', 0.25)

const load = (dir, name) => JSON.parse(readFileSync(`${dir}/${name}.json`, 'utf8'))
const find = (r, prefix, fw) => r.results.find((x) => x.case.startsWith(prefix) && x.framework === fw)

/**
 * The headline ratios: [name, better ('higher' | 'lower'), extract(m), tolerance?]. Where they live and which way
 * is better had to be read from e2e/bench/*.bench.ts and packages/*\/bench: the JSON does not say.
 */
const metrics = [
  ['million: innerHTML / eddy (coalescing speed-up)', 'higher', (m) => m.million.ratio.innerHTML.eddy, 0.5],
  ['million: eddy / hand-written', 'lower', (m) => m.million.ratio.eddy.handWritten],
  ['scheduler: macrotask / raw primitive turns/s', 'higher', (m) => m.scheduler.turnRatio.ratio],
  ['scheduler: queue / hand-written, worst batch size', 'higher', (m) => Math.min(...m.scheduler.queue.map((q) => q.ratio))],
  ['scheduler: loop() / microtask recursion ns per iteration', 'lower', (m) => m.scheduler.loopRatio],
  ['reactivity: eddy geomean / preact geomean', 'lower', (m) => m.reactivity.geomean.eddy / m.reactivity.geomean['preact-signals']],
  ['reactivity: eddy geomean vs alien-signals', 'lower', (m) => m.reactivity.geomean.eddy],
  [
    'reactivity: eddy bound writes / hand-written',
    'lower',
    (m) => find(m.reactivity, 'bound writes', 'eddy').median / find(m.reactivity, 'bound writes', m.reactivity.reference).median,
  ],
]

let base, cur
try {
  const read = (dir) => Object.fromEntries(['million', 'scheduler', 'reactivity'].map((n) => [n, load(dir, n)]))
  base = read(baseDir)
  cur = read(curDir)
} catch (e) {
  console.error(`bench-compare: ${e.message}`)
  process.exit(2)
}

const rows = []
let regressions = 0
let missing = 0
for (const [name, better, get, tol = defaultTolerance] of metrics) {
  let b, c
  try {
    b = get(base)
    c = get(cur)
  } catch {}
  if (!Number.isFinite(b) || !Number.isFinite(c)) {
    missing++
    rows.push({ name, better, baseline: b ?? null, current: c ?? null, change: null, status: 'missing' })
    continue
  }
  // "worse" as a fraction: for lower-is-better, how much it grew; for higher-is-better, how much it shrank.
  const worse = better === 'lower' ? c / b - 1 : b / c - 1
  const status = worse > tol ? 'REGRESSION' : 'ok'
  if (status !== 'ok') regressions++
  rows.push({ name, better, baseline: b, current: c, change: worse, tolerance: tol, status })
}

if (flag('--json')) console.log(JSON.stringify({ regressions, missing, rows }, null, 2))
else {
  const f = (n) => (n == null ? 'n/a' : n >= 100 ? n.toFixed(0) : n.toFixed(3))
  console.log('| metric | better | baseline | current | worse by | tolerance | |')
  console.log('|---|---|---:|---:|---:|---:|---|')
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.better} | ${f(r.baseline)} | ${f(r.current)} | ${r.change == null ? 'n/a' : `${(r.change * 100).toFixed(0)}%`} | ${r.tolerance == null ? '' : `${r.tolerance * 100}%`} | ${r.status} |`,
    )
  console.log(`${regressions} regressed, ${missing} missing, ${rows.length - regressions - missing} ok`)
}
process.exit(missing ? 2 : regressions ? 1 : 0)
