// Vitest's global setup: some tests check the shipped builds, packages/*/dist (the signal dist and overflow tests,
// the scheduler's Node child process, the keep-alive browser test). `npm test` builds before Vitest runs; a plain
// `vitest run` after an edit would test a stale build. So a package whose dist/index.js is missing or older than a
// file of its src/ is built again here. Synchronous: the two projects' setups run in one process, never together.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const packages = fileURLToPath(new URL('../packages/', import.meta.url))
const build = fileURLToPath(new URL('./build-package.mjs', import.meta.url))

export default function setup() {
  for (const name of readdirSync(packages)) {
    const out = `${packages}${name}/dist/index.js`
    const built = existsSync(out) ? statSync(out).mtimeMs : -1
    const src = `${packages}${name}/src/`
    if (!readdirSync(src).some((f) => statSync(src + f).mtimeMs > built)) continue
    console.log(`[fresh-dist] building @eddy/${name}: its dist is missing or older than its src`)
    try {
      execFileSync(process.execPath, [build], { cwd: `${packages}${name}`, stdio: 'inherit' })
    } catch {
      // A build error (printed above) fails only the tests of the build: the build script removed dist/ first.
      console.warn(`[fresh-dist] @eddy/${name} did not build: the tests of its dist will fail, the others run`)
    }
  }
}
