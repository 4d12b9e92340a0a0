// Instruction counts per case, under valgrind (callgrind): a measure that does not move with the machine's
// load, for a shared or oversubscribed machine where wall and CPU times are noise. Optional tooling: needs
// `valgrind` on PATH (Debian: apt-get install valgrind); not part of CI.
//
//   node packages/signal/bench/instructions.mjs [--frameworks=eddy,alien-signals] [--only=REGEX]
//        [--warmup=4] [--runs=4] [--profile] [--jobs=2] [--signal-src=DIR] [--node-flags="--single-threaded ..."]
//   e.g. --frameworks=eddy,hand-written --only=bound  for the DOM case (run only when --only names it)
//
// Prints a Markdown table: millions of instructions per run of each graph case, and the ratio to
// alien-signals. `--profile` adds, per framework and case, the functions with the most self instructions
// (JIT code named through V8's --perf-basic-prof map). Instructions are not time (cache misses, branch
// mispredictions and GC threads' parallelism are left out), so read them next to `pnpm bench:signal`.
// Everything runs under valgrind: expect ~1-2 minutes per framework for all cases.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleTs } from '../../../scripts/bundle-ts.mjs'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const args = process.argv.slice(2)
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const frameworks = option('frameworks', 'eddy,alien-signals,preact-signals').split(',')
const only = option('only', '')
const warmup = Number(option('warmup', 4))
const runs = Number(option('runs', 4))
const jobs = Number(option('jobs', 2))
const profile = args.includes('--profile')
// --signal-src=DIR: measure a patched copy of packages/signal/src (e.g. to try a fix before committing it).
const signalSrc = option('signal-src', '')
// --node-flags="...": extra node/V8 flags. "--single-threaded" (no concurrent compiler or GC threads) makes the
// counts repeatable to ~1% (compare variants with it), "--no-turbo-inlining" gives --profile per-function rows.
const nodeExtra = option('node-flags', '').split(' ').filter(Boolean)

const outfile = `${root}node_modules/.cache/run-ts/instructions-${process.pid}.mjs`
await bundleTs(`${root}packages/signal/bench/instructions-entry.ts`, outfile, {
  alias: signalSrc ? { '@eddy/signal': resolve(signalSrc, 'index.ts') } : {},
})

function run(cmd, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}: ${err.slice(-2000)}`))))
  })
}

/** Self instructions per function in one callgrind dump (made with --dump-instr=yes); JIT code named via `map`. */
function selfCosts(text, map) {
  const costs = new Map()
  let ob = ''
  let fn = ''
  let skip = false
  for (const line of text.split('\n')) {
    if (line.startsWith('ob=')) ob = line.slice(3)
    else if (line.startsWith('fn=')) fn = line.slice(3)
    else if (line.startsWith('calls=')) skip = true // the next cost line is a call's inclusive cost
    else if (/^0x[0-9a-f]+\s/.test(line)) {
      if (skip) {
        skip = false
        continue
      }
      const [addr, , cost] = line.split(/\s+/)
      const jit = ob.includes('???') || fn.startsWith('0x')
      const key = jit ? (map(parseInt(addr, 16)) ?? '(unknown JIT code)') : `${fn.slice(0, 60)} [${ob.split('/').pop()}]`
      costs.set(key, (costs.get(key) ?? 0) + Number(cost))
    }
  }
  return costs
}

/** Looks addresses up in V8's /tmp/perf-PID.map (start size name per line). */
function perfMap(pid) {
  const file = `/tmp/perf-${pid}.map`
  if (!existsSync(file)) return () => undefined
  const ranges = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.match(/^([0-9a-f]+) ([0-9a-f]+) (.*)$/))
    .filter(Boolean)
    .map((m) => [parseInt(m[1], 16), parseInt(m[2], 16), m[3].replace(/ file:\/\/\S*\/(node_modules\/\.pnpm\/[^/]+\/node_modules\/)?/, ' ')])
    .sort((a, b) => a[0] - b[0])
  rmSync(file, { force: true })
  return (addr) => {
    let lo = 0
    let hi = ranges.length - 1
    let best
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (ranges[mid][0] <= addr) (best = ranges[mid]), (lo = mid + 1)
      else hi = mid - 1
    }
    return best && addr < best[0] + best[1] ? best[2] : undefined
  }
}

/** Runs one framework under callgrind; returns { name -> { perRun, top } }. */
async function measure(framework) {
  const dir = mkdtempSync(`${tmpdir()}/eddy-callgrind-`)
  try {
    const nodeFlags = [...(profile ? ['--perf-basic-prof', '--no-compact-code-space'] : []), ...nodeExtra]
    const out = await run('valgrind', [
      '--tool=callgrind',
      '--dump-before=uv_getrusage',
      `--callgrind-out-file=${dir}/cg.out`,
      `--dump-instr=${profile ? 'yes' : 'no'}`,
      '--compress-strings=no',
      '--compress-pos=no',
      process.execPath,
      ...nodeFlags,
      outfile,
      framework,
      String(warmup),
      String(runs),
      only,
    ])
    const names = JSON.parse(out.trim().split('\n').pop())
    const dumps = readdirSync(dir)
      .filter((f) => /^cg\.out\.\d+$/.test(f))
      .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()))
    const first = readFileSync(`${dir}/${dumps[0]}`, 'utf8')
    const map = profile ? perfMap(first.match(/^pid: (\d+)/m)?.[1]) : () => undefined
    const result = {}
    names.forEach((name, i) => {
      // Two dumps per case: up to the first cpuUsage() (ignored), then the measured runs.
      const text = readFileSync(`${dir}/${dumps[2 * i + 1]}`, 'utf8')
      const total = Number(text.match(/^(?:summary|totals): (\d+)/m)?.[1])
      const top = profile ? [...selfCosts(text, map)].sort((a, b) => b[1] - a[1]).slice(0, 12) : []
      result[name] = { perRun: total / runs, top }
    })
    return result
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const results = {}
const queue = [...frameworks]
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let fw = queue.shift(); fw !== undefined; fw = queue.shift()) {
      process.stderr.write(`${fw}: running under callgrind...\n`)
      results[fw] = await measure(fw)
    }
  }),
)
rmSync(outfile, { force: true })

const names = [...new Set(frameworks.flatMap((f) => Object.keys(results[f])))]
const M = (n) => (n / 1e6).toFixed(1)
console.log(`| case | ${frameworks.join(' | ')} |`)
console.log(`|---|${frameworks.map(() => '---:').join('|')}|`)
const logs = Object.fromEntries(frameworks.map((f) => [f, [0, 0]]))
for (const name of names) {
  // Graph cases compare with alien-signals, the DOM case with the hand-written reference.
  const vs = name.startsWith('bound writes') ? 'hand-written' : 'alien-signals'
  const base = results[vs]?.[name]?.perRun
  const cells = frameworks.map((f) => {
    const v = results[f][name]?.perRun
    if (v === undefined) return ''
    if (!base || f === vs) return M(v)
    if (vs === 'alien-signals') (logs[f][0] += Math.log(v / base)), logs[f][1]++
    return `${M(v)} (${(v / base).toFixed(2)}x${vs === 'alien-signals' ? '' : ' vs ref'})`
  })
  console.log(`| ${name} | ${cells.join(' | ')} |`)
}
if (results['alien-signals'])
  console.log(
    `| **geomean vs alien-signals** | ${frameworks.map((f) => (logs[f][1] ? `**${Math.exp(logs[f][0] / logs[f][1]).toFixed(2)}x**` : '')).join(' | ')} |`,
  )
console.log(`\nMillions of instructions per run (callgrind, ${runs} runs after ${warmup} warm-up; setup and dispose included; bound writes at 3 x 100k).`)
if (profile)
  for (const f of frameworks)
    for (const name of names) {
      if (!results[f][name]) continue
      console.log(`\n${f} / ${name}: self instructions (M per run)`)
      for (const [k, v] of results[f][name].top) console.log(`  ${M(v / runs).padStart(8)}  ${k.slice(0, 120)}`)
    }
