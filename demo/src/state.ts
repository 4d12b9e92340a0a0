/** Page-wide state shared by the cards. */
import { computed, settled, Signal } from '@eddy/signal'

/** Accessible name of the run in progress ("Blocking loop", "Render on every write", ...), '' when idle. */
export const busy = new Signal('')
/** True while any run is in progress. */
export const isBusy = computed(() => busy.value !== '')

// `performance.now()` when the last run ended (the clock of `Event.timeStamp`); 0 before any.
let idleAt = 0
isBusy.subscribe((running) => void (running || (idleAt = performance.now())))

/**
 * Whether `event` was made while a run was in progress. A click made while a blocking run froze the page is
 * dispatched only once the thread is free, when the run has ended and its buttons are enabled again: it must not
 * start a run the user clicked while every button showed disabled. `timeStamp` is when the input happened.
 */
export const madeWhileBusy = (event: Event): boolean => isBusy.peek() || event.timeStamp < idleAt

/**
 * Disables `el` while a run is in progress: run buttons and their inputs (the click probe never is). A button says so
 * with aria-disabled and keeps the focus: a disabled one lost it to <body> for the whole run (screen readers may
 * then read from the top); its clicks meanwhile are dropped by `madeWhileBusy` (main.ts).
 */
export function disableWhileBusy(el: HTMLButtonElement | HTMLInputElement | HTMLSelectElement): void {
  if (el instanceof HTMLButtonElement) isBusy.bind(el, { attr: 'aria-disabled' })
  else isBusy.bind(el, 'disabled')
}

/**
 * A focused button that gets disabled loses the focus (to <body>), so a keyboard user who started a run would have to
 * find their place again. Call it before the run; call what it returns after `busy` is cleared: the focus goes back
 * to `button` once it is enabled again, unless it moved somewhere else meanwhile.
 */
export function keepFocus(button: HTMLElement): () => void {
  const had = document.activeElement === button
  return () =>
    void settled().then(() => {
      if (had && document.activeElement === document.body) button.focus()
    })
}

/**
 * Resolves once the current DOM state has been painted, plus `leadMs`: a blocking run must start after the page
 * has shown that it is about to block ("Running: ...", the benchmark's indicator), and the short lead lets people
 * (and tests) see that state before the thread is taken away.
 */
export function afterPaint(leadMs = 0): Promise<void> {
  return new Promise((resolve) => {
    const done = () => setTimeout(resolve, leadMs)
    // Frames are throttled in hidden tabs: never wait for them forever.
    const timer = setTimeout(done, 250)
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer)
        // A task after the second frame callback: the first frame has been painted before we block.
        done()
      }),
    )
  })
}

/** Lead time between showing "Running" and starting a run (see `afterPaint`). */
export const LEAD_MS = 150
