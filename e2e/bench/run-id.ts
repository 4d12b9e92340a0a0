/**
 * Playwright's global setup for the benchmarks: an id for this run, which every worker inherits, so a ratio test
 * reads only a measurement of the same run (see report.ts: load).
 */
export default function setup(): void {
  process.env.EDDY_BENCH_RUN = `${Date.now()}-${process.pid}`
}
