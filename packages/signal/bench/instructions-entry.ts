/**
 * Entry run under valgrind by ./instructions.mjs: runs the graph cases on one framework, `warmup` times
 * untimed, then `runs` times between two `process.cpuUsage()` calls. Each of those calls enters libuv's
 * uv_getrusage, where callgrind (`--dump-before=uv_getrusage`) dumps and resets its counters: the dumps then
 * hold the instructions of each case's measured runs, whatever else the machine is doing.
 * Prints the case names (JSON) so the driver can pair them with the dumps.
 */
import { installDom } from './happy-dom.ts'
import type { Adapter } from './adapters.ts'
import type { Case } from './cases.ts'

const [name = 'eddy', warmup = '4', runs = '4', only = ''] = process.argv.slice(2)
// The DOM case ("bound writes", 3 x 100k here) runs only when `only` names it; it needs happy-dom first.
const filter = new RegExp(only, 'i')
installDom()
const { allAdapters } = await import('./all.ts')
const { createCases } = await import('./cases.ts')
const fw: Adapter | undefined = allAdapters.find((a) => a.name === name)
if (fw === undefined) throw new Error(`unknown framework ${name}`)
const cases: Case[] = createCases({ quick: true }).filter(
  (c) => filter.test(c.name) && (c.group === 'graph' ? !fw.reference : only !== ''),
)

const names: string[] = []
for (const c of cases) {
  const once = () => {
    const trial = c.prepare(fw)
    trial.run()
    const wrong = trial.check()
    trial.dispose()
    if (wrong !== undefined) throw new Error(`${fw.name} / ${c.name}: wrong result: ${wrong}`)
  }
  for (let i = 0; i < Number(warmup); i++) once()
  process.cpuUsage() // callgrind dump: everything up to here (ignored)
  for (let i = 0; i < Number(runs); i++) once()
  process.cpuUsage() // callgrind dump: the measured runs
  names.push(c.name)
}
console.log(JSON.stringify(names))
