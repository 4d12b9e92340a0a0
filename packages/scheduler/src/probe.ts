import { fail, numArg, objArg } from './errors.ts'
import { now, poster, strategy as detected, type Strategy } from './host.ts'

/** Chains `post` wake-ups for `ms` (and until the clock moves) from `start`; resolves with turns per second. */
export const rate = (post: (fn: () => void) => void, ms: number, start = now()): Promise<number> =>
  new Promise((resolve) => {
    let turns = 0
    const turn = () => {
      const spent = now() - start
      turns++
      spent < ms || !spent ? post(turn) : resolve((turns * 1000) / spent)
    }
    post(turn)
  })

/** Options of {@link probeTurnRate}. */
export interface ProbeOptions {
  /** The host primitive to measure; default: the one detected at load. */
  strategy?: Strategy | undefined
  /** How long to chain wake-ups, in ms (finite); default 250. */
  durationMs?: number | undefined
}

/** Resolves with the turns per second of a chain of `strategy` wake-ups run for `durationMs` (seed 001's checker). */
export const probeTurnRate = (options: ProbeOptions = {}): Promise<number> => {
  const { strategy = detected, durationMs = 250 } = objArg(options)
  // Finite: an endless probe would never resolve, and would keep the thread busy.
  return rate(poster(strategy), numArg('durationMs', durationMs) < 1 / 0 ? durationMs : fail('durationMs', durationMs))
}
