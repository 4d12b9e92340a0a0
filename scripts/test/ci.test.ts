// @vitest-environment node
/**
 * The scripts and configs a CI job runs (scripts/setup.sh, .ci/run, the Playwright and Vitest configs,
 * packages/scheduler/bench/chromium.ts, scripts/bench-compare.mjs), from a user trial "benchmarks in our CI"; each of
 * the first six failed before its fix. They run shell scripts and read configs, so they are in the unit project (Node).
 * Every script run here happens in a throwaway copy of the scripts with a fake `pnpm` and a fake `apt-get` first on
 * PATH: nothing is installed.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test, vi } from 'vitest'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const sandboxes: string[] = []
afterEach(() => {
  for (const d of sandboxes.splice(0)) rmSync(d, { recursive: true, force: true })
})

/**
 * A copy of what the CI scripts need, in a temp dir: the scripts, package.json, the lockfile and an up-to-date
 * install stamp (so setup.sh never installs), plus fake `pnpm` (reports the pinned version) and `apt-get`
 * (records its arguments, exits with $FAKE_APT_RC) on PATH.
 */
function sandbox(): { dir: string; path: string; aptLog: string } {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-ci-'))
  sandboxes.push(dir)
  for (const f of ['.ci/run', 'scripts/setup.sh', 'scripts/test.sh', 'scripts/bench.sh', 'scripts/summary.mjs', 'package.json', 'pnpm-lock.yaml']) {
    mkdirSync(join(dir, f, '..'), { recursive: true })
    copyFileSync(join(repo, f), join(dir, f))
  }
  mkdirSync(join(dir, 'node_modules'))
  const lock = createHash('sha256').update(readFileSync(join(dir, 'pnpm-lock.yaml'))).digest('hex')
  writeFileSync(join(dir, 'node_modules/.eddy-lock-hash'), `${lock}\n`)
  const bin = join(dir, 'fake-bin')
  const aptLog = join(dir, 'apt-get.log')
  mkdirSync(bin)
  writeFileSync(join(bin, 'pnpm'), `#!/bin/sh\n[ "$1" = --version ] && { echo 12.21.0; exit 0; }\necho "fake pnpm $*" >&2; exit 1\n`)
  writeFileSync(join(bin, 'apt-get'), `#!/bin/sh\necho "$*" >> '${aptLog}'\nexit \${FAKE_APT_RC:-0}\n`)
  chmodSync(join(bin, 'pnpm'), 0o755)
  chmodSync(join(bin, 'apt-get'), 0o755)
  return { dir, path: `${bin}:${process.env.PATH}`, aptLog }
}

const run = (cwd: string, cmd: string, args: string[], env: Record<string, string>) =>
  spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 })

const lines = (s: string | null) => (s ?? '').trim().split('\n')
const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

describe('CHROMIUM_PATH set but empty (what `CHROMIUM_PATH: ${{ vars.CHROMIUM_PATH }}` gives when the variable is unset)', () => {
  // setup.sh reads ${CHROMIUM_PATH:-/usr/bin/chromium}: empty means the default, and it checks /usr/bin/chromium.
  // Every launcher must then launch that same binary; with `?? '/usr/bin/chromium'` they pass '' to Playwright,
  // which falls back to its own download (never installed here) and says to run `npx playwright install`.
  const withEmpty = async <T>(load: () => Promise<T>): Promise<T> => {
    const saved = process.env.CHROMIUM_PATH
    process.env.CHROMIUM_PATH = ''
    vi.resetModules()
    try {
      return await load()
    } finally {
      if (saved === undefined) delete process.env.CHROMIUM_PATH
      else process.env.CHROMIUM_PATH = saved
      vi.resetModules()
    }
  }

  test('e2e/bench.config.ts launches the Chromium that setup.sh checked', async () => {
    const config = await withEmpty(() => import('../../e2e/bench.config.ts').then((m) => m.default))
    expect(config.use?.launchOptions?.executablePath).toBe('/usr/bin/chromium')
  })

  test('e2e/playwright.config.ts launches the Chromium that setup.sh checked', async () => {
    const config = await withEmpty(() => import('../../e2e/playwright.config.ts').then((m) => m.default))
    expect(config.use?.launchOptions?.executablePath).toBe('/usr/bin/chromium')
  })

  test('vite.config.ts (the Vitest browser project) launches the Chromium that setup.sh checked', async () => {
    const chromiumPath = await withEmpty(() => import('../../vite.config.ts').then((m) => m.chromiumPath))
    expect(chromiumPath).toBe('/usr/bin/chromium')
  })

  test('packages/scheduler/bench/chromium.ts starts (a 10 ms turn-rate run) instead of asking for playwright install', () => {
    const r = run(repo, process.execPath, ['scripts/run-ts.mjs', 'packages/scheduler/bench/chromium.ts', '--rounds', '1', '--ms', '10', '--only', 'turns'], {
      CHROMIUM_PATH: '',
    })
    expect(`${r.stderr}`).not.toMatch(/playwright install/)
    expect(r.status).toBe(0)
  }, 60_000)
})

describe('scripts/setup.sh with CHROMIUM_PATH pointing at a missing binary', () => {
  test('fails at once and does not run apt-get, which installs /usr/bin/chromium and cannot fix a custom path', () => {
    const { dir, path, aptLog } = sandbox()
    // Root, whoever runs the tests: setup runs apt-get only as root, so as another user this would pass anyway.
    const id = join(dir, 'fake-bin', 'id')
    writeFileSync(id, `#!/bin/sh\n[ "$1" = -u ] && { echo 0; exit 0; }\nexec /usr/bin/id "$@"\n`)
    chmodSync(id, 0o755)
    const r = run(dir, 'bash', ['scripts/setup.sh', '--chromium'], { PATH: path, CHROMIUM_PATH: '/nonexistent/chromium' })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('/nonexistent/chromium')
    // As root (the usual CI container), setup ran `apt-get update` and `apt-get install chromium` first: on a real
    // runner that is network and up to 15 minutes of timeouts before the same failure.
    expect(read(aptLog).trim().split('\n').filter(Boolean)).toEqual([])
  })
})

describe('.ci/run when setup fails (no Chromium) on a runner that keeps its workspace', () => {
  test('the final "N passed, N failed" line does not count the previous run\'s reports', () => {
    const { dir, path } = sandbox()
    // What the previous, successful pipeline left in .results (git-ignored, so `git clean` or a fresh checkout is
    // needed to lose it; self-hosted GitLab/GitHub runners keep it by default).
    mkdirSync(join(dir, '.results'))
    writeFileSync(join(dir, '.results/typecheck.json'), '{"passed":1,"failed":0}')
    writeFileSync(join(dir, '.results/vitest.json'), '{"numPassedTests":500,"numFailedTests":0,"testResults":[]}')
    writeFileSync(join(dir, '.results/e2e.json'), '{"stats":{"expected":40,"unexpected":0,"flaky":0},"suites":[]}')
    writeFileSync(join(dir, '.results/bench.json'), '{"stats":{"expected":14,"unexpected":0,"flaky":0},"suites":[]}')
    const r = run(dir, 'bash', ['.ci/run'], { PATH: path, CHROMIUM_PATH: '/nonexistent/chromium', FAKE_APT_RC: '100' })
    expect(r.status).not.toBe(0)
    const last = lines(r.stdout).at(-1)!
    // Nothing ran in this pipeline: the line must not say 555 tests passed.
    expect(last).toMatch(/^0 passed, [1-9]\d* failed$/)
  })
})

describe('what a CI comparison needs from e2e/results (scripts/bench-compare.mjs)', () => {
  // A self-contained pair of result sets in the shape `npm run bench` writes (fields as in e2e/bench/*.bench.ts).
  const results = (eddyOverHand: number) => ({
    million: { ratio: { innerHTML: { eddy: 500 }, eddy: { handWritten: eddyOverHand } } },
    scheduler: { turnRatio: { primitive: 'postTask', ratio: 0.97 }, queue: [{ perTurn: 1, ratio: 0.98 }], loopRatio: 1.15 },
    reactivity: {
      reference: 'hand-written',
      geomean: { eddy: 1.2, 'preact-signals': 2.3 },
      results: [
        { case: 'bound writes (3 x 100k)', framework: 'eddy', median: 3 },
        { case: 'bound writes (3 x 100k)', framework: 'hand-written', median: 3 },
      ],
    },
  })
  const write = (dir: string, r: ReturnType<typeof results>) => {
    mkdirSync(dir, { recursive: true })
    for (const [name, json] of Object.entries(r)) writeFileSync(join(dir, `${name}.json`), JSON.stringify(json))
  }

  test('passes an unchanged run and fails a 2x regression of eddy vs the hand-written reference', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eddy-compare-'))
    sandboxes.push(dir)
    write(join(dir, 'base'), results(1.0))
    write(join(dir, 'same'), results(1.1))
    write(join(dir, 'slow'), results(2.0))
    const compare = (cur: string) => run(repo, process.execPath, ['scripts/bench-compare.mjs', join(dir, 'base'), join(dir, cur)], {})
    expect(compare('same').status).toBe(0)
    const slow = compare('slow')
    expect(slow.status).toBe(1)
    expect(slow.stdout).toMatch(/million: eddy \/ hand-written .*REGRESSION/)
  })
})
