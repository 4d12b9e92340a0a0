/**
 * The scheduler benchmark of packages/scheduler/bench (turn rates of `macrotask` and of each raw primitive, queue
 * throughput against a hand-written batched dispatcher, `loop()` against microtask recursion, a macrotask per
 * iteration and seed 002's hybrid), run in this page: the same cases module as `pnpm bench:scheduler` in Node.
 */
import { markdown, run } from '../../packages/scheduler/bench/cases.ts'
import type { SchedulerOptions, SchedulerResult } from './api.ts'

export async function runScheduler(options: SchedulerOptions): Promise<SchedulerResult> {
  const results = await run({ ...options, log: (line) => console.log(`[scheduler] ${line}`) })
  return { results, markdown: markdown(results) }
}
