// @vitest-environment node
// The README states the package's size; this keeps that figure honest (esbuild needs Node's own globals, not
// happy-dom's, hence the environment above).
import { expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
// @ts-expect-error: a plain .mjs script without type declarations
import { measure } from '../../../scripts/size.mjs'

it("should state in its README the size that `pnpm size` measures", async () => {
  const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8')
  const stated = /`pnpm size` reports the whole package, minified and gzipped: \*\*([\d,]+) bytes\*\*/.exec(readme)?.[1]
  const { gzip } = (await measure('scheduler')) as { gzip: number }
  expect(stated?.replace(/,/g, '')).toBe(String(gzip))
}, 30_000)
