// The package in a plain Node process: nothing queued means the process exits by itself, even with a monitor
// running, a MessageChannel queue used, cancelled callbacks and a loop waiting on a step that never settles. Run on an esbuild bundle of the source and on the shipped dist/index.js.
import { afterAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..')

const script = (entry: string) => `
import { createQueue, loop, macrotask, monitor, probeTurnRate, strategy, yieldToMain } from ${JSON.stringify(entry)}
const order = []
for (let i = 0; i < 5; i++) macrotask(() => order.push(i))
await yieldToMain()
const mc = createQueue({ strategy: 'messageChannel' })
await new Promise((resolve) => { mc.macrotask(() => order.push('mc')); mc.macrotask(resolve) })
// A backlog past its budget: the port re-posts in two hops and stays ref'd in between, or the process would exit early.
const slow = createQueue({ strategy: 'messageChannel', budgetMs: 2 })
let slowRan = 0
await new Promise((resolve) => {
  for (let k = 0; k < 20; k++) slow.macrotask(() => { const t = performance.now(); while (performance.now() - t < 1); slowRan++ })
  slow.macrotask(resolve)
})
order.push(slowRan)
let i = 0
const iterations = await loop(async () => ++i < 10000).done
const m = monitor()
// A 200 ms block just after the monitor's first sample: its next one is >= 150 ms late.
const blockStart = performance.now()
while (performance.now() - blockStart < 200);
const rate = await probeTurnRate({ durationMs: 50 })
// The baseline from the same process: Node's setTimeout(0) chain (1 ms a turn at best).
const timeoutRate = await probeTurnRate({ strategy: 'setTimeout', durationMs: 50 })
// Cancelled work on both wake-ups, and a loop whose step never settles, keep nothing alive (and a cancelled
// callback that ran would throw: uncaught in Node, a non-zero exit).
macrotask(() => { throw new Error('a cancelled callback ran') })()
mc.macrotask(() => { throw new Error('a cancelled callback ran') })()
loop(() => new Promise(() => {}))
setTimeout(() => {
  console.log(JSON.stringify({ strategy, order, iterations, rate, timeoutRate, lag: m.lag }))
  // No stop(): the monitor must not keep the process alive on its own.
}, 120)
`

// One temporary folder for every script and bundle of this file, removed once it is done (a folder per run was
// left behind: ~900 after a few weeks of runs).
const tmp = mkdtempSync(join(tmpdir(), 'eddy-scheduler-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
let runs = 0

function runNode(entry: string, code = script(entry)) {
  const file = join(tmp, `main-${runs++}.mjs`)
  writeFileSync(file, code)
  return spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 })
}

/** Bundles the package source for a child process; resolves to the bundle's path. */
async function bundle(): Promise<string> {
  const outfile = join(tmp, `scheduler-${runs++}.mjs`)
  await build({ entryPoints: [join(pkg, 'src/index.ts')], bundle: true, format: 'esm', platform: 'neutral', outfile, logLevel: 'silent' })
  return outfile
}

function check(result: ReturnType<typeof runNode>) {
  // Killed by the timeout means it did not exit by itself.
  expect(result.signal, result.stderr).toBe(null)
  expect(result.status, result.stderr).toBe(0)
  const report = JSON.parse(result.stdout)
  expect(report.strategy).toBe('setImmediate')
  expect(report.order).toEqual([0, 1, 2, 3, 4, 'mc', 20])
  expect(report.iterations).toBe(10000)
  // setImmediate turns far faster than a setTimeout(0) chain, measured side by side (~1M/s against < 1,000/s).
  expect(report.timeoutRate).toBeGreaterThan(0)
  expect(report.rate, `setImmediate ${report.rate}/s, setTimeout ${report.timeoutRate}/s`).toBeGreaterThan(10 * report.timeoutRate)
  expect(report.lag.max).toBeGreaterThanOrEqual(150)
}

describe('in Node', () => {
  it('should run everything and exit by itself (esbuild bundle of the source)', async () => {
    check(runNode(await bundle()))
  }, 30_000)

  it("should read utilization from Node's own event-loop utilization, which sees tasks too short to make a timer late", async () => {
    const entry = await bundle()
    // 2 s of back-to-back 2 ms tasks: every timer fires within 2 ms, so sampling alone reads 0. Node's active time
    // is ~2,000 ms, over the 5 s window: ~0.4. Then 1 s idle adds nothing.
    const result = runNode(entry, `
import { macrotask, monitor } from ${JSON.stringify(entry)}
const m = monitor()
const end = performance.now() + 2000
await new Promise((resolve) => {
  const task = () => {
    const t = performance.now()
    while (performance.now() - t < 2);
    t < end ? macrotask(task) : resolve()
  }
  macrotask(task)
})
const busy = m.utilization
await new Promise((resolve) => setTimeout(resolve, 1000))
console.log(JSON.stringify({ busy, after: m.utilization, lag: m.lag.max }))
m.stop()
`)
    expect(result.status, result.stderr).toBe(0)
    const { busy, after, lag } = JSON.parse(result.stdout)
    // Not asserted on the lag (a wall-clock figure of a shared machine): it only says how much sampling saw.
    expect(busy, `worst lag ${lag} ms`).toBeGreaterThan(0.3)
    expect(busy).toBeLessThanOrEqual(0.45)
    // Idle for a second: the window still holds the busy 2 s, and gains nothing.
    expect(after).toBeGreaterThan(0.3)
    expect(after - busy).toBeLessThan(0.02)
  }, 30_000)

  it('should do the same from the shipped build, dist/index.js', () => {
    // Built before Vitest: by `npm test`, else by Vitest's global setup (scripts/fresh-dist.mjs).
    check(runNode(join(pkg, 'dist/index.js')))
  }, 30_000)
})
