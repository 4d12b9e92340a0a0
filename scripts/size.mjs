// Prints the min+gzip size of each package's whole public entry, the way a bundler would ship it.
// Also imported by each package's size test, which checks that its README states the measured size.
// `--files` adds where the bytes go: each source file's minified bytes, and what gzip grows by with them (the
// bundle gzipped whole, less the bundle gzipped without that file's code; shared strings count for no one file,
// so these add up to less than the total).
import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// The same property mangling as the shipped build (scripts/build-package.mjs): internals are `_`-prefixed.
const mangleProps = /^_/
const root = fileURLToPath(new URL('..', import.meta.url))
const gzip = (code) => gzipSync(code, { level: 9 }).length

/**
 * Bundles packages/<name>/src/index.ts minified; resolves to its minified and min+gzip sizes in bytes, and, with
 * `{ files: true }`, `files`: each source file's minified bytes and marginal gzip bytes, in bundle order.
 */
export async function measure(name, { files = false } = {}) {
  const out = await build({
    entryPoints: [`${root}packages/${name}/src/index.ts`],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'neutral',
    write: false,
    outfile: 'out.js',
    metafile: true,
    legalComments: 'none',
    mangleProps,
  })
  const code = Buffer.from(out.outputFiles[0].contents)
  const whole = gzip(code)
  const row = { package: `@eddy/${name}`, min: code.length, gzip: whole }
  if (!files) return row
  // esbuild writes each module's code in one piece, in the order of the metafile's inputs.
  let at = 0
  row.files = Object.entries(out.metafile.outputs['out.js'].inputs).map(([file, { bytesInOutput: min }]) => {
    const without = Buffer.concat([code.subarray(0, at), code.subarray((at += min))])
    return { file: file.replace(/^.*src\//, ''), min, gzip: whole - gzip(without) }
  })
  return row
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = []
  const files = process.argv.includes('--files')
  for (const name of readdirSync(`${root}packages`)) rows.push(await measure(name, { files }))
  const pad = (s, n) => String(s).padStart(n)
  console.log('package              min bytes   min+gzip bytes')
  for (const r of rows) {
    console.log(`${r.package.padEnd(20)} ${pad(r.min, 9)}   ${pad(r.gzip, 14)}`)
    if (files)
      for (const f of r.files.filter((f) => f.min).sort((a, b) => b.gzip - a.gzip))
        console.log(`  ${f.file.padEnd(18)} ${pad(f.min, 9)}   ${pad(f.gzip, 14)}`)
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows))
}
