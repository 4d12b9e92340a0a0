// The dependency graph: signals, computeds, effects and bindings as nodes, connected by links that are reused
// from one run to the next. It knows nothing of the DOM (a binding is just a leaf whose notification goes on
// the render queue).
//
// Push-pull with versions:
// - a write bumps the source's `_version` and the global version, then `propagate` walks the subscribers
//   (iteratively) flagging them PENDING and queuing the leaves it reaches; it stops at nodes already PENDING;
// - a read of a PENDING node runs `checkDirty`, which walks the sources (iteratively, with an explicit stack)
//   recomputing the stale computeds bottom-up, and compares each link's recorded `_version` with its source's:
//   a node reruns only if a source's value really changed (equality cut-off), at most once per change;
// - a computed with no subscribers is not linked into its sources' subscriber lists (UNWATCHED), so they do
//   not keep it alive; it validates itself against the global version instead (@preact/signals-core's idea).
//   It is linked in ("connected") when it gains its first subscriber and unlinked when it loses its last.
import {
  ALONE,
  COMPUTED,
  DIRTY,
  EQUALS,
  ERRORED,
  NOTIFIED,
  PARKED,
  PENDING,
  READ,
  RENDER,
  RUNNING,
  SNAP,
  UNWATCHED,
  WATCHING,
} from './flags.ts'
import { birth, cycle, drain, expectFunction, report, rethrowAfter, type Queue, type Queued } from './errors.ts'
import { renders, schedule, scheduled } from './render.ts'

/**
 * @internal A vertex of the graph: a signal, computed, effect or binding. The signal, computed and effect
 * constructors assign the fields in this order (`_flags`, `_subs`, `_subsTail`, `_version`, `_value`, then `_deps`,
 * `_depsTail`, `_gv`, `_fn` where the kind has them), so a field sits in the same slot whatever the kind: the hot
 * loops read `_flags`, `_deps` or `_version` of nodes of several kinds, and same-slot loads stay one load after the
 * map check. A binding shares only `_flags`, in the first slot.
 */
export interface ReactiveNode {
  _flags: number
  /** Sources (signal, computed): the value, or the cached error of a computed (ERRORED). */
  _value?: unknown
  /** Sources: bumped each time the value really changes. */
  _version?: number
  /** Sources: subscriber links, in subscription order. */
  _subs?: Link
  _subsTail?: Link
  /** Subscribers: source links, in read order; after a run, `_depsTail` is the last one read. */
  _deps?: Link
  _depsTail?: Link
  /** Subscribers: the global version at which the node was last known fresh. */
  _gv?: number
  /** Computed: the getter; effect: the body (may return a cleanup). */
  _fn?: () => unknown
  /** Effect: the cleanup returned by the last run. */
  _cleanup?: (() => void) | undefined
  /** Signal: the equality option (absent: Object.is). */
  _equals?: ((a: any, b: any) => boolean) | undefined
}

/** @internal An edge: `_sub` read `_dep`, which had `_version` then. In both the sub's deps list and the dep's subs list. */
declare class Link {
  constructor(dep: ReactiveNode, sub: ReactiveNode, version: number | undefined, nextDep?: Link)
  _dep: ReactiveNode
  _sub: ReactiveNode
  _version: number | undefined
  /** The run (see `runId`) that last confirmed this link: lets a repeated, non-consecutive read be skipped. */
  _run: number
  _nextDep: Link | undefined
  _prevSub: Link | undefined
  _nextSub: Link | undefined
}

// Links, like every node kind, come from a constructor function rather than an object literal: V8 keeps one
// stable initial map per constructor, while literal maps were re-created and re-generalized after each GC
// (measured: repeated "code dependencies" deopts of the whole write path).
/** @internal */
function Link(
  this: Link,
  dep: ReactiveNode,
  sub: ReactiveNode,
  version: number | undefined,
  nextDep?: Link,
): void {
  this._dep = dep
  this._sub = sub
  this._version = version
  this._run = runId
  this._nextDep = nextDep
  this._prevSub = this._nextSub = undefined
}

/** @internal */
export { Link }

/** @internal The subscriber whose reads are being tracked. */
export let activeSub: ReactiveNode | undefined
/**
 * `_version`: the global version, bumped by every write; lets UNWATCHED computeds skip all checks when
 * nothing changed. A field of a constant object rather than a module `let`: the write path's increment is then a
 * plain field load and store (measured: ~17% of a bound write in Chromium went to the `let`). `_computing`: how
 * many computeds' functions are hidden from `activeSub` by an effect's run or untracked() (see countHidden).
 * `_written`: the global version the last write, retry that returned, cycle read or flagged connection moved it to
 * (see checkDirty, cyclic, attach).
 */
const clock: { _version: number; _keep: object[]; _computing: number; _written: number } = {
  _version: 0,
  _keep: [],
  _computing: 0,
  _written: 0,
}

// Bumped when a computed or effect starts a run; links read in the current run carry it.
let runId = 0

/**
 * @internal One live instance of each node kind. V8 builds an object's hidden class (map) field by field and
 * tracks each field's type and constness on it; optimized code depends on those facts. When every instance
 * dies (a graph disposed, then a GC), the maps can be collected, rebuilt by the next graph with fresh field
 * facts, and the hot functions deoptimized again as fields generalize (measured: recompute/propagate/
 * checkDirty deoptimized every round of the benchmark). A permanent instance keeps the maps alive.
 * The list itself hangs off `clock`, which the hot functions use: once bundled, a module-level array that only
 * top-level statements touch is a local of the module's top-level code and is collected after it runs (measured
 * in Chromium with --log-maps: every node kind's maps were rebuilt from the initial map after each gc(), and
 * the graph's optimized code was thrown away with "embedded weak objects cleared").
 */
export const keepAlive: object[] = clock._keep
keepAlive.push(new Link(undefined!, undefined!, 0))
let batchDepth = 0
const effectQueue: Queue<ReactiveNode> = { _items: [], _size: 0, _start: 0 }
let runningEffects = false
// Explicit stacks for propagate and checkDirty, shared to avoid an allocation per call. Each call works above the
// height it found (calls nest: a recompute inside checkDirty may check other nodes) and clears what it pops, so
// no link is retained after it returns. No user code runs mid-propagate (the render flush is posted once it is
// done); user code inside checkDirty's recomputes runs nested walks above the current height.
const stack: (Link | undefined)[] = []
let height = 0

/** @internal Records that subscriber `sub` read `dep`, reusing the link from the last run if it matches. */
export function link(dep: ReactiveNode, sub: ReactiveNode): void {
  // Kept tiny so it inlines into every getter: the common cases are a repeated read and the same read order
  // as last run.
  const prev = sub._depsTail
  if (prev && prev._dep === dep) return
  const next = prev ? prev._nextDep : sub._deps
  if (next && next._dep === dep) {
    next._version = dep._version
    next._run = runId
    sub._depsTail = next
  } else insert(dep, sub, prev, next)
}

function insert(dep: ReactiveNode, sub: ReactiveNode, prev: Link | undefined, next: Link | undefined): void {
  // Already read in this run, earlier (a, b, a): no second link. Seen only for subscribers linked into their
  // sources' lists; an unwatched computed may keep a duplicate, which is harmless.
  const last = dep._subsTail
  if (last && last._sub === sub && last._run === runId) return
  const l = new Link(dep, sub, dep._version, next)
  // Attached before it is linked in: a stack overflow on the call left a source that `sub` reads but that never
  // notifies it (its error cached for good, found in Chromium).
  if (sub._flags & WATCHING || sub._subs) attach(l)
  dep._flags |= READ
  if (prev) prev._nextDep = l
  else sub._deps = l
  sub._depsTail = l
}

/**
 * @internal Appends `l` to its source's subscriber list. A computed gaining its first subscriber connects: its own
 * source links are attached too, depth-first and without recursion or allocation (the way back up from a
 * computed is its only subscriber link).
 */
export function attach(l: Link): void {
  let depth = 0
  for (;;) {
    const dep = l._dep
    const tail = dep._subsTail
    // A new subscriber is not notified yet: the write fast path must not skip it.
    dep._flags &= ~NOTIFIED
    l._prevSub = tail
    dep._subsTail = l
    if (tail) {
      tail._nextSub = l
      // Left flagged by a write its own getter made (see recompute): the subscribers it had then are flagged too,
      // and so must this new one be, or the recompute that settles it would leave this one stale for good.
      if (!depth && dep._flags & PENDING) propagate(l)
    } else {
      dep._subs = l
      if (dep._flags & UNWATCHED) {
        // Connected, its flags must be exact from now on: it is flagged PENDING if it may be stale.
        // - The computed attached first (depth 0) was validated by the read that got here: flagged only if a getter
        //   run since wrote a signal, maybe one it read (`_written` past its stamp; the global version alone also
        //   moves when a computed goes unwatched, which is no reason). Its new subscriber is then notified.
        // - One below it, not found fresh at this version: flagged if the one above it is flagged, waits to be retried
        //   (DIRTY: its run reads it, through a check) or is running (read mid-run, as a cycle, and attached with the
        //   links of its last run). Otherwise it is as fresh as a watched source (watched when the one above was
        //   validated, detached since with no write in between), and flagged with nothing above it flagged, it
        //   would stop every later write (propagate stops at flagged nodes).
        dep._flags &= ~UNWATCHED
        if (depth ? dep._gv !== clock._version && l._sub._flags & (PENDING | DIRTY | RUNNING) : dep._gv! < clock._written) {
          dep._flags |= PENDING
          // Announced as a write is (`_written`): the running readers above it are flagged too, and one that gives
          // the same value must not be found fresh by a check running now (see missed) while it stays flagged, or
          // later writes would stop at it. Reached for a computed whose run read one still running (its stamp is -1,
          // see cyclic), or after a getter's write.
          if (!depth) (clock._written = ++clock._version), propagate(l)
        }
        if (dep._deps) {
          l = dep._deps
          depth++
          continue
        }
      }
    }
    for (;;) {
      if (!depth) return
      if (l._nextDep) {
        l = l._nextDep
        break
      }
      l = l._sub._subs!
      depth--
    }
  }
}

/**
 * @internal Removes `l` from its source's subscriber list. A computed losing its last subscriber disconnects, so
 * its sources stop holding it; depth-first without recursion (the way back up is parked in its `_subs` meanwhile).
 */
export function detach(l: Link): void {
  let depth = 0
  for (;;) {
    const dep = l._dep
    const prev = l._prevSub
    const next = l._nextSub
    l._prevSub = l._nextSub = undefined
    // A computed going unwatched, not flagged, that missed a change of its source (one retried after an error
    // thrown before reading anything, see recompute: no source announced it) or that reads one waiting to be
    // retried: the unwatched computeds validated through it while it was watched took it for fresh. The global
    // version moves, so they check again at their next read; not `_written`, since no version changed, so a check
    // running now need not look again at what it passed. Not for a flagged one (a write announced since moved it
    // already), nor one running (its links not read again yet are out of date; what it gives is fresh).
    if (depth && !(l._sub._flags & (PENDING | RUNNING)) && (l._version !== dep._version || dep._flags & DIRTY))
      clock._version++
    if (next) next._prevSub = prev
    else dep._subsTail = prev
    // A check walking below `dep` came down through `l`, its only subscriber link then: the way back up is kept
    // in `dep`'s `_depsTail` (unused until it runs again).
    if (!prev && (dep._flags & (ALONE | PARKED)) == ALONE) {
      dep._flags |= PARKED
      dep._depsTail = l
    }
    if (prev) prev._nextSub = next
    else if (!(dep._subs = next) && dep._flags & COMPUTED) {
      // Its `_gv` stays the global version it was last found fresh at, so its next read checks its sources if
      // anything changed since. Not PENDING is no proof of fresh: below it, a computed that threw before reading
      // anything (see recompute) has no sources to announce that what it waits for changed.
      dep._flags |= UNWATCHED
      if (dep._deps) {
        dep._subs = l
        l = dep._deps
        depth++
        continue
      }
    }
    for (;;) {
      if (!depth) return
      if (l._nextDep) {
        l = l._nextDep
        break
      }
      const node = l._sub
      l = node._subs!
      node._subs = undefined
      depth--
    }
  }
}

/**
 * @internal Drops the links after `_depsTail`: sources the last run did not read any more (dynamic dependencies).
 * Cut from the list before they are detached: a computed going unwatched on the way detaches its own sources, and
 * through a cycle that errors and retries left behind it can come back to `sub` (taking each link out first instead
 * detached one of these twice, and looped for ever). A stack overflow on a call of detach leaves the rest in their
 * sources' lists: they notify `sub` for nothing (its checks do not read them) until those sources go.
 */
export function purge(sub: ReactiveNode): void {
  const tail = sub._depsTail
  let l = tail ? tail._nextDep : sub._deps
  if (!l) return
  if (tail) tail._nextDep = undefined
  else sub._deps = undefined
  if (sub._flags & WATCHING || sub._subs) for (; l; l = l._nextDep) detach(l)
}

/** @internal Flags everything downstream of `link`'s source PENDING and queues the leaves, depth-first, without recursion. */
export function propagate(link: Link): void {
  const base = height
  let next = link._nextSub
  for (;;) {
    const sub = link._sub
    const flags = sub._flags
    if (!(flags & PENDING)) {
      if (flags & WATCHING) {
        // Queued here, not by a call: a stack overflow on the call left the leaf flagged and not queued, for good.
        // Flagged after: a store that overflows in cold code (an IC miss) leaves it unflagged, queued at the next write.
        const queue = flags & RENDER ? (renders as Queue<Queued>) : effectQueue
        queue._items[queue._size] = sub
        queue._size++
        sub._flags = flags | PENDING
      } else if ((sub._flags = flags | PENDING), sub._subs) {
        // Down into the computed's subscribers. Only a list of several needs a saved way back: a lone
        // subscriber is a tail step, after which the walk goes on with `next` as it was.
        link = sub._subs
        if (link._nextSub) {
          if (next) stack[height++] = next
          next = link._nextSub
        }
        continue
      }
    }
    if (!next) {
      if (height == base) return
      next = stack[--height]!
      stack[height] = undefined
    }
    next = (link = next)._nextSub
  }
}

/**
 * @internal Whether one of `sub`'s sources changed since `sub` last ran. Stale computeds on the way are validated
 * and recomputed bottom-up with an explicit stack (a 100,000-deep chain must not overflow). Nodes on the stack
 * are marked RUNNING, so a cycle is detected instead of looping. Fresh nodes are marked so (not PENDING).
 */
export function checkDirty(sub: ReactiveNode): boolean {
  let link = sub._deps
  let depth = 0
  // If a getter it runs writes a signal, or a retry returns (see recompute), `missed` looks again at each node's
  // sources before it is found fresh. A computed going unwatched (see detach) moves the global version for the
  // unwatched computeds validated before, not for this check: what it passed kept its versions. Either way, the
  // nodes it finds fresh are stamped with the version it started at, so an unwatched one is checked again at its
  // next read.
  const version = clock._version
  for (;;) {
    if (link) {
      const dep = link._dep
      const flags = dep._flags
      // DIRTY and not PENDING: a source left stale by a released leaf (see release), or one whose last run threw
      // before reading anything. RUNNING alone: a computed whose function is running now, above this check.
      if (flags & (PENDING | DIRTY | RUNNING) || (flags & UNWATCHED && dep._gv !== clock._version)) {
        if (!(flags & RUNNING)) {
          // The way back up: a computed whose only subscriber link is this one keeps it in `_subs` (no stack write).
          if (dep._subs === link && !link._nextSub) dep._flags = flags | RUNNING | ALONE
          else {
            dep._flags = flags | RUNNING
            stack[height++] = link
          }
          depth++
          sub = dep
          link = dep._deps
          continue
        }
        // `dep` is already on the evaluation path: a cycle. Treated as changed, so recomputing `sub` reads it
        // and caches the "Cycle detected" error. Also when `dep` is running its function (not flagged any more),
        // and this link still holds the version it has: `sub` was computed from the value `dep` is replacing, and
        // taken for fresh it gave that old value to the run that closed the cycle, with no error (a spreadsheet
        // cell edited to close a cycle, read first).
      } else if (link._version == dep._version) {
        link = link._nextDep
        continue
      }
    } else if (!(sub._flags & DIRTY) && (clock._written <= version || !missed(sub))) {
      const flags = sub._flags
      sub._flags = flags & ~(PENDING | RUNNING | ALONE | PARKED)
      sub._gv = version
      if (!depth--) return false
      // Back up to the link that led here. `sub` needed no recompute, but its version may still differ from the
      // one this link recorded (it was recomputed through another reader since): then it counts as changed.
      // Equal (the usual case): on to the next source.
      link = flags & ALONE ? back(sub, flags) : up()
      sub = link._sub
      if (link._version == link._dep._version) {
        link = link._nextDep
        continue
      }
    }
    // A source of `sub` changed, or `sub` must run again (DIRTY: its last run threw before reading anything).
    for (;;) {
      if (!depth--) return true
      // Found first: a computed the getter disposes could detach the way back.
      link = sub._flags & ALONE ? back(sub, sub._flags) : up()
      recompute(sub)
      sub = link._sub
      // Only the recomputed source's version is compared, not its flags: a run that peeked at a computed retried
      // after an error can move the global version, and checking the source again would rerun it forever.
      if (link._version == link._dep._version) break
    }
    link = link._nextDep
  }
}

/**
 * A link of `sub` whose source may have changed after the check passed it (a getter run further on wrote a
 * signal): propagate stopped at `sub`, PENDING until its check ends, so only the links tell. A source flagged
 * again, left DIRTY (see release), or unwatched (it cannot tell), counts as changed; undefined when none did. With `end`, only the links up to it (those a running
 * computed has read so far).
 */
function missed(sub: ReactiveNode, end?: Link): Link | undefined {
  let l = sub._deps
  while (l && l._version == l._dep._version && !(l._dep._flags & (PENDING | DIRTY | UNWATCHED))) l = l != end ? l._nextDep : undefined
  return l
}

/**
 * The way back up from `sub`, reached through its only subscriber link: still its `_subs`, or parked. A parked
 * link is taken out: its subscriber was disposed, and a `sub` found fresh would keep it (and its closure) until
 * its next run.
 */
function back(sub: ReactiveNode, flags: number): Link {
  return flags & PARKED ? unpark(sub) : sub._subs!
}

/** Takes out `sub`'s parked link (kept apart: back() stays small enough to inline). */
function unpark(sub: ReactiveNode): Link {
  const link = sub._depsTail!
  sub._depsTail = undefined
  return link
}

function up(): Link {
  const link = stack[--height]!
  stack[height] = undefined
  return link
}

/** @internal Runs a computed's getter, tracking its reads; bumps its version only if the value (or error) changed. */
export function recompute(c: ReactiveNode): void {
  const old = c._value
  const oldError = c._flags & ERRORED
  // A retry after an error thrown before any read, or after a RangeError of its own (see below).
  const retry = oldError && c._flags & DIRTY
  c._flags = (c._flags & ~(DIRTY | PENDING | ERRORED | ALONE | PARKED)) | RUNNING
  c._depsTail = undefined
  runId++
  c._gv = clock._version
  // Called as a plain function: `this` in it is undefined, not the node (its internals are no one's business).
  // Read before activeSub is set: between that and the try, nothing should run that an overflow could cut short.
  const fn = c._fn!
  const prev = activeSub
  activeSub = c
  let value: unknown
  let error = 0
  try {
    value = fn()
  } catch (e) {
    // Thrown before reading anything (a stack overflow deep in a cold chain, say): no source would ever
    // announce a change, so it stays DIRTY and the next read or check runs it again instead of rethrowing
    // forever. A retry that throws before reading again keeps the first error: nothing changed, so its version
    // stays and its readers do not rerun.
    error = c._depsTail ? ERRORED : ERRORED | DIRTY
    value = retry && !c._depsTail ? old : e
  }
  activeSub = prev
  c._flags = (c._flags & ~RUNNING) | error
  // Flagged during its run (a cycle closed under it, a getter's write): so are its subscribers, or a write would stop
  // at it. One that ran again inside this run, in the cycle, was unflagged then, and kept an error it read while this
  // one ran (found by the cycle property test at 10,000 runs: a cycle closed by a read in a batch stayed in error after
  // the write that broke it). Its subscribers are flagged already where nothing inside the run ran them again.
  if (c._flags & PENDING && c._subs) propagate(c._subs)
  // Stored before purge: should a call in there overflow the stack, the computed keeps what it just computed. A
  // "Cycle detected" of a read (see cyclic) after another is no change: each is a new Error, and a cycle checked
  // again (its closing link never matches) ran every reader of its members once more for the same outcome.
  const changed =
    (error & ERRORED) !== oldError || !(Object.is(old, value) || (error && cycles.has(old as Error) && cycles.has(value as Error)))
  if (changed) {
    c._value = value
    c._version!++
  }
  // A stack overflow (a RangeError) this run threw itself after reading something, rather than rethrowing the cached
  // error of the source it read last (which will announce its own change): it came from a read of a computed that
  // the overflow cut short before it was linked, so no change would ever be announced. A cold chain whose links read
  // a signal of their own first stayed in error for good so, whatever was written or read after. It is retried
  // instead, as one that threw before reading anything; a retry that overflows again announces nothing (below).
  // Any RangeError of its own counts (`toFixed(200)`): its function runs again at each read. Here, after the store,
  // for the same reason as the loop below; flagged before the call that tells, which can overflow in turn where the
  // stack is still nearly full (in Chromium, it did): then it stays flagged, and is retried.
  if (error == ERRORED) {
    c._flags |= DIRTY
    if (!overflowed(c, value)) c._flags &= ~DIRTY
  }
  // Thrown before reading anything, it keeps the sources of its last run, if it had any (as an effect does, see
  // execute): a change of one flags it, and its readers, which otherwise trusted their flags and never looked at it
  // again. Not in the catch, nor before anything above: code that makes no call can throw a stack overflow too
  // where it runs cold (V8 calls its own runtime there now and then, which checks the stack). Found in Chromium,
  // with a new instance of the bundle: one thrown from this loop in the catch skipped the restore of activeSub,
  // and every later read outside any computed subscribed this one. Thrown here, it skips purge: the sources past
  // the tail stay linked, kept all the same. Not for one that read something (a RangeError of its own): the links of
  // its last run beyond what it read are stale, and kept they were taken for sources (a review found a stale
  // computed taken for fresh, a false "Cycle detected" that stayed, an effect run twice for one write).
  if (error & DIRTY && !c._depsTail) for (let l = c._deps; l; l = l._nextDep) c._depsTail = l
  purge(c)
  if (retry && changed && !(c._flags & DIRTY)) announce(c, prev)
}

/** Whether `e`, which `c`'s run threw after reading something, is a RangeError of its own (see recompute). */
function overflowed(c: ReactiveNode, e: unknown): boolean {
  const dep = c._depsTail!._dep
  return e instanceof RangeError && !(dep._flags & ERRORED && dep._value === e)
}

/**
 * A retry that returned, or threw after reading (not a RangeError of its own: see recompute): no source announced it,
 * so it is announced as a write of `c`: its subscribers are flagged (one recomputed earlier in a check running now read
 * the old error), the global version moves for the unwatched computeds that read the old error, a check running now
 * looks again at what it passed, and the effects it queues run once the outermost read is done (see outerRead), or in
 * the drain running now. `reader` is the computed or effect whose read ran it.
 */
function announce(c: ReactiveNode, reader: ReactiveNode | undefined): void {
  notify(c)
  // The computed whose read ran it gets the new value: flagged through that link alone (no source it read before
  // in this run is stale, and `c` itself is not flagged again, by its own getter's write), it stays
  // fresh, or its readers would run again for nothing.
  if (
    reader &&
    (reader._flags & (COMPUTED | PENDING)) == (COMPUTED | PENDING) &&
    !(c._flags & (PENDING | DIRTY)) &&
    !(reader._depsTail && missed(reader, reader._depsTail))
  )
    reader._flags &= ~PENDING
}

/**
 * Validates a stale computed and recomputes it if a source changed. Only a stack overflow can throw out of this
 * (recompute catches what getters throw), on some call in a check started where the stack was nearly full (a deep,
 * cold read): the path it was on must not stay RUNNING, or every later read would take it for a cycle. It stays
 * stale, and is checked again at the next read. Here rather than in checkDirty: a handler in its loop cost it 2-9%
 * more instructions on the graph benchmarks.
 */
function refresh(c: ReactiveNode): void {
  const base = height
  c._flags |= RUNNING
  try {
    if (checkDirty(c)) recompute(c)
  } catch (error) {
    broken = c
    c._flags &= ~(RUNNING | ALONE | PARKED)
    while (height > base) stack[--height] = undefined
    // The path runs down from `c` through RUNNING sources. Undone here, with no call: one not made before may need a
    // larger frame than the call that overflowed (measured: one to a helper overflowed in turn, and left it RUNNING).
    // Cold, this loop too can be cut short by an overflow (see recompute): then `broken` stays set (see mend).
    for (let l = c._deps; l; ) {
      const dep = l._dep
      if (dep._flags & RUNNING) {
        dep._flags &= ~(RUNNING | ALONE | PARKED)
        l = dep._deps
      } else l = l._nextDep
    }
    broken = undefined
    throw error
  }
}

// The root of a check whose undo (in refresh or runEffect) a stack overflow cut short: set before the undo and
// cleared after it, so that it stays set only then (see mend).
let broken: ReactiveNode | undefined

/**
 * Finishes the undo of `broken`'s check (see refresh). Cold, the undo's loop too can be cut short by an overflow
 * (see recompute), and the path it left RUNNING was taken for a cycle for good. Called only where no check runs
 * (a read outside any computed's function, before the effects' checks), so whatever on that path is RUNNING is
 * stale; not in readComputed, which any change there made slower (repeated reads +19% instructions).
 */
function mend(): void {
  const root = broken!
  root._flags &= ~(RUNNING | ALONE | PARKED)
  while (height) stack[--height] = undefined
  for (let l = root._deps; l; ) {
    const dep = l._dep
    if (dep._flags & RUNNING) {
      dep._flags &= ~(RUNNING | ALONE | PARKED)
      l = dep._deps
    } else l = l._nextDep
  }
  broken = undefined
}

/**
 * A read that validates or runs `c` from outside any computed's function or effect's run is a batch: the effects
 * queued in the middle of it (by a getter's write, or a retry that returned: see announce) run once it is done, and
 * so do the renders a synchronous schedule flushes. Run at once, one that read a computed still being evaluated or
 * checked above (RUNNING) got a false "Cycle detected", and a computed between them cached it. A read inside a
 * computed's function or an effect's run needs no batch of its own: it is inside one of these reads, or inside an
 * effect's first run (a batch) or the effects' drain. What the effects throw without `reportError` is reported in a
 * microtask, not thrown to the read: its value is sound. After a stack overflow they wait for the next write.
 */
function outerRead(c: ReactiveNode, flags: number): void {
  // Settled only after a write (or a retry that returned, a watched cycle read or a flagged connection: see cyclic,
  // attach) or a bind() in the read: a read that did none of these must not call the schedule (one that threw before
  // would throw again at every read, uncaught).
  const written = clock._written
  // A bind() in the getter (a computed that makes its rows) queued a render and posted nothing (a batch).
  const queued = renders._size
  // No check runs here (`clock._computing` counts a computed whose function called untracked()).
  if (broken && !clock._computing) mend()
  batchDepth++
  try {
    flags & DIRTY ? recompute(c) : refresh(c)
  } finally {
    batchDepth--
  }
  if (!batchDepth && (clock._written != written || renders._size > queued))
    try {
      settle()
    } catch (error) {
      queueMicrotask(() => report(error))
    }
}

/**
 * The error of a read of `c` while its function runs. `sub` is linked to it all the same: it caches the error, and
 * must hear when `c` (or a cycle broken further on) changes; not linked, a `sub` that had read a source before kept
 * only that one, and the error stayed when the cycle was broken. The link never matches (and an unwatched `sub` is
 * checked at its next read): `c` may finish with a new version that nothing announces, when `sub` was read apart from
 * its run (through untracked() or peek() in `c`'s function), and `sub` kept the error until some unrelated write.
 * Where `sub` is watched, the read counts as a write (`_written`): the checks running now look again before they
 * find a node fresh (see missed), or a reader above that gives the same cycle error was found fresh while one below it
 * stayed flagged, and later writes stopped there. Not where it is unwatched (nothing above it is flagged): its readers
 * would run again at each read, and every unwatched computed would be checked again. Connected later by a watched
 * reader, it is flagged, with what it reaches, as by a write (see attach).
 */
function cyclic(c: ReactiveNode, sub: ReactiveNode | undefined, track: boolean): Error {
  if (track && sub) {
    link(c, sub)
    sub._depsTail!._version = -1
    sub._gv = -1
    if (sub._flags & WATCHING || sub._subs) clock._written = ++clock._version
  }
  const error = cycle()
  cycles.add(error)
  return error
}

/** The errors `cyclic` made: a computed that gets one after another keeps the first (see recompute). */
const cycles: WeakSet<object> = new WeakSet()

/** @internal Reads a computed: validates it if needed, tracks it if `track`, rethrows its cached error. */
export function readComputed(c: ReactiveNode, track: boolean): unknown {
  const flags = c._flags
  // The same after the read (every run restores it).
  const sub = activeSub
  if (flags & RUNNING) throw cyclic(c, sub, track)
  if (flags & (DIRTY | PENDING) || (flags & UNWATCHED && c._gv !== clock._version))
    if (!sub) outerRead(c, flags)
    else if (flags & DIRTY) recompute(c)
    else refresh(c)
  if (track && sub) link(c, sub)
  if (c._flags & ERRORED) throw c._value
  return c._value
}

/** @internal Writes a signal: equal values are a no-op; otherwise notifies and, outside a batch, runs effects. */
export function write(s: ReactiveNode, value: unknown): void {
  const old = s._value
  // Object.is, spelled out: === with its two exceptions (+0 / -0 differ, NaN equals NaN).
  if (
    s._flags & EQUALS
      ? equal(s, old, value)
      : old === value
        ? old !== 0 || 1 / (old as number) === 1 / (value as number)
        : old !== old && value !== value
  )
    return
  s._value = value
  // The bound-writes hot path: the only subscriber is a binding already queued, so there is nothing to notify,
  // and nothing compares versions unless some computed or effect read the signal. One load of its own flags;
  // the rest is another function, so that this one stays small enough to inline into the `value` setter.
  if ((s._flags & (NOTIFIED | READ)) != NOTIFIED) notify(s, old)
}

/**
 * A signal's own `equals`, untracked as every other callback of the user's: what it reads is no source of the effect
 * or computed that writes. Apart from `write`, whose other variables a closure there would put in a context at every write.
 */
function equal(s: ReactiveNode, old: unknown, value: unknown): boolean {
  const equals = s._equals!
  return untracked(() => equals(old, value))
}

/**
 * The signals written in the current batch that something reads, each with the value and version it had before:
 * flat triples, `snapped` entries long. A batch that puts a signal back (Object.is, and its `equals` agrees) is no
 * change to what read it before: those links are brought to the new version at its end (see settle), so nothing runs
 * for it (as in @preact/signals-core and alien-signals). Sound for any pair recorded: a link at that version saw that
 * value.
 * The array is kept from batch to batch (a push and a cut at every batch cost a 10,000-write batch 10x).
 */
const snaps: any[] = []
let snapped = 0

/** Records `s`'s value and version before its first write in this batch (`old`; its version was just moved on). */
function snap(s: ReactiveNode, old: unknown): void {
  if (!(s._flags & (SNAP | COMPUTED))) {
    snaps[snapped++] = s
    snaps[snapped++] = old
    snaps[snapped++] = s._version! - 1
    // Flagged once recorded: a stack overflow in between leaves no flag without its entry.
    s._flags |= SNAP
  }
}

/** Brings up to date the links of the signals a batch put back. Each entry is taken before it is used (see snap). */
function unsnap(): void {
  while (snapped) {
    const version = snaps[--snapped]
    const old = snaps[--snapped]
    const s = snaps[--snapped]
    snaps[snapped] = snaps[snapped + 1] = undefined
    s._flags &= ~SNAP
    // Put back, unless its own `equals` tells even the same value apart: `equals: () => false` and an array edited in
    // place, then written back (`s.value = s.peek()`), in a batch or an effect's first run, ran none of its readers.
    // Asked first: an `equals` that writes `s` moves it on, and its readers must then run (compared first, the write
    // was lost: their links were moved up to it as if they had seen it).
    if (!(s._flags & EQUALS && !equal(s, old, old)) && Object.is(s._value, old))
      for (let l = s._subs; l; l = l._nextSub) if (l._version === version) l._version = s._version
  }
}

function notify(s: ReactiveNode, old?: unknown): void {
  s._version!++
  clock._written = ++clock._version
  if (s._flags & NOTIFIED) return
  const subs = s._subs
  if (!subs) return
  // A signal nothing reads needs no record (its readers from later in the batch saw what they saw: see snaps).
  if (batchDepth) snap(s, old)
  // A lone subscriber already flagged (e.g. an effect queued in a batch) needs no propagation.
  if (subs._nextSub || !(subs._sub._flags & PENDING)) propagate(subs)
  // Settled even when nothing was propagated: a binding left queued when a custom schedule threw is posted now.
  if (!batchDepth) settle()
  // A lone binding queued, and its flush posted: further writes need nothing until it renders (which clears the
  // flag, as attach does). Not while no flush is posted (in a batch or a flush, after a schedule threw or a
  // cycle was cut off): the next write must post it. Still queued (PENDING): an effect this write ran may have
  // rendered it by flush(), and left it alone on `s` by disposing itself, while a later write posted another flush.
  const l = s._subs
  if (scheduled && l && !l._nextSub && (l._sub._flags & (RENDER | PENDING)) == (RENDER | PENDING)) s._flags |= NOTIFIED
}

/** @internal Runs an effect's body (after its previous cleanup), tracking what it reads. Throws what the body throws. */
export function execute(e: ReactiveNode): void {
  const prev = activeSub
  // Cleared first: even if the cleanup or the body throws, the effect is not left flagged and can be notified again.
  e._flags = (e._flags & ~PENDING) | RUNNING
  if (e._cleanup) {
    cleanup(e)
    // Disposed by its own cleanup: it does not run again.
    if (!(e._flags & WATCHING)) return
  }
  e._depsTail = undefined
  runId++
  // Run from a computed's function (an effect() in it: its writes' effects wait, see outerRead), the effect hides
  // that computed: counted for flush() (see computing), here where activeSub is replaced, as untracked() counts it
  // where it is cleared.
  // Read before anything is set that the finally undoes, as in recompute.
  const fn = e._fn!
  const hidden = countHidden(prev)
  activeSub = e
  let keep: unknown
  try {
    const result = fn()
    if (typeof result == 'function') e._cleanup = result as () => void
  } catch (error) {
    keep = !e._depsTail
    throw error
  } finally {
    activeSub = prev
    hidden && clock._computing--
    e._flags &= ~RUNNING
    // Thrown before reading anything (a stack overflow where the stack was nearly full, say): it keeps the sources
    // of its last run, or nothing would ever run it again (as a computed stays DIRTY, see recompute). Last, as
    // there: a stack overflow thrown in the loop skips purge, and all its sources stay linked.
    if (keep) for (let l = e._deps; l; l = l._nextDep) e._depsTail = l
    purge(e)
  }
  // Disposed while running: dispose found no cleanup yet, so the one just returned runs now.
  if (!(e._flags & WATCHING) && e._cleanup) cleanup(e)
}

/** @internal Runs an effect's cleanup, if it has one, untracked; a throwing cleanup is reported (the effect stays subscribed). */
export function cleanup(e: ReactiveNode): void {
  const fn = e._cleanup
  if (fn) {
    e._cleanup = undefined
    try {
      untracked(fn)
    } catch (error) {
      report(error)
    }
  }
}

/**
 * Runs a queued effect if a source really changed. A stack overflow in its check is undone as in refresh (the drain
 * then keeps the effect queued, see drain).
 */
function runEffect(e: ReactiveNode): void {
  if (!(e._flags & WATCHING)) return
  const base = height
  let dirty
  try {
    dirty = checkDirty(e)
  } catch (error) {
    broken = e
    while (height > base) stack[--height] = undefined
    // As in refresh (a handler there too, not in checkDirty: in its loop, one cost 2-9% more instructions).
    for (let l = e._deps; l; ) {
      const dep = l._dep
      if (dep._flags & RUNNING) {
        dep._flags &= ~(RUNNING | ALONE | PARKED)
        l = dep._deps
      } else l = l._nextDep
    }
    broken = undefined
    throw error
  }
  if (dirty && e._flags & WATCHING) execute(e)
}

/**
 * @internal Runs the queued effects (each one that is really dirty runs once; errors are reported, not fatal),
 * then posts the render flush: renders follow the effects' writes, and none happens mid-batch or mid-effect.
 */
export function settle(): void {
  if (batchDepth) return
  // Also at the end of a batch run by an effect in the drain below: its records must not wait for the next one.
  // An `equals` that throws there: the other entries, the effects and the renders are seen to, then it is thrown.
  if (snapped)
    try {
      unsnap()
    } catch (error) {
      rethrowAfter(error, settle)
    }
  if (runningEffects) return
  if (effectQueue._size) {
    // No check runs here: the path of a cut-off undo is finished before the effects' checks (see mend).
    if (broken) mend()
    runningEffects = true
    try {
      drain(effectQueue, runEffect)
    } catch (error) {
      runningEffects = false
      // The renders are posted all the same; what posting throws (a schedule that throws, or flushes at once and
      // a render throws) goes with the effects' errors.
      rethrowAfter(error, schedule)
    }
    runningEffects = false
  }
  schedule()
}

/** @internal Stops an effect (`this`): drops every source (as after a run that read none), then runs its cleanup. */
export function disposeEffect(this: ReactiveNode): void {
  if (!(this._flags & WATCHING)) return
  this._depsTail = undefined
  purge(this)
  this._flags = 0
  // Its body goes with it: a dispose function kept after the call must not keep what the body reaches.
  this._fn = undefined
  cleanup(this)
}

/**
 * @internal Runs a new effect's first run as a batch: its own writes re-trigger it after it returns, never
 * re-entrantly. A first run that throws disposes it before the batch ends: its writes may have queued it again,
 * and it must not run a second time before `effect()` throws.
 */
export function start(e: ReactiveNode): void {
  // An effect is no source: its `_version` holds its birth stamp instead.
  e._version = birth()
  batchDepth++
  try {
    execute(e)
  } catch (error) {
    batchDepth--
    disposeEffect.call(e)
    rethrowAfter(error, settle)
  }
  batchDepth--
  settle()
}

/**
 * Runs `fn` with every write inside it applied at once: subscribers and effects run once, after the outermost batch;
 * renders wait for the next flush.
 */
export function batch<T>(fn: () => T): T {
  expectFunction(fn, 'batch')
  batchDepth++
  let result: T
  try {
    result = fn()
  } catch (error) {
    batchDepth--
    // Rethrown with what the effects threw without `reportError` (see `several`): neither is lost.
    rethrowAfter(error, settle)
  }
  batchDepth--
  settle()
  return result!
}

/** Runs `fn` without tracking what it reads, and returns its result. */
export function untracked<T>(fn: () => T): T {
  expectFunction(fn, 'untracked')
  const prev = activeSub
  const hidden = countHidden(prev)
  activeSub = undefined
  try {
    // No argument: `untracked(console.log)` logs an empty line.
    return fn()
  } finally {
    activeSub = prev
    hidden && clock._computing--
  }
}

/**
 * Counts `prev`, the activeSub about to be replaced (by an effect's run, or by nothing in untracked), in
 * `clock._computing` if it is a computed, and returns what to subtract once it is back: flush() must not render
 * while a computed's function runs. Counted where activeSub is replaced rather than in recompute, which runs far
 * more often (a counter there cost deep +4.9%, diamond +2.4%, triangle +2.3% instructions).
 */
function countHidden(prev: ReactiveNode | undefined): number {
  return prev && prev._flags & COMPUTED ? ++clock._computing && 1 : 0
}

/** @internal Whether a computed's function is running: `flush()` then waits for the next microtask. */
export function computing(): unknown {
  return clock._computing || (activeSub && activeSub._flags & COMPUTED)
}
