// Bad input fails fast with a TypeError that names the argument and what it got: "bad step: number" (the type, for
// a function argument), "bad budgetMs: -1" (the value; and its type for a non-number: "bad budgetMs: 5 (string)").
// One short template covers every public argument: what each argument expects is in its doc comment and the
// README, not in the bundle.

/** Throws a TypeError: `bad ${name}: ${got}`. */
export const fail = (name: string, got: unknown): never => {
  // String(): a template literal throws its own TypeError, naming nothing, for a Symbol.
  throw TypeError(`bad ${name}: ${String(got)}`)
}

/** Returns `v` if it is a function, else throws a TypeError naming `name`. */
export const fnArg = <T>(name: string, v: T): T => (typeof v == 'function' ? v : fail(name, typeof v))

/** Returns `v` if it is a number >= 0, else throws a TypeError naming `name`, and the type of a non-number
 * (`bad budgetMs: 5 (string)` for '5': the value alone would read as a valid 5). */
export const numArg = (name: string, v: unknown): number =>
  typeof v == 'number' ? (v >= 0 ? v : fail(name, v)) : fail(name, `${String(v)} (${typeof v})`)

/** Returns `v` if it is an object (an options bag), else throws a TypeError: `bad options: string` (`null`). */
export const objArg = <T>(v: T): T => (v && typeof v == 'object' ? v : fail('options', v === null ? v : typeof v))
