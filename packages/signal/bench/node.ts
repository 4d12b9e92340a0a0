/**
 * Node entry of the signal benchmark: `pnpm bench:signal [--quick] [--json[=FILE]] [--rounds=N]
 * [--warmup=N] [--only=REGEX] [--frameworks=a,b]`. Prints the Markdown table on stdout, progress on stderr.
 * `--json` prints the report as JSON instead of the table; `--json=FILE` writes it to FILE as well.
 */
import { writeFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { installDom } from './happy-dom.ts'
import type { Adapter } from './adapters.ts'

// The DOM globals go in before the libraries load (dynamic imports), in case one looks them up at load.
installDom()
const { peerAdapters, handWrittenAdapter } = await import('./adapters.ts')
const { createCases } = await import('./cases.ts')
const { runBenchmarks, toMarkdown } = await import('./run.ts')

const args = process.argv.slice(2)
const flag = (name: string) => args.includes(`--${name}`)
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)

/** `gc` from --expose-gc, or switched on at run time (V8 allows it for new contexts). */
function findGc(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc
  if (g) return g
  try {
    setFlagsFromString('--expose-gc')
    return runInNewContext('gc') as () => void
  } catch {
    return undefined
  }
}

const quick = flag('quick')
const only = option('only')
const frameworks = option('frameworks')?.split(',')
const adapters: Adapter[] = [...peerAdapters, handWrittenAdapter].filter((a) => !frameworks || frameworks.includes(a.name))
const cases = createCases({ quick }).filter((c) => !only || new RegExp(only, 'i').test(c.name))
const gc = findGc()
const log = (line: string) => process.stderr.write(`${line}\n`)
log(`${cases.length} cases x ${adapters.map((a) => a.name).join(', ')}; gc between runs: ${gc ? 'yes' : 'no'}`)

const report = await runBenchmarks({
  adapters,
  cases,
  warmup: Number(option('warmup') ?? 1),
  rounds: Number(option('rounds') ?? (quick ? 3 : 7)),
  gc,
  log,
})
report.environment.userAgent = `Node ${process.version} (${process.platform} ${process.arch}), happy-dom`

const json = option('json')
if (json) writeFileSync(json, JSON.stringify(report, null, 2))
if (flag('json')) console.log(JSON.stringify(report, null, 2))
else console.log(toMarkdown(report))
// happy-dom may hold timers open; the report is out, so end here. Missed targets are reported, not an exit code.
process.exit(0)
