// Cold chains too deep for the stack, read top first, and what brings them back (README: "Iterative updates").
// Each link reads a signal of its own before the link below (`own`), as a spreadsheet cell reads its text first, or
// only the link below. Where the stack runs out differs with the chain's length and with how warm the code is, so
// each shape is tried at several lengths; every try must overflow first and then come back, with the right value.
import type * as Eddy from '@eddy/signal'

export interface ColdChainOptions {
  /** Each link reads a signal of its own first. */
  own: boolean
  /** An effect watches the top (else nothing does, and the top is read directly). */
  watched: boolean
  /** Chain lengths to try (each must overflow when read cold). */
  lengths: number[]
}

/**
 * Builds each chain, reads it cold, then brings it back: unwatched, by writing the bottom and reading the top, at most
 * 200 rounds; watched, by reading every link bottom-up once. Returns, per length, what the top gave at last
 * (`ok` when it is the right value) and the rounds it took (0 for the bottom-up read).
 */
export function coldChains(lib: typeof Eddy, o: ColdChainOptions): { length: number; ok: boolean; rounds: number; got: string }[] {
  const { Signal, computed, effect } = lib
  return o.lengths.map((length) => {
    const bottom = new Signal(0)
    const links: { value: number }[] = [computed(() => bottom.value)]
    for (let i = 0; i < length; i++) {
      const below = links[i]!
      const own = new Signal(1)
      links.push(o.own ? computed(() => own.value + below.value) : computed(() => 1 + below.value))
    }
    const top = links[length]!
    let seen: unknown
    const look = () => {
      try {
        seen = top.value
      } catch (e) {
        seen = e
      }
    }
    const stop = o.watched ? effect(look) : (look(), () => {})
    const overflowed = seen instanceof RangeError
    let rounds = 0
    if (o.watched)
      for (const link of links)
        try {
          link.value
        } catch {}
    else
      while (seen instanceof Error && rounds < 200) {
        rounds++
        bottom.value++
        look()
      }
    stop()
    const ok = overflowed && seen === length + bottom.peek()
    return { length, ok, rounds, got: overflowed ? (seen instanceof Error ? seen.name : String(seen)) : 'no overflow' }
  })
}
