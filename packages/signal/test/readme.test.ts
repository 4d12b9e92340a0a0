// @vitest-environment node
// The README examples are code a user copies: every ```ts block of README.md and of this package's README must
// typecheck against the public types (scripts/readme-check.mjs; a line meant to fail is marked @ts-expect-error).
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script without type declarations
import { check, checkReadmes, undocumented } from '../../../scripts/readme-check.mjs'

const run = check as (doc: { name: string; markdown: string; uses: object; preamble: string }) => string[]

describe('README examples', () => {
  it('should typecheck in README.md and packages/signal/README.md', () => {
    expect(checkReadmes(['README.md', 'packages/signal/README.md'])).toEqual([])
  }, 60_000)

  it('should report a broken example at its README line, and an expected error that is none', () => {
    const markdown = [
      '# x',
      '```ts',
      "const s = new Signal('a')",
      's.value = 1',
      '```',
      '',
      '```ts',
      'const d = computed(() => count.value * 2)',
      '// @ts-expect-error: read-only',
      'd.value = 3',
      '// @ts-expect-error: not an error',
      'count.value = 3',
      '```',
    ].join('\n')
    const errors = run({
      name: 'X.md',
      markdown,
      uses: { '@eddy/signal': ['Signal', 'computed'] },
      preamble: "declare const count: import('@eddy/signal').Signal<number>",
    })
    expect(errors).toEqual([
      "X.md:4: error TS2322: Type 'number' is not assignable to type 'string'.",
      "X.md:11: error TS2578: Unused '@ts-expect-error' directive.",
    ])
  }, 60_000)
})

it('should document every export: a doc comment in the shipped declarations, a README section with an example', () => {
  expect(undocumented('signal')).toEqual([])
}, 60_000)
