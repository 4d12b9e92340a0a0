// The shipped build, imported the way a user would: packages/signal/dist (built by `pnpm run build`, which
// `npm test` runs before Vitest).
import { describe, expect, it } from 'vitest'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as source from '@eddy/signal'

// node:url's helpers, not the URL global (happy-dom replaces it in this environment).
const dist = join(fileURLToPath(import.meta.url), '../../dist')

async function load(): Promise<typeof source> {
  return import(/* @vite-ignore */ pathToFileURL(join(dist, 'index.js')).href)
}

describe('@eddy/signal (built dist)', () => {
  it('should export the same names as the source', async () => {
    const built = await load()
    expect(Object.keys(built).sort()).toEqual(Object.keys(source).sort())
  })

  it('should work end to end: signal, computed, effect, binding, flush', async () => {
    const { Signal, computed, effect, batch, settled } = await load()
    const count = Signal(1)
    const doubled = computed(() => count.value * 2)
    const seen: number[] = []
    const stop = effect(() => {
      seen.push(doubled.value)
    })
    const el = document.createElement('p')
    doubled.bind(el)
    batch(() => {
      count.value = 2
      count.value = 3
    })
    await settled()
    expect(seen).toEqual([2, 6])
    expect(el.textContent).toBe('6')
    stop()
    expect(() => effect(1 as never)).toThrow(/^effect: expected a function, got number$/)
  })

  it('should ship declarations without internals', () => {
    const files = readdirSync(dist).filter((f) => f.endsWith('.d.ts'))
    expect(files).toContain('index.d.ts')
    const text = files.map((f) => readFileSync(join(dist, f), 'utf8')).join('\n')
    expect(text).toMatch(/declare class Signal/)
    expect(text).not.toMatch(/\b_(value|flags|subs|deps|version)\b/)
    expect(text).not.toMatch(/from '\.\/[^']+\.ts'/)
  })
})
