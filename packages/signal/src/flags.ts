// Node state bits, kept in one `_flags` number per graph node. Named here, never written as bare numbers.

/** A leaf subscriber (effect, subscription or binding): notified when a source changes; never propagates further. */
export const WATCHING = 1 << 0
/** A leaf subscriber that renders to the DOM: it goes on the render queue instead of the effect queue. */
export const RENDER = 1 << 1
/** A computed (a node that is both a source and a subscriber). */
export const COMPUTED = 1 << 2
/**
 * A computed that must run before its value is trusted: it has never run, its last run threw before reading anything
 * or threw a RangeError of its own (see recompute), or a cycle's cut-off left it stale (see release).
 */
export const DIRTY = 1 << 3
/** Some source upstream changed: the node must be checked before its value is trusted (set by propagate and attach). */
export const PENDING = 1 << 4
/** The node is on the evaluation path (computing, or being checked): reaching it again is a cycle. */
export const RUNNING = 1 << 5
/** A computed whose cached value is the error its function threw. */
export const ERRORED = 1 << 6
/**
 * A computed without subscribers. Its sources do not hold it (so it can be garbage-collected); it is not
 * notified of changes, so it checks itself against the global version instead.
 */
export const UNWATCHED = 1 << 7
/** Set while checkDirty walks below a computed reached through its only subscriber link, which is then the way back up. */
export const ALONE = 1 << 8
/** With ALONE: that subscriber link was detached meanwhile (the subscriber was disposed), so the way back is parked in `_depsTail`. */
export const PARKED = 1 << 12
/**
 * A signal whose only subscriber is a binding already queued for render: a write needs no propagation (and, without
 * READ, not even a version bump). Set by `notify` (from a write, or `announce`) while that binding is still queued
 * (PENDING) and a flush is posted; cleared when the binding renders, whenever a subscriber is attached to the
 * signal, and when the flush is unposted or the binding released.
 */
export const NOTIFIED = 1 << 9
/** A signal with an `equals` option: a write compares with it instead of `Object.is` (no field load on the default path). */
export const EQUALS = 1 << 10
/**
 * A source that some computed or effect has read (set when the link is made, never cleared). A signal without
 * it, whose only subscriber is a queued binding (NOTIFIED), has nothing that compares its version: its write
 * is a plain store.
 */
export const READ = 1 << 11
/** A signal written in the current batch, its value and version before that recorded in `snaps` (see notify). */
export const SNAP = 1 << 13
