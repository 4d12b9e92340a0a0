// Shared by the property tests: the node function (the same code runs on signals and in their oracles) and the
// recompute-everything oracle.

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

/** What a node gives in an oracle: its value, or `failed` when its function threw (or read a failed node). */
export const failed = { failed: true }
export type Outcome = number | typeof failed

/**
 * The recompute-everything oracle: `first` (the inputs' values), then each node of `specs` computed from scratch,
 * in order, by `run`; a node that throws, or reads a failed node, is `failed`.
 */
export function recomputeAll<S>(first: Outcome[], specs: S[], run: (spec: S, read: (i: number) => number) => number): Outcome[] {
  const out = [...first]
  for (const spec of specs) {
    try {
      out.push(
        run(spec, (i) => {
          if (out[i] === failed) throw failed
          return out[i] as number
        }),
      )
    } catch {
      out.push(failed)
    }
  }
  return out
}
