// Bundles a TypeScript entry for Node with esbuild: the workspace's own sources, with `@eddy/<name>` aliased to
// packages/<name>/src/index.ts (as in vite.config.ts and tsconfig.json); packages from node_modules stay external.
// Shared by scripts/run-ts.mjs and packages/signal/bench/instructions.mjs.
import { build } from 'esbuild'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Bundles `entry` to `outfile`; `alias` entries override the `@eddy/*` ones. */
export async function bundleTs(entry, outfile, { alias = {}, sourcemap = false } = {}) {
  const aliases = {}
  for (const name of readdirSync(`${root}packages`)) {
    const index = `${root}packages/${name}/src/index.ts`
    if (existsSync(index)) aliases[`@eddy/${name}`] = index
  }
  mkdirSync(dirname(outfile), { recursive: true })
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // Constant folding, as production bundles get it: the flag constants of @eddy/signal become literals instead of
    // a `var` load per test (measured under callgrind: 10-17% of the graph cases' instructions).
    minifySyntax: true,
    alias: { ...aliases, ...alias },
    sourcemap: sourcemap ? 'inline' : false,
    logLevel: 'warning',
  })
}
