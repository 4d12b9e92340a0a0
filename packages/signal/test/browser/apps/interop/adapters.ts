// A user's glue between eddy and two other reactive libraries (a user trial): @vue/reactivity 3.5 (no Vue runtime:
// customRef, shallowRef, computed, watch without a callback = watchEffect, effectScope) and @preact/signals-core.
// Written from the READMEs, the obvious way first; where the obvious way is wrong, a fixed one beside it.
import { customRef, onScopeDispose, watch, type Ref } from '@vue/reactivity'
import { effect as pEffect, type Signal as PSignal } from '@preact/signals-core'
import { Signal, computed, effect, untracked, type Computed } from '@eddy/signal'

/**
 * (1) An eddy signal (or computed) as a Vue ref, the obvious way: get tracks (Vue) and reads by peek(); set writes the
 * signal; `subscribe` triggers. Made inside an effectScope, it unsubscribes when the scope stops.
 */
export function toVueRefObvious<T>(s: Signal<T> | Computed<T>): Ref<T> {
  return customRef<T>((track, trigger) => {
    const off = s.subscribe(() => trigger())
    onScopeDispose(off)
    return {
      get() {
        track()
        return s.peek()
      },
      set(v) {
        ;(s as Signal<T>).value = v
      },
    }
  })
}

/**
 * (1') The same, told of every change also while a computed throws (as the README's React hook): an effect that
 * reads `.value` in a try, and triggers untracked.
 */
export function toVueRef<T>(s: Signal<T> | Computed<T>): Ref<T> {
  return customRef<T>((track, trigger) => {
    let first = true
    const off = effect(() => {
      try { s.value } catch {}            // told also while a computed throws: the Vue side then reads the error
      if (first) first = false
      else untracked(trigger)             // Vue's watchers run now: what they read must not track this effect
    })
    onScopeDispose(off)
    return {
      get: () => (track(), s.peek()),    // peek: a Vue read inside an eddy effect does not track it
      set: (v) => void ((s as Signal<T>).value = v),
    }
  })
}

/**
 * (2) A Vue ref (or computed, or getter) fed into eddy: a shadow Signal written by a synchronous Vue watcher. The
 * returned `stop` stops the watcher; `value` is read-only (a computed of the shadow).
 */
export function fromVue<T>(source: Ref<T> | (() => T)) {
  const shadow = new Signal<T>(undefined as T)
  const handle = watch(source, (v) => (shadow.value = v), { immediate: true })
  return { value: computed(() => shadow.value), stop: () => handle.stop() }
}

/**
 * (3) A Preact signal and an eddy Signal mirrored both ways: a Preact effect writes eddy, an eddy effect writes Preact.
 * Each library's equality stops the echo. Returns one dispose for both.
 */
export function mirrorPreact<T>(p: PSignal<T>, e: Signal<T>): () => void {
  const offP = pEffect(() => void (e.value = p.value))   // first: the Preact value wins at creation
  const offE = effect(() => void (p.value = e.value))
  return () => (offP(), offE())
}
