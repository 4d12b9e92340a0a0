/** Shared by the Playwright benchmarks: medians, number formatting, and writing e2e/results/<name>.{json,md}. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'

export const resultsDir = fileURLToPath(new URL('../results/', import.meta.url))

/** Rounds per case (after one warm-up round); BENCH_ROUNDS overrides. */
export const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS) || 7)

export function median(values: number[]): number {
  if (!values.length) return NaN
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** A number for a table: thousands separators, `digits` decimals below 100, none above. */
export function fmt(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return 'n/a'
  const d = Math.abs(n) >= 100 ? 0 : digits
  return n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
}

/** A ratio for a table: "412x", "1.15x". */
export function ratio(n: number): string {
  return `${fmt(n, 2)}x`
}

export function markdownTable(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n')
}

/**
 * The measurement of a benchmark is one test and each ratio assertion is its own test that reads the measurement
 * back from e2e/results/<name>.json: a failed assertion then neither hides nor skips the others.
 */
export function forget(name: string): void {
  for (const ext of ['json', 'md', 'run']) rmSync(`${resultsDir}${name}.${ext}`, { force: true })
}

/** This run's id (bench/run-id.ts, Playwright's global setup). */
const run = (): string => process.env.EDDY_BENCH_RUN ?? 'no run id'

/**
 * The JSON a measurement test of this run saved; throws when it did not (the measurement failed, or did not run in
 * this run: a file left by an earlier run carries that run's id).
 */
export function load<T>(name: string): T {
  const file = `${resultsDir}${name}.json`
  const id = `${resultsDir}${name}.run`
  if (!existsSync(file) || !existsSync(id) || readFileSync(id, 'utf8') !== run())
    throw new Error(`no measurement: ${file} was not written in this run (see the measuring test)`)
  return JSON.parse(readFileSync(file, 'utf8')) as T
}

/** Writes the JSON and the Markdown of one benchmark and prints the Markdown. */
export function save(name: string, json: unknown, markdown: string): void {
  mkdirSync(resultsDir, { recursive: true })
  writeFileSync(`${resultsDir}${name}.json`, JSON.stringify(json, null, 2) + '\n')
  writeFileSync(`${resultsDir}${name}.md`, markdown + '\n')
  writeFileSync(`${resultsDir}${name}.run`, run())
  console.log(`\n${markdown}\n`)
}

/** Opens the benchmark page and waits for `window.eddyBench`. */
export async function openBenchPage(page: Page): Promise<void> {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/bench.html')
  await page.waitForFunction(() => 'eddyBench' in window, undefined, { timeout: 10_000 }).catch(() => {
    throw new Error(`the benchmark page did not start${errors.length ? `: ${errors.join('; ')}` : ''}`)
  })
}

/** The browser's name and version, for the report header. */
export function environment(page: Page): string {
  const browser = page.context().browser()
  return `Chromium ${browser?.version() ?? '?'} headless, ${new Date().toISOString().slice(0, 16)}Z`
}
