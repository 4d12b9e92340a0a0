// Sums the results of every test runner in a folder into one line: "N passed, N failed".
// Usage: node scripts/summary.mjs [dir] [runner...]; runners default to typecheck vitest e2e (scripts/test.sh);
// .ci/run adds bench (scripts/bench.sh writes .results/bench.json).
// A runner that should have written its report but did not (a crash) counts as one failure.
import { readFileSync } from 'node:fs'

const dir = process.argv[2] ?? '.results'
const expected = process.argv.slice(3).length ? process.argv.slice(3) : ['typecheck', 'vitest', 'e2e']
let passed = 0
let failed = 0
const read = (name) => {
  try {
    return JSON.parse(readFileSync(`${dir}/${name}.json`, 'utf8'))
  } catch {
    return undefined
  }
}
/** [passed, failed] of one runner's report. */
const count = (r) => {
  if ('numPassedTests' in r) {
    // Vitest's JSON reporter; a file that failed to load has no tests but is a failed suite.
    return [
      r.numPassedTests,
      r.numFailedTests + r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length,
    ]
  }
  if (r.stats) {
    // Playwright's JSON reporter (e2e and bench); top-level errors (a web server that did not start) are failures.
    return [r.stats.expected + r.stats.flaky, r.stats.unexpected + (r.errors?.length ?? 0)]
  }
  return [r.passed, r.failed]
}
for (const name of expected) {
  const r = read(name)
  if (!r) {
    console.error(`summary: no report from ${name}`)
    failed++
    continue
  }
  const [p, f] = count(r)
  // The breakdown goes to stderr, so that stdout's one line stays the harness's line.
  console.error(`summary: ${name}: ${p} passed, ${f} failed`)
  passed += p
  failed += f
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
