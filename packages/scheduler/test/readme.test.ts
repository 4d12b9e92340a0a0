// @vitest-environment node
// The README examples are code a user copies: every ```ts block must typecheck against the public types
// (scripts/readme-check.mjs, which packages/signal/test/readme.test.ts tests).
import { expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script without type declarations
import { checkReadmes, undocumented } from '../../../scripts/readme-check.mjs'

it('should typecheck the examples of packages/scheduler/README.md', () => {
  expect(checkReadmes(['packages/scheduler/README.md'])).toEqual([])
}, 60_000)

it('should document every export: a doc comment in the shipped declarations, a README section with an example', () => {
  expect(undocumented('scheduler')).toEqual([])
}, 60_000)
