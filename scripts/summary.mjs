// Sums the results of every test runner in a folder into one line: "N passed, N failed".
// Usage: node scripts/summary.mjs [dir] [runner...]; runners default to typecheck vitest e2e (scripts/test.sh);
// .ci/run adds bench (scripts/bench.sh writes .results/bench.json).
// A runner that should have written its report but did not (a crash) counts as one failure.
// Each failed test is named on stderr, next to the counts: the end of a CI log is often all that is kept.
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
// A Vitest file that failed with no failed test in it: it did not load, or a hook (beforeAll, afterAll) threw.
const failedAlone = (f) => f.status === 'failed' && !f.assertionResults?.some((a) => a.status === 'failed')
/** [passed, failed] of one runner's report. */
const count = (r) => {
  if ('numPassedTests' in r) {
    // Vitest's JSON reporter; a file that failed to load, or whose hook threw, is a failed suite (see failedAlone).
    return [r.numPassedTests, r.numFailedTests + r.testResults.filter(failedAlone).length]
  }
  if (r.stats) {
    // Playwright's JSON reporter (e2e and bench); top-level errors (a web server that did not start) are failures.
    return [r.stats.expected + r.stats.flaky, r.stats.unexpected + (r.errors?.length ?? 0)]
  }
  return [r.passed, r.failed]
}
// Whatever was thrown: a test may throw a plain object or a number, whose "message" is null or no string.
const firstLine = (message) =>
  String(message ?? '').replace(/\x1b\[[0-9;]*m/g, '').trim().split('\n')[0].slice(0, 300) || '(no message: see the log)'
/** "title: first line of the error" of each failed test in one runner's report. */
const failures = (r) => {
  if ('numPassedTests' in r) {
    return r.testResults.flatMap((f) => {
      const file = f.name.replace(`${process.cwd()}/`, '')
      if (failedAlone(f)) return [`${file}: ${firstLine(f.message)}`]
      return f.assertionResults
        .filter((a) => a.status === 'failed')
        .map((a) => `${file} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`)
    })
  }
  if (r.stats) {
    const out = (r.errors ?? []).map((e) => `error: ${firstLine(e.message)}`)
    const walk = (suite, path) => {
      for (const s of suite.suites ?? []) walk(s, [...path, s.title])
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          if (t.status === 'unexpected') {
            const error = t.results?.at(-1)?.error?.message
            out.push(`${[...path, spec.title].filter(Boolean).join(' > ')}: ${firstLine(error)}`)
          }
    }
    walk(r, [])
    return out
  }
  return r.failures ?? []
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
  // Only words: a report of an unexpected shape must not fail the run that it describes.
  try {
    for (const line of failures(r)) console.error(`summary:   failed: ${line}`)
  } catch (e) {
    console.error(`summary:   (could not list the failed tests: ${e})`)
  }
  passed += p
  failed += f
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
