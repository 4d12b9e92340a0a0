/**
 * The runner: every framework on every case, side by side in one run, in interleaved rounds; then
 * medians, ratios to alien-signals, geometric means, the targets of issue 3, and a Markdown table.
 * Pure: no Node-only imports (timer, gc and yielding are passed in), so a browser page can use it.
 */
import type { Adapter } from './adapters.ts'
import type { Case } from './cases.ts'

/** What the runner needs to know of a framework (an Adapter is one). */
export type FrameworkInfo = Pick<Adapter, 'name' | 'reference'>
/** What the runner needs to know of a case (a Case is one). */
export type CaseInfo = Pick<Case, 'name' | 'group' | 'reference' | 'description'>

export interface RunOptions<C extends CaseInfo = Case, F extends FrameworkInfo = Adapter> {
  adapters: readonly F[]
  cases: readonly C[]
  /**
   * Runs `fw` on `c` once and returns the ms of the timed part, or throws (wrong result).
   * Default: `measureOnce` in this thread. Node passes one that runs each framework in its own
   * worker thread, so that the JIT feedback of the shared case code is not polluted by the others.
   */
  measure?: (c: C, fw: F) => number | Promise<number>
  /** Untimed rounds first, for the JIT (default 1). */
  warmup?: number
  /** Timed rounds; the median of them is reported (default 7). */
  rounds?: number
  /** High-resolution clock in ms (default `performance.now`). */
  now?: () => number
  /** Called before each timed run when the host exposes it (Node `--expose-gc`, Chromium `--js-flags=--expose-gc`). */
  gc?: () => void
  /** Progress lines (Node: stderr). */
  log?: (line: string) => void
}

export interface Sample {
  case: string
  framework: string
  /** Timed runs in ms, one per timed round. */
  samples: number[]
  /** Median of `samples`; NaN when the case failed or was not run. */
  median: number
  /** Fastest of `samples` (on a busy machine, a hint of the undisturbed time); NaN as above. */
  min: number
  /** Why the framework's result was wrong or why it threw: the case is then not timed. */
  error?: string
}

export interface Target {
  /** What is checked, in words. */
  name: string
  ok: boolean
  /** The measured figure, and the cases that miss, in words. */
  detail: string
}

export interface Report {
  /** The subject whose targets are checked (eddy when present). */
  subject: string
  baseline: string
  reference: string
  frameworks: string[]
  cases: { name: string; group: 'graph' | 'dom'; description: string }[]
  results: Sample[]
  /** Geometric mean of the ratio to the baseline over the 'graph' cases, per framework. */
  geomean: Record<string, number>
  targets: Target[]
  environment: { rounds: number; warmup: number; userAgent: string; date: string }
}

const BASELINE = 'alien-signals'
const PREACT = 'preact-signals'
const REFERENCE = 'hand-written'

const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Lets queued microtasks (eddy's and the reference's scheduled flushes) run, and the host breathe. */
export const settle = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0))

function message(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e)
}

/**
 * Runs one framework on one case once: prepares it untimed, times `run`, checks the result, disposes.
 * Returns the time in ms; throws when the result is wrong (a wrong answer is never a time).
 * A browser page can call this per case and per framework and do its own rounds.
 */
export function measureOnce(c: Case, fw: Adapter, now: () => number = () => performance.now(), gc?: () => void): number {
  if (fw.reference && !c.reference) throw new Error(`${fw.name} does not run "${c.name}"`)
  const trial = c.prepare(fw)
  try {
    gc?.()
    const t0 = now()
    trial.run()
    const t1 = now()
    const wrong = trial.check()
    if (wrong !== undefined) throw new Error(`wrong result: ${wrong}`)
    return t1 - t0
  } finally {
    trial.dispose()
  }
}

/**
 * Runs every case on every adapter that supports it: `warmup` untimed rounds, then `rounds` timed
 * ones. Within a round, each case runs every framework back to back, in an order rotated each
 * round, so drift in machine load hits all frameworks alike.
 */
export async function runBenchmarks<C extends CaseInfo, F extends FrameworkInfo>(options: RunOptions<C, F>): Promise<Report> {
  const { adapters, cases, warmup = 1, rounds = 7, now = () => performance.now(), gc, log = () => {} } = options
  const measure =
    options.measure ?? ((c: C, fw: F) => measureOnce(c as unknown as Case, fw as unknown as Adapter, now, gc))
  const results = new Map<string, Sample>()
  const key = (c: CaseInfo, fw: FrameworkInfo) => `${c.name}\u0000${fw.name}`
  for (const c of cases)
    for (const fw of adapters)
      if (!fw.reference || c.reference) results.set(key(c, fw), { case: c.name, framework: fw.name, samples: [], median: NaN, min: NaN })

  for (let round = 0; round < warmup + rounds; round++) {
    const timed = round >= warmup
    const t0 = now()
    for (const c of cases) {
      const n = adapters.length
      for (let k = 0; k < n; k++) {
        const fw = adapters[(k + round) % n]!
        const r = results.get(key(c, fw))
        if (r === undefined || r.error !== undefined) continue
        try {
          const ms = await measure(c, fw)
          if (timed) r.samples.push(ms)
        } catch (e) {
          r.error = message(e)
          log(`  ${fw.name} / ${c.name}: ${r.error}`)
        }
        await settle()
      }
    }
    log(`${timed ? `round ${round - warmup + 1}/${rounds}` : `warm-up ${round + 1}/${warmup}`}: ${((now() - t0) / 1000).toFixed(1)} s`)
  }
  for (const r of results.values()) {
    r.median = r.error === undefined ? median(r.samples) : NaN
    r.min = r.error === undefined && r.samples.length > 0 ? Math.min(...r.samples) : NaN
  }

  const frameworks = adapters.map((a) => a.name)
  const list = [...results.values()]
  const subject = frameworks.includes('eddy') ? 'eddy' : frameworks[0]!
  return {
    subject,
    baseline: BASELINE,
    reference: REFERENCE,
    frameworks,
    cases: cases.map((c) => ({ name: c.name, group: c.group, description: c.description })),
    results: list,
    geomean: Object.fromEntries(frameworks.map((f) => [f, geomean(list, cases, f)])),
    targets: targets(list, cases, subject),
    environment: {
      rounds,
      warmup,
      userAgent: typeof navigator === 'undefined' ? 'unknown' : navigator.userAgent,
      date: new Date().toISOString(),
    },
  }
}

function find(results: readonly Sample[], caseName: string, framework: string): Sample | undefined {
  return results.find((r) => r.case === caseName && r.framework === framework)
}

/** The subject's median divided by `other`'s on one case (NaN when either is missing or failed). */
export function ratio(results: readonly Sample[], caseName: string, framework: string, other: string): number {
  const a = find(results, caseName, framework)
  const b = find(results, caseName, other)
  return a && b ? a.median / b.median : NaN
}

/** Geometric mean of the ratio to alien-signals over the 'graph' cases; NaN if any of them failed. */
function geomean(results: readonly Sample[], cases: readonly CaseInfo[], framework: string): number {
  let logSum = 0
  let n = 0
  for (const c of cases) {
    if (c.group !== 'graph') continue
    const r = ratio(results, c.name, framework, BASELINE)
    if (!Number.isFinite(r) || r <= 0) return NaN
    logSum += Math.log(r)
    n++
  }
  return n === 0 ? NaN : Math.exp(logSum / n)
}

const x = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}x` : 'n/a')

/** The targets of issue 3, checked for `subject`. */
function targets(results: readonly Sample[], cases: readonly CaseInfo[], subject: string): Target[] {
  const errors = results.filter((r) => r.framework === subject && r.error !== undefined)
  const graph = cases.filter((c) => c.group === 'graph')
  const gm = geomean(results, cases, subject)
  const over = graph
    .map((c) => ({ c, r: ratio(results, c.name, subject, BASELINE) }))
    .filter(({ r }) => !(r <= 1.5))
  const slower = cases
    .map((c) => ({ c, r: ratio(results, c.name, subject, PREACT) }))
    .filter(({ r }) => !(r < 1))
  const dom = cases.filter((c) => c.group === 'dom')
  const vsRef = dom.map((c) => ({ c, r: ratio(results, c.name, subject, REFERENCE) }))
  const list = (xs: { c: CaseInfo; r: number }[]) => xs.map(({ c, r }) => `${c.name} ${x(r)}`).join('; ')
  return [
    {
      name: 'every case gives the right result',
      ok: errors.length === 0,
      detail: errors.length === 0 ? 'all checks pass' : errors.map((e) => `${e.case}: ${e.error}`).join('; '),
    },
    {
      name: `geometric mean <= 1.0x ${BASELINE} (graph cases)`,
      ok: gm <= 1,
      detail: x(gm),
    },
    {
      name: `no graph case above 1.5x ${BASELINE}`,
      ok: over.length === 0,
      detail: over.length === 0 ? 'none above' : list(over),
    },
    {
      name: `faster than ${PREACT} on every case`,
      ok: slower.length === 0,
      detail: slower.length === 0 ? 'faster on all' : `not faster: ${list(slower)}`,
    },
    {
      name: `bound writes <= 1.5x ${REFERENCE}`,
      ok: vsRef.length > 0 && vsRef.every(({ r }) => r <= 1.5),
      detail: list(vsRef) || 'not run',
    },
  ]
}

const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)) : '')

/** The report as Markdown: a table of median ms (ratio to alien-signals), the geometric means, the targets. */
export function toMarkdown(report: Report): string {
  const { frameworks, results } = report
  const lines: string[] = []
  lines.push(`| case | ${frameworks.join(' | ')} |`)
  lines.push(`|---|${frameworks.map(() => '---:').join('|')}|`)
  for (const c of report.cases) {
    const cells = frameworks.map((f) => {
      const r = find(results, c.name, f)
      if (r === undefined) return ''
      if (r.error !== undefined) return 'ERROR'
      const vs = c.group === 'dom' ? report.reference : report.baseline
      const q = ratio(results, c.name, f, vs)
      const tag = c.group === 'dom' ? ` vs ref` : ''
      return f === vs ? ms(r.median) : `${ms(r.median)} (${x(q)}${tag})`
    })
    lines.push(`| ${c.name} | ${cells.join(' | ')} |`)
  }
  lines.push(`| **geomean vs ${report.baseline}** (graph cases) | ${frameworks.map((f) => (f === report.reference ? '' : `**${x(report.geomean[f]!)}**`)).join(' | ')} |`)
  lines.push('')
  lines.push(
    `Median ms of ${report.environment.rounds} interleaved rounds (after ${report.environment.warmup} warm-up); ` +
      `in brackets the ratio to ${report.baseline} (lower is faster), for bound writes to the ${report.reference} reference.`,
  )
  const errors = results.filter((r) => r.error !== undefined)
  if (errors.length > 0) {
    lines.push('')
    lines.push('Errors (a wrong result is never timed):')
    for (const e of errors) lines.push(`- ${e.framework} / ${e.case}: ${e.error}`)
  }
  lines.push('')
  lines.push(`Targets for ${report.subject}:`)
  for (const t of report.targets) lines.push(`- [${t.ok ? 'x' : ' '}] ${t.name}: ${t.detail}`)
  return lines.join('\n')
}
