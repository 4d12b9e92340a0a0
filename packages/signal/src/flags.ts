// Node state bits, kept in one `_flags` number per graph node. Named here, never written as bare numbers.
// A const enum, not exported consts: bundlers (esbuild, rolldown) inline enum members as literals even in an
// unminified build such as dist/index.js, where a `const` becomes a module `var` that every flag test loads
// (measured on the unminified Node bench bundle: 10-17% fewer instructions on most graph cases).
export const enum F {
  /** A leaf subscriber (effect, subscription or binding): notified when a source changes; never propagates further. */
  WATCHING = 1 << 0,
  /** A leaf subscriber that renders to the DOM: it goes on the render queue instead of the effect queue. */
  RENDER = 1 << 1,
  /** A computed (a node that is both a source and a subscriber). */
  COMPUTED = 1 << 2,
  /** A computed that has never run. */
  DIRTY = 1 << 3,
  /** Some source upstream changed: the node must be checked before its value is trusted (set by propagate). */
  PENDING = 1 << 4,
  /** The node is on the evaluation path (computing, or being checked): reaching it again is a cycle. */
  RUNNING = 1 << 5,
  /** A computed whose cached value is the error its function threw. */
  ERRORED = 1 << 6,
  /**
   * A computed without subscribers. Its sources do not hold it (so it can be garbage-collected); it is not
   * notified of changes, so it checks itself against the global version instead.
   */
  UNWATCHED = 1 << 7,
  /** Set while checkDirty walks below a computed reached through its only subscriber link, which is then the way back up. */
  ALONE = 1 << 8,
  /**
   * A signal whose only subscriber is a binding already queued for render: a write needs no propagation. Set by
   * `write`, cleared when the binding renders and whenever a subscriber is attached to the signal.
   */
  NOTIFIED = 1 << 9,
  /** A signal with an `equals` option: a write compares with it instead of `Object.is` (no field load on the default path). */
  EQUALS = 1 << 10,
}

// bind.ts still imports the flags it uses by name; these aliases can go once it reads them from `F`. Literals,
// so that minifiers inline them as they do `F` (an alias initialized from `F.X` stays a variable); `satisfies`
// checks each against its member at compile time.
export const WATCHING = 1 satisfies F.WATCHING,
  RENDER = 2 satisfies F.RENDER,
  COMPUTED = 4 satisfies F.COMPUTED,
  PENDING = 16 satisfies F.PENDING,
  NOTIFIED = 512 satisfies F.NOTIFIED
