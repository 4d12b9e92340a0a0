/** Number formatting shared by the page's readouts. */

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** 1234567 -> "1,234,567": for sentences and labels, never for table cells tests parse. */
export function group(n: number): string {
  return grouped.format(n)
}

/** A plain number with `digits` decimals and no grouping, so table cells stay machine-readable. */
export function plain(n: number, digits = 0): string {
  return n.toFixed(digits)
}

/** Milliseconds for people: "5.4 s", "61 ms", "0.8 ms". */
export function duration(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`
  if (ms >= 10) return `${Math.round(ms)} ms`
  return `${ms.toFixed(1)} ms`
}
