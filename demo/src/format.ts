/** Number formatting shared by the page's readouts. */

/** 1234567.89 -> "1,234,568" (or "1,234,567.9" with `digits` = 1): every number the page shows, cells included. */
export function group(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

/** Milliseconds for people: "5.41 s", "612 ms", "20.3 ms" (as the results table rounds it, below 100 ms). */
export function duration(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`
  return `${group(ms, ms >= 100 ? 0 : 1)} ms`
}
