// Node entry of the scheduler benchmark: `pnpm bench:scheduler` (= node scripts/run-ts.mjs packages/scheduler/bench/node.ts).
// Options: --rounds N (default 5), --ms N (per lone turn-rate measurement; twice this per case of a ratio; default 200), --only turns,queue,loops,
// --wall, --json.
import { markdown, run, type RunOptions } from './cases.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const at = process.argv.indexOf('--only')
const only = at > 0 ? (process.argv[at + 1].split(',') as RunOptions['only']) : undefined
// --wall: report wall time; by default CPU-bound cases are normalized to this process's CPU time (a shared machine).
const cpu = process.argv.includes('--wall') ? undefined : () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const results = await run({ rounds: arg('rounds', 5), ms: arg('ms', 200), only, cpu, log: (line) => console.error(line) })
console.log(markdown(results))
if (process.argv.includes('--json')) console.log(JSON.stringify(results))
