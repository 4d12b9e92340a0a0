// Prints the min+gzip size of each package's whole public entry, the way a bundler would ship it.
// Also imported by each package's size test, which checks that its README states the measured size.
import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// The same property mangling as the shipped build (scripts/build-package.mjs): internals are `_`-prefixed.
const mangleProps = /^_/
const root = fileURLToPath(new URL('..', import.meta.url))

/** Bundles packages/<name>/src/index.ts minified; resolves to its minified and min+gzip sizes in bytes. */
export async function measure(name) {
  const out = await build({
    entryPoints: [`${root}packages/${name}/src/index.ts`],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'neutral',
    write: false,
    legalComments: 'none',
    mangleProps,
  })
  const code = out.outputFiles[0].contents
  return { package: `@eddy/${name}`, min: code.length, gzip: gzipSync(code, { level: 9 }).length }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = []
  for (const name of readdirSync(`${root}packages`)) rows.push(await measure(name))
  const pad = (s, n) => String(s).padStart(n)
  console.log('package              min bytes   min+gzip bytes')
  for (const r of rows) console.log(`${r.package.padEnd(20)} ${pad(r.min, 9)}   ${pad(r.gzip, 14)}`)
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows))
}
