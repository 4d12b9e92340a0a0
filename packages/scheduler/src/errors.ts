// Bad input fails fast with a TypeError that names the argument: "expected step to be a function, got number".
// One template covers every public argument, which keeps the messages uniform (and small).

/** Throws a TypeError: `expected ${name} to be ${want}, got ${got}`. */
export const fail = (name: string, want: string, got: unknown): never => {
  throw new TypeError(`expected ${name} to be ${want}, got ${got as string}`)
}

/** Returns `v` if it is a function, else throws a TypeError naming `name`. */
export const fnArg = <T>(name: string, v: T): T => (typeof v == 'function' ? v : fail(name, 'a function', typeof v))

/** Returns `v` if it is a number >= 0, else throws a TypeError naming `name`. */
export const numArg = (name: string, v: unknown): number =>
  v === +(v as number) && (v as number) >= 0 ? (v as number) : fail(name, 'a number >= 0', v)
