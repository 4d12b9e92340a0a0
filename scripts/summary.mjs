// Sums the results of every test runner in a folder into one line: "N passed, N failed".
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
for (const name of expected) {
  const r = read(name)
  if (!r) {
    console.error(`summary: no report from ${name}`)
    failed++
  } else if ('numPassedTests' in r) {
    // Vitest's JSON reporter; a file that failed to load has no tests but is a failed suite.
    passed += r.numPassedTests
    failed += r.numFailedTests + r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length
  } else if (r.stats) {
    // Playwright's JSON reporter.
    passed += r.stats.expected + r.stats.flaky
    failed += r.stats.unexpected + (r.errors?.length ?? 0)
  } else {
    passed += r.passed
    failed += r.failed
  }
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
