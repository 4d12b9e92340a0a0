// Runs a fixture under Node, Deno or Bun as a child process. The Deno and Bun binaries come from DENO_BIN / BUN_BIN,
// the repo's node_modules/.bin, or PATH; a missing one fails the test that needs it, with how to get it.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures')
const root = join(fixtures, '../../../../..')
export type Runtime = 'node' | 'deno' | 'bun'
export const runtimes: Runtime[] = ['node', 'deno', 'bun']

export function binary(rt: Runtime): string {
  if (rt == 'node') return process.execPath
  const env = process.env[`${rt.toUpperCase()}_BIN`]
  const dirs = [join(root, 'node_modules/.bin'), ...(process.env.PATH ?? '').split(delimiter)]
  const found = env ?? dirs.map((d) => join(d, rt)).find((p) => existsSync(p))
  if (!found) throw new Error(`${rt} not found: set ${rt.toUpperCase()}_BIN, put it on PATH, or install it (npm i ${rt})`)
  return found
}

export interface Run { code: number | null; signal: string | null; stdout: string; stderr: string; ms: number; report: any }

/** Runs `fixture` with `arg`; kills it after `timeoutMs` (a hang shows as signal SIGKILL, not as a hung test). */
export function run(rt: Runtime, fixture: string, arg = '', timeoutMs = 15_000): Promise<Run> {
  const file = join(fixtures, fixture)
  const args = rt == 'deno' ? ['run', '-A', '--no-prompt', file, arg] : [file, arg]
  const t = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(binary(rt), args, {
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = '', stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const line = stdout.split('\n').find((l) => l.startsWith('REPORT '))
      resolve({ code, signal, stdout, stderr, ms: performance.now() - t, report: line && JSON.parse(line.slice(7)) })
    })
  })
}

/** The `LOG` lines a fixture printed, in order. */
export const logs = (r: Run) => r.stdout.split('\n').filter((l) => l.startsWith('LOG ')).map((l) => l.slice(4))
