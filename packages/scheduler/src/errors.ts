// Bad input fails fast with a TypeError that names the function and the argument: "loop: expected step to be a
// function, got number". One template covers every public argument, which keeps the messages uniform (and small).

/** Throws a TypeError: `${where}: expected ${name} to be ${want}, got ${got}`. */
export const fail = (where: string, name: string, want: string, got: unknown): never => {
  throw new TypeError(`${where}: expected ${name} to be ${want}, got ${String(got)}`)
}

/** Returns `v` if it is a function, else throws a TypeError naming `where` and `name`. */
export const fnArg = <T>(where: string, name: string, v: T): T =>
  typeof v == 'function' ? v : fail(where, name, 'a function', typeof v)

/** Returns `v` if it is a number in [0, max], else throws a TypeError naming `where` and `name`. */
export const numArg = (where: string, name: string, v: unknown, max = Infinity): number =>
  typeof v == 'number' && v >= 0 && v <= max ? v : fail(where, name, `a number in [0, ${max}]`, v)
