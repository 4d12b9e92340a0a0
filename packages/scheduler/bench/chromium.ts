// Chromium run of the scheduler benchmark: bundles cases.ts for the browser, loads it into a blank page of the
// system Chromium (never `playwright install`) and prints the same Markdown tables as node.ts.
//   node scripts/run-ts.mjs packages/scheduler/bench/chromium.ts [--rounds N] [--ms N] [--only turns,queue,loops] [--json]
import { build } from 'esbuild'
import { chromium } from 'playwright'
import type { Results, RunOptions } from './cases.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}

// run-ts bundles this file into node_modules/.cache, so paths are found from the repository root.
const root = process.cwd()
const bundle = await build({
  stdin: {
    contents: `import { run, markdown } from './cases.ts'; globalThis.eddySchedulerBench = { run, markdown }`,
    resolveDir: `${root}/packages/scheduler/bench`,
    loader: 'ts',
  },
  bundle: true,
  format: 'iife',
  target: 'es2022',
  write: false,
  alias: { '@eddy/scheduler': `${root}/packages/scheduler/src/index.ts` },
  logLevel: 'warning',
})

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
try {
  const page = await browser.newPage()
  await page.setContent('<!doctype html><title>eddy scheduler bench</title><p>running</p>')
  await page.addScriptTag({ content: bundle.outputFiles[0].text })
  const at = process.argv.indexOf('--only')
  const only = at > 0 ? (process.argv[at + 1].split(',') as RunOptions['only']) : undefined
  const options: RunOptions = { rounds: arg('rounds', 5), ms: arg('ms', 200), only }
  const { results, table } = await page.evaluate(async (o) => {
    const api = (globalThis as any).eddySchedulerBench
    const results: Results = await api.run(o)
    return { results, table: api.markdown(results) as string }
  }, options)
  console.log(table)
  if (process.argv.includes('--json')) console.log(JSON.stringify(results))
} finally {
  await browser.close()
}
