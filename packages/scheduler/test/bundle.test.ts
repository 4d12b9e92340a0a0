// @vitest-environment node
// @eddy/signal and @eddy/scheduler in a user's production build (from a user trial). A tiny app outside the repo (so
// that the repo's tsconfig `paths`, which point esbuild at src/, do not apply) links both packages in its node_modules
// and is built, minified, by Vite 8 (Rolldown) and by esbuild, through the packages' package.json `exports` (the
// shipped dist/): what tree-shaking drops, bundler warnings, the shipped files. Sizes are only compared with each
// other, never with a fixed number. Two copies of a package in one page: test/browser/apps/bundler-copies.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as esbuild from 'esbuild'
import { build, createLogger } from 'vite'
import { gzipSync } from 'node:zlib'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const gz = (code: string) => gzipSync(code, { level: 9 }).length
type Bundler = 'vite' | 'esbuild'
const bundlers: Bundler[] = ['vite', 'esbuild']

let app: string // links packages/* (the shipped dist/, as a workspace or an installed tarball gives it)
let entries = 0

beforeAll(async () => {
  const base = mkdtempSync(join(tmpdir(), 'eddy-bundle-trial-'))
  app = join(base, 'app')
  mkdirSync(join(app, 'node_modules/@eddy'), { recursive: true })
  writeFileSync(join(app, 'tsconfig.json'), '{"compilerOptions":{"target":"ES2022","moduleResolution":"bundler"}}')
  for (const name of ['signal', 'scheduler']) symlinkSync(join(root, 'packages', name), join(app, 'node_modules/@eddy', name), 'junction')
}, 60_000)
afterAll(() => app && rmSync(join(app, '..'), { recursive: true, force: true }))

/** Bundles `source` (an app's entry module) minified for the browser; the code, its min+gzip size and any warnings. */
async function bundle(source: string, bundler: Bundler) {
  const dir = app
  const entry = join(dir, `entry-${++entries}.js`)
  writeFileSync(entry, source)
  const warnings: string[] = []
  let code: string
  if (bundler == 'esbuild') {
    const out = await esbuild.build({
      entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022',
      write: false, logLevel: 'silent',
    })
    warnings.push(...out.warnings.map((w) => w.text))
    code = out.outputFiles[0]!.text
  } else {
    const logger = createLogger('warn')
    logger.warn = (msg) => void warnings.push(msg)
    logger.warnOnce = logger.warn
    const out: any = await build({
      root: dir, configFile: false, logLevel: 'warn', customLogger: logger,
      build: {
        write: false, minify: true, target: 'es2022', modulePreload: false,
        rolldownOptions: { input: entry, onwarn: (w: any) => void warnings.push(w.message) },
      },
    })
    code = (Array.isArray(out) ? out[0] : out).output.filter((o: any) => o.type == 'chunk').map((o: any) => o.code).join('\n')
  }
  return { code, gzip: gz(code), warnings }
}

/** An app entry that imports `names` from `pkg` and keeps them (so nothing it imported is unused). */
const uses = (pkg: string, names: string[]) => `import { ${names.join(', ')} } from '@eddy/${pkg}'\nglobalThis.app = [${names.join(', ')}]\n`
const whole = (pkg: string) => `import * as all from '@eddy/${pkg}'\nglobalThis.app = all\n`

// Markers: a piece of code only the named part of the package contains (checked against dist/index.js below).
const QUEUE = 'Math.ceil' // the batched queue's learned clock-read count (queue.ts): createQueue and the default one
const BINDINGS = 'compositionend' // the two-way form bindings' IME handling (bind.ts)

describe('the markers', () => {
  it('each marker is in its package once, in the code it stands for', () => {
    const sched = readFileSync(join(root, 'packages/scheduler/dist/index.js'), 'utf8')
    const signal = readFileSync(join(root, 'packages/signal/dist/index.js'), 'utf8')
    expect(sched.split(QUEUE)).toHaveLength(2)
    expect(sched.slice(sched.indexOf('function createQueue'), sched.indexOf('var macrotask'))).toContain(QUEUE)
    expect(signal).toContain(BINDINGS)
    expect(readFileSync(join(root, 'packages/signal/src/bind.ts'), 'utf8')).toContain(BINDINGS)
  })
})

describe.each(bundlers)('%s: what tree-shaking keeps', (bundler) => {
  it('a bare import of either package bundles to nothing: sideEffects: false drops an unused package', async () => {
    const bare = await bundle(`import '@eddy/signal'\nimport '@eddy/scheduler'\nglobalThis.app = 1\n`, bundler)
    const nothing = await bundle(`globalThis.app = 1\n`, bundler)
    expect(bare.code).toBe(nothing.code)
  })

  it('one scheduler export costs less than the whole package, and no bundler warns', async () => {
    const all = await bundle(whole('scheduler'), bundler)
    expect(all.warnings).toEqual([])
    for (const name of ['microtask', 'macrotask', 'loop', 'yieldToMain', 'monitor', 'probeTurnRate', 'strategy']) {
      const one = await bundle(uses('scheduler', [name]), bundler)
      expect(one.warnings, name).toEqual([])
      expect(one.gzip, name).toBeLessThan(all.gzip)
    }
  })

  // microtask is `queueMicrotask(fnArg('fn', fn))`, yieldToMain one post, strategy a string found at load: none of
  // them uses the batched queue. dist/index.js is one module, and its top-level `var macrotask =
  // createQueue().macrotask` was a call and a property read both bundlers kept: the whole queue rode along (Vite:
  // 1,038 B min+gzip for { microtask }, half the package, to 4cebd04). The default queue is now made by `queue()`,
  // marked free of side effects (/* @__NO_SIDE_EFFECTS__ */), and the call is dropped when `macrotask` is unused.
  it.each(['microtask', 'yieldToMain', 'strategy', 'probeTurnRate', 'loop'])('{ %s } alone carries none of the batched queue', async (name) => {
    const one = await bundle(uses('scheduler', [name]), bundler)
    expect(one.code.includes(QUEUE), `${name}: ${one.gzip} B min+gzip`).toBe(false)
  })

  it('{ microtask } alone is under a third of the whole package, and { macrotask } carries no option checks of createQueue', async () => {
    const all = await bundle(whole('scheduler'), bundler)
    const micro = await bundle(uses('scheduler', ['microtask']), bundler)
    expect(micro.gzip, `${micro.gzip} of ${all.gzip} B`).toBeLessThan(all.gzip / 3)
    const macro = await bundle(uses('scheduler', ['macrotask']), bundler)
    expect(macro.code).toContain(QUEUE)
    expect(macro.code).not.toContain('budgetMs')
  })

  // By design (README, Size): `bind` is a method of Signal.prototype, so every binding kind ships with `Signal`,
  // used or not (~2,300 B of the package's ~6,000 B). Pinned so that the README's figure stays true.
  it('an app using { Signal, computed, effect, batch } and no binding ships the bindings all the same', async () => {
    const core = await bundle(uses('signal', ['Signal', 'computed', 'effect', 'batch']), bundler)
    const all = await bundle(whole('signal'), bundler)
    expect(core.warnings).toEqual([])
    expect(core.code).toContain(BINDINGS)
    expect(core.gzip).toBeGreaterThan(all.gzip * 0.9)
  })
})

// A real app bundled and minified by each bundler, run in Node (the scheduler picks setImmediate there): the
// minifiers keep what the code relies on (`__proto__: null` in an object literal, `new.target`, mangled fields).
describe.each(bundlers)('%s: a minified app runs', (bundler) => {
  it('signals, computeds, effects, batch, macrotask, loop and yieldToMain work', async () => {
    const source = `
      import { Signal, computed, effect, batch } from '@eddy/signal'
      import { macrotask, loop, yieldToMain, strategy, createQueue } from '@eddy/scheduler'
      export async function run() {
        const log = []
        const a = Signal(1), b = new Signal(2)
        const sum = computed(() => a.value + b.value)
        const stop = effect(() => log.push('sum ' + sum.value))
        batch(() => { a.value = 10; b.value = 20 })
        stop()
        await new Promise((r) => macrotask(() => r(log.push('macrotask'))))
        const l = loop(() => l.iterations < 1000)
        log.push('loop ' + (await l.done))
        await yieldToMain()
        let bad
        try { createQueue({ strategy: 'toString' }) } catch (e) { bad = e.message }
        log.push(strategy, bad, JSON.stringify({ a }), String(b))
        return log
      }`
    const expected = ['sum 3', 'sum 30', 'macrotask', 'loop 1000', 'setImmediate', 'bad strategy: toString', '{"a":10}', '20']
    const out = await bundle(source.replace('export async function run', 'globalThis.run = async function'), bundler)
    const file = join(app, `run-${bundler}.mjs`)
    writeFileSync(file, out.code)
    delete (globalThis as any).run
    await import(/* @vite-ignore */ file)
    expect(await (globalThis as any).run()).toEqual(expected)
  })
})

describe('the shipped files', () => {
  it('dist/index.js is readable, unminified ESM with the source names a stack trace shows, and no dangling source map', () => {
    for (const [pkg, names] of [['signal', ['recompute', 'runEffect', 'checkDirty']], ['scheduler', ['createQueue', 'loop', 'monitor']]] as const) {
      const file = join(root, 'packages', pkg, 'dist/index.js')
      const code = readFileSync(file, 'utf8')
      for (const name of names) expect(code, `${pkg}: ${name}`).toMatch(new RegExp(`function ${name}\\(`))
      expect(code.split('\n').length).toBeGreaterThan(100)
      // No map is shipped; a sourceMappingURL to a missing file would make Vite's dev server and devtools warn.
      expect(code).not.toMatch(/sourceMappingURL/)
      expect(existsSync(file + '.map')).toBe(false)
    }
  })
})

describe('the READMEs', () => {
  it('say what an app ships, and to keep one copy of each package per page', () => {
    const signal = readFileSync(join(root, 'packages/signal/README.md'), 'utf8')
    const sched = readFileSync(join(root, 'packages/scheduler/README.md'), 'utf8')
    expect(signal).toMatch(/### In your bundle[^#]*One copy per page/)
    expect(sched).toMatch(/### In your bundle[^#]*One copy per page/)
  })
})
