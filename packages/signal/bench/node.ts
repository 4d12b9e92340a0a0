/**
 * Node entry of the signal benchmark (see README.md):
 *   pnpm bench:signal [--quick] [--json[=FILE]] [--rounds=N] [--warmup=N] [--only=REGEX] [--frameworks=a,b]
 *                     [--same-thread] [--clock=wall|cpu]
 * Prints the Markdown table on stdout, progress on stderr. `--json` prints the report as JSON instead
 * of the table; `--json=FILE` writes it to FILE as well.
 *
 * Each framework runs in its own worker thread (its own V8 isolate), driven one run at a time from
 * here in interleaved rounds. In one isolate the case code, shared by all frameworks, collects JIT
 * feedback from all of them (its call sites go megamorphic, then deopt): measured here on "broad",
 * preact came out 5.8-16x alien-signals in one thread against 1.9-2.0x in separate workers, while
 * alien-signals barely moved — an artefact of the harness, not of the libraries.
 * `--same-thread` runs everything in this thread anyway, to see that effect.
 */
import { writeFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { installDom } from './happy-dom.ts'
import type { Adapter } from './adapters.ts'
import type { Case } from './cases.ts'

interface WorkerInput {
  framework: string
  quick: boolean
  clock: Clock
}
/**
 * 'wall': performance.now(). 'cpu': the process's CPU time (user + system, all threads), which on a shared,
 * oversubscribed machine leaves out the time spent waiting for a core (only one worker runs at a time).
 */
type Clock = 'wall' | 'cpu'
const clocks: Record<Clock, () => number> = {
  wall: () => performance.now(),
  cpu: () => {
    const u = process.cpuUsage()
    return (u.user + u.system) / 1000
  },
}
type Reply = { ok: true; ms: number } | { ok: false; error: string }

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

/** Loads the adapters and cases after the DOM globals exist, in case a library looks them up at load. */
async function load(quick: boolean): Promise<{ adapters: Adapter[]; cases: Case[] }> {
  installDom()
  const { allAdapters } = await import('./all.ts')
  const { createCases } = await import('./cases.ts')
  return { adapters: [...allAdapters], cases: createCases({ quick }) }
}

/** A worker: runs the cases it is asked for on its one framework and replies with the time. */
async function serve(input: WorkerInput): Promise<void> {
  const { adapters, cases } = await load(input.quick)
  const { measureOnce, settle } = await import('./run.ts')
  const fw = adapters.find((a) => a.name === input.framework)!
  const gc = findGc()
  parentPort!.on('message', async (caseName: string) => {
    let reply: Reply
    try {
      const c = cases.find((k) => k.name === caseName)!
      reply = { ok: true, ms: measureOnce(c, fw, clocks[input.clock], gc) }
    } catch (e) {
      reply = { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }
    }
    await settle()
    parentPort!.postMessage(reply)
  })
  parentPort!.postMessage('ready')
}

/** Starts one worker for `framework` and returns a function that runs one case in it. */
async function spawn(input: WorkerInput): Promise<{ measure: (c: string) => Promise<number>; stop: () => void }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: input })
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve())
    worker.once('error', reject)
  })
  return {
    measure: (caseName) =>
      new Promise<number>((resolve, reject) => {
        worker.once('message', (reply: Reply) => (reply.ok ? resolve(reply.ms) : reject(new Error(reply.error))))
        worker.postMessage(caseName)
      }),
    stop: () => void worker.terminate(),
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const flag = (name: string) => args.includes(`--${name}`)
  const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
  const quick = flag('quick')
  const only = option('only')
  const names = option('frameworks')?.split(',')
  const sameThread = flag('same-thread')
  const clock = (option('clock') ?? 'wall') as Clock
  if (!(clock in clocks)) throw new TypeError(`--clock: expected wall or cpu, got ${clock}`)

  const { adapters: all, cases: allCases } = await load(quick)
  const { runBenchmarks, toMarkdown } = await import('./run.ts')
  const adapters = all.filter((a) => !names || names.includes(a.name))
  const cases = allCases.filter((c) => !only || new RegExp(only, 'i').test(c.name))
  const gc = findGc()
  const log = (line: string) => process.stderr.write(`${line}\n`)
  log(
    `${cases.length} cases x ${adapters.map((a) => a.name).join(', ')}; ` +
      `${sameThread ? 'all in one thread' : 'one worker thread per framework'}; gc between runs: ${gc ? 'yes' : 'no'}`,
  )

  const workers = new Map<string, Awaited<ReturnType<typeof spawn>>>()
  if (!sameThread) for (const a of adapters) workers.set(a.name, await spawn({ framework: a.name, quick, clock }))

  const report = await runBenchmarks({
    adapters,
    cases,
    warmup: Number(option('warmup') ?? 1),
    rounds: Number(option('rounds') ?? (quick ? 3 : 7)),
    now: clocks[clock],
    gc,
    log,
    measure: sameThread ? undefined : (c, fw) => workers.get(fw.name)!.measure(c.name),
  })
  for (const w of workers.values()) w.stop()
  report.environment.userAgent =
    `Node ${process.version} (${process.platform} ${process.arch}), happy-dom, ` +
    (sameThread ? 'one thread' : 'one worker thread per framework') +
    `, ${clock} clock`

  const json = option('json')
  if (json) writeFileSync(json, JSON.stringify(report, null, 2))
  if (flag('json')) console.log(JSON.stringify(report, null, 2))
  else console.log(toMarkdown(report))
  // happy-dom may hold timers open; the report is out, so end here. Missed targets are reported, not an exit code.
  process.exit(0)
}

if (isMainThread) await main()
else await serve(workerData as WorkerInput)
