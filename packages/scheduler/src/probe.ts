import { now, poster, strategy as detected, type Strategy } from './host.ts'

/** Resolves with the turns per second of a chain of `strategy` wake-ups run for `durationMs` (seed 001's checker). */
export function probeTurnRate(options: { strategy?: Strategy; durationMs?: number } = {}): Promise<number> {
  const post = poster('probeTurnRate', options.strategy ?? detected)
  const ms = options.durationMs ?? 250
  if (typeof ms != 'number' || !(ms > 0)) throw new TypeError(`probeTurnRate: expected durationMs to be a number > 0, got ${String(ms)}`)
  return new Promise((resolve) => {
    const start = now()
    let turns = 0
    const turn = () => {
      const spent = now() - start
      turns++
      spent < ms ? post(turn) : resolve((turns * 1000) / spent)
    }
    post(turn)
  })
}
