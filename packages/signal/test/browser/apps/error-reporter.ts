// A Sentry-like error reporter for the error-telemetry tests: what window 'error' and 'unhandledrejection' deliver,
// recorded and kept from the console (preventDefault). `install()` in a beforeEach; the returned list is refilled.

/** One error the page saw, and how. */
export type Hit = { via: 'error' | 'rejection'; error: any }

/** Starts recording for one test: the hits so far, and the function that stops recording. */
export function install(): { hits: Hit[]; remove(): void } {
  const hits: Hit[] = []
  const onError = (e: ErrorEvent) => {
    hits.push({ via: 'error', error: e.error })
    e.preventDefault()
  }
  const onRejection = (e: PromiseRejectionEvent) => {
    hits.push({ via: 'rejection', error: e.reason })
    e.preventDefault()
  }
  window.addEventListener('error', onError)
  window.addEventListener('unhandledrejection', onRejection)
  return {
    hits,
    remove() {
      window.removeEventListener('error', onError)
      window.removeEventListener('unhandledrejection', onRejection)
    },
  }
}
