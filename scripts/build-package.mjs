// Builds the package in the current directory: dist/index.js (one ES module, readable, not minified; `_`-prefixed internals get short names)
// and dist/index.d.ts (declarations with @internal members stripped).
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

rmSync('dist', { recursive: true, force: true })
await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'neutral',
  legalComments: 'none',
  // Internal fields and methods are `_`-prefixed and never part of the API: shipped under short names.
  mangleProps: /^_/,
  // Constant folding only (names and whitespace stay): the flag constants become literals, as a minifier makes them.
  // Left as `var WATCHING = 1`, each flag test is a load, and a consumer's minifier cannot inline a `var`.
  minifySyntax: true,
  logLevel: 'warning',
})
const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url))
execFileSync(tsc, ['-p', 'tsconfig.build.json'], { stdio: 'inherit' })
// tsc keeps the source's `.ts` import specifiers in declarations; published types must name `.js` files.
for (const file of readdirSync('dist')) {
  if (!file.endsWith('.d.ts')) continue
  const path = `dist/${file}`
  writeFileSync(path, readFileSync(path, 'utf8').replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.js$2'))
}
