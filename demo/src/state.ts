/** Page-wide state shared by the cards. */
import { Signal } from '@eddy/signal'

/** Accessible name of the run in progress ("Blocking loop", "Render on every write", ...), '' when idle. */
export const busy = new Signal('')

/** Resolves once the current DOM state has been painted: two frames, as a blocking run must start after a paint. */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    // Frames are throttled in hidden tabs: never wait for them forever.
    const timer = setTimeout(resolve, 250)
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer)
        // A task after the second frame callback: that frame's paint is done before we block.
        setTimeout(resolve, 0)
      }),
    )
  })
}

/** Marks a run as started (`name`) or finished (''): while one runs, every run button and input is disabled. */
export function setBusy(name: string): void {
  busy.value = name
  for (const el of document.querySelectorAll<HTMLButtonElement | HTMLInputElement>('[data-busy-disables]')) {
    el.disabled = name !== ''
  }
}
