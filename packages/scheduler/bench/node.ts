// Node entry of the scheduler benchmark: `pnpm bench:scheduler` (= node scripts/run-ts.mjs packages/scheduler/bench/node.ts).
// Options: --rounds N (default 5), --ms N (per turn-rate / queue measurement, default 200), --json.
import { markdown, run } from './cases.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const results = await run({ rounds: arg('rounds', 5), ms: arg('ms', 200), log: (line) => console.error(line) })
console.log(markdown(results))
if (process.argv.includes('--json')) console.log(JSON.stringify(results))
