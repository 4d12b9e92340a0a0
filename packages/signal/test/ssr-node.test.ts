// SSR trial, the server half: the same store and templates as test/browser/apps/ssr/ (server.mjs), run in a plain
// Node 20 process on the SHIPPED dist (node_modules/@eddy/signal is a symlink to packages/signal, as in
// node-app.test.ts), with no DOM. Here, not under test/browser/: the unit project runs it (the browser project
// cannot start a process).
import { afterAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as eddy from '@eddy/signal'
import { createStore, initialState, renderPage } from './browser/apps/ssr/server.mjs'

const root = join(fileURLToPath(import.meta.url), '../../../..')
const project = mkdtempSync(join(tmpdir(), 'eddy-ssr-'))
mkdirSync(join(project, 'node_modules/@eddy'), { recursive: true })
symlinkSync(join(root, 'packages/signal'), join(project, 'node_modules/@eddy/signal'))
copyFileSync(join(root, 'packages/signal/test/browser/apps/ssr/server.mjs'), join(project, 'server.mjs'))
afterAll(() => rmSync(project, { recursive: true, force: true }))

function node(code: string) {
  writeFileSync(join(project, 'app.mjs'), code)
  const r = spawnSync(process.execPath, ['app.mjs'], { cwd: project, encoding: 'utf8', timeout: 60_000 })
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
  return JSON.parse(r.stdout.trim().split('\n').pop()!)
}

describe('rendering the page in Node with @eddy/signal', () => {
  it('computed and batch work with no DOM; no DOM global is read at import or while rendering; same HTML as the browser', () => {
    const out = node(`
// Every browser-only global a library could touch, as a getter that records the read (typeof reads it too).
const names = ['window', 'document', 'self', 'navigator', 'location', 'Node', 'Element', 'HTMLElement', 'Text',
  'MutationObserver', 'CSS', 'requestAnimationFrame', 'reportError', 'customElements', 'getComputedStyle']
const reads = []
for (const n of names) Object.defineProperty(globalThis, n, { configurable: true, get: () => (reads.push(n), undefined) })
const eddy = await import('@eddy/signal')
const atImport = reads.splice(0)
const { createStore, initialState, renderPage } = await import('./server.mjs')
const s = createStore(eddy, initialState())
const first = renderPage(s)
let runs = 0
const stop = eddy.effect(() => { s.total.value; runs++ })
eddy.batch(() => { s.qty.value = 4; s.price.value = 2.5; s.agree.value = true })
const second = renderPage(s)
stop()
await new Promise((r) => setImmediate(r))
console.log(JSON.stringify({ atImport, whileRendering: reads, first, second, runs, total: s.total.value }))
`)
    expect(out.atImport).toEqual([])
    expect(out.whileRendering).toEqual([])
    expect([out.runs, out.total]).toEqual([2, 10]) // one effect run for the batch of three writes
    // The browser's render of the same state (here with the src build, in this process) is the same string.
    expect(out.first).toBe(renderPage(createStore(eddy, initialState())))
    expect(out.second).toMatch(/<button id="submit">Order<\/button>/)
    expect(out.second).toMatch(/<!--t-->10<!--\/t-->/)
    expect(out.second).toMatch(/"qty":4,"price":2.5/)
  })
})
