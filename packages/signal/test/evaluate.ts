// The node function of the effects and getter-writes property tests: the same code runs on signals and in their
// oracles.

/**
 * Reads `deps` (earlier slots; the first one decides which others are read) and combines them by `op`: 0, a
 * dynamic sum; 1, parity (cuts propagation off); 2, max; 3, a dynamic sum that is often 0.
 */
export function evaluate(spec: { deps: number[]; op: number }, read: (i: number) => number): number {
  const [first, ...rest] = spec.deps as [number, ...number[]]
  const a = read(first)
  if (spec.op === 1) return a & 1
  if (spec.op === 2) return Math.max(a, ...rest.map(read))
  if (spec.op === 3) return (a & 3) === 1 ? 0 : rest.reduce((sum, i) => sum + read(i), a) % 17
  return a % 3 === 0 ? rest.reduce((sum, i) => sum + read(i), a) % 23 : a * 2 - (rest.length ? read(rest.at(-1)!) : 0)
}
