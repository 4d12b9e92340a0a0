/**
 * The busy work every loop on the page runs, so their rates compare like for like.
 *
 * One work unit = WORK_ROUNDS rounds of an FNV-1a-style integer hash. It is pure arithmetic (no allocation, no
 * DOM), small enough that the per-turn overhead of each way of looping shows in the result (about a microsecond
 * here), and its result feeds the next unit so the engine cannot drop it as dead code.
 */

/** Hash rounds in one work unit. */
export const WORK_ROUNDS = 256

const FNV_PRIME = 0x01000193

/** Runs one unit of work, seeded by `seed`; returns the new seed. */
export function workUnit(seed: number): number {
  let h = seed | 0
  for (let i = 0; i < WORK_ROUNDS; i++) {
    h ^= i & 0xff
    h = Math.imul(h, FNV_PRIME)
    h ^= h >>> 13
  }
  return h
}

/**
 * Loops that can afford it read the clock once per this many units: a `performance.now()` costs a noticeable
 * fraction of a unit, and every loop pays the same amortized price.
 */
export const CHECK_EVERY = 32

/** Runs work units back to back, synchronously, for `ms` milliseconds: the blocking loop (and the worker's). */
export function busyFor(ms: number): WorkResult {
  const start = performance.now()
  const deadline = start + ms
  let units = 0
  let seed = 1
  let now = start
  while (now < deadline) {
    for (let i = 0; i < CHECK_EVERY; i++) seed = workUnit(seed)
    units += CHECK_EVERY
    now = performance.now()
  }
  return { units, ms: now - start, checksum: seed }
}

/** What a loop reports when its time is up. */
export interface WorkResult {
  /** Work units done. */
  units: number
  /** Wall-clock time the loop ran, in ms. */
  ms: number
  /** The last hash, shown so the work is observably used. */
  checksum: number
}

/** Units per second, rounded; 0 for an empty run. */
export function unitsPerSecond(r: WorkResult): number {
  return r.ms > 0 ? Math.round((r.units * 1000) / r.ms) : 0
}
