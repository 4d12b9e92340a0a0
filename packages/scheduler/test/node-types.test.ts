// The README says the scheduler works in Node: a Node-only TypeScript consumer of the shipped dist/*.d.ts (no DOM
// lib, @types/node, skipLibCheck off) must type-check. It failed so: dist/host.d.ts, reached through queue.d.ts's
// `Strategy` import, exported internals typed with DOM-only names (Performance, PerformanceObserver).
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'

const root = process.cwd() // vitest's root: the repository

it('a Node-only strict consumer (lib ES2022, types node, skipLibCheck false) type-checks against dist', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-node-consumer-'))
  try {
    mkdirSync(join(dir, 'node_modules/@eddy'), { recursive: true })
    symlinkSync(join(root, 'packages/scheduler'), join(dir, 'node_modules/@eddy/scheduler'))
    symlinkSync(join(root, 'node_modules/@types'), join(dir, 'node_modules/@types'))
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }')
    writeFileSync(join(dir, 'main.ts'), `import { loop, macrotask, monitor, yieldToMain } from '@eddy/scheduler'
const l = loop(() => false); macrotask(() => {}); const m = monitor(); await yieldToMain(); console.log(l.iterations, m.lag.p99)
`)
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: ['node'], strict: true, noEmit: true, skipLibCheck: false }, files: ['main.ts'] }))
    // Its exit status too: a tsc that crashed, or wrote only to stderr, printed nothing to stdout and passed.
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir, '--pretty', 'false'], { encoding: 'utf8' })
    const output = (tsc.stdout + tsc.stderr).split('\n').filter(Boolean).map((l) => l.replace(/^.*dist\//, 'dist/'))
    expect({ status: tsc.status, output }).toEqual({ status: 0, output: [] })
  } finally { rmSync(dir, { recursive: true, force: true }) }
})
