// The shipped build, imported the way a user would: packages/signal/dist (built by `pnpm run build`, which
// `npm test` runs before Vitest).
import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as source from '@eddy/signal'

// node:url's helpers, not the URL global (happy-dom replaces it in this environment).
const dist = join(fileURLToPath(import.meta.url), '../../dist')
const root = join(dist, '../../..')

// A consumer of both packages' published declarations, resolved through their package.json `exports` (symlinked
// into its node_modules, as a package manager links them), checked the way a strict project would check it.
const consumer = `
import { Signal, computed, effect, batch, untracked, flush, settled, configure } from '@eddy/signal'
import type { Binding, BindTarget, ReadonlyBindTarget, Computed, Dispose, EffectFn, Schedule, SignalOptions } from '@eddy/signal'
import * as scheduler from '@eddy/scheduler'

const options: SignalOptions<number> = { equals: (a, b) => a === b }
const count = new Signal<number>(1, options)
const doubled: Computed<number> = computed(() => count.value * 2)
const body: EffectFn = () => untracked(() => void doubled.peek())
const stop: Dispose = effect(body)
const target: BindTarget<number> = { model: 'input' }
const readonlyTarget: ReadonlyBindTarget<number> = { attr: 'title', format: (n) => n + 1 }
const bindings: Binding[] = [count.bind(document.body, target), doubled.bind(document.body, readonlyTarget)]
const schedule: Schedule = 'microtask'
configure({ schedule })
batch(() => (count.value = 2))
flush()
settled().then(() => bindings.forEach((b) => b[Symbol.dispose]()), stop)
export const total: number = doubled.valueOf() + JSON.parse(JSON.stringify(doubled.toJSON())) + count.valueOf()
export const label: string = \`\${doubled.toString()} \${count}\`
export const api: [typeof scheduler, typeof Signal] = [scheduler, Signal]
// A Signal<T> is a Signal<unknown>, a Signal of a wider T, and a Computed<T> (the read-only view a helper can take).
export const views: [Signal<unknown>, Signal<string>, Computed<number>] = [count, new Signal<'a' | 'b'>('a'), count]
`
const tsconfig = () => ({
  compilerOptions: {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    // No ESNext.Disposable: the declarations that use `Symbol.dispose` (Dispose, Binding) reference it themselves.
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
  },
  // Every shipped declaration file too, even one no entry reaches: it is in the package all the same. By its real
  // path, the one tsc resolves the symlinked imports to (through the link, each file would be checked twice).
  files: [
    'consumer.ts',
    ...['signal', 'scheduler'].flatMap((name) => {
      const dir = join(root, 'packages', name, 'dist')
      return readdirSync(dir)
        .filter((f) => f.endsWith('.d.ts'))
        .map((f) => join(dir, f))
    }),
  ],
})

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

  it("should ship declarations that type-check with skipLibCheck false (with @eddy/scheduler's)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'eddy-consumer-'))
    try {
      mkdirSync(join(dir, 'node_modules/@eddy'), { recursive: true })
      for (const name of ['signal', 'scheduler'])
        symlinkSync(join(root, 'packages', name), join(dir, 'node_modules/@eddy', name), 'junction')
      writeFileSync(join(dir, 'consumer.ts'), consumer)
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(), null, 2))
      const tsc = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], {
        cwd: dir,
        encoding: 'utf8',
      })
      expect(tsc.error).toBeUndefined()
      expect({ status: tsc.status, output: tsc.stdout + tsc.stderr }).toEqual({ status: 0, output: '' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
