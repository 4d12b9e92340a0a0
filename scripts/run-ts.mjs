// Runs a TypeScript entry under Node: bundles it with esbuild (the workspace's own sources, with
// `@eddy/<name>` aliased to packages/<name>/src/index.ts as in vite.config.ts and tsconfig.json) into
// node_modules/.cache/run-ts/, then runs the bundle with node. Packages from node_modules stay
// external, so Node resolves them from the repository as usual.
//
//   node scripts/run-ts.mjs [node flags...] <entry.ts> [args...]
//
// Leading `--flags` go to node (e.g. --expose-gc, --cpu-prof); the rest goes to the script.
// NODE_ENV defaults to "production", so libraries load their production builds as an app would.
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleTs } from './bundle-ts.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const argv = process.argv.slice(2)
const at = argv.findIndex((a) => !a.startsWith('-'))
if (at < 0) {
  console.error('usage: node scripts/run-ts.mjs [node flags...] <entry.ts> [args...]')
  process.exit(2)
}
const nodeFlags = argv.slice(0, at)
const entry = resolve(argv[at])
const args = argv.slice(at + 1)

const outdir = `${root}node_modules/.cache/run-ts`
// One file per entry and process, so parallel runs by different people never overwrite each other.
const outfile = `${outdir}/${basename(entry).replace(/\.[cm]?tsx?$/, '')}-${process.pid}.mjs`
await bundleTs(entry, outfile, { sourcemap: true })

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' }
const child = spawnSync(process.execPath, [...nodeFlags, outfile, ...args], { stdio: 'inherit', env })
// RUN_TS_KEEP=1 keeps the bundle, e.g. to read a --cpu-prof profile against it.
if (!process.env.RUN_TS_KEEP) rmSync(outfile, { force: true })
else console.error(`run-ts: kept ${outfile}`)
if (child.error) throw child.error
process.exit(child.status ?? 1)
