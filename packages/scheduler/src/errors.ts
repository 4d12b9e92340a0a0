// Bad input fails fast with a TypeError that names the argument and what it got: "bad step: number" (the type, for
// a function argument), "bad budgetMs: -1" (the value). One short template covers every public argument: what each
// argument expects is in its doc comment and the README, not in the bundle.

/** Throws a TypeError: `bad ${name}: ${got}`. */
export const fail = (name: string, got: unknown): never => {
  throw TypeError(`bad ${name}: ${got as string}`)
}

/** Returns `v` if it is a function, else throws a TypeError naming `name`. */
export const fnArg = <T>(name: string, v: T): T => (typeof v == 'function' ? v : fail(name, typeof v))

/** Returns `v` if it is a number >= 0, else throws a TypeError naming `name`. */
export const numArg = (name: string, v: unknown): number =>
  v === +(v as number) && (v as number) >= 0 ? (v as number) : fail(name, v)
