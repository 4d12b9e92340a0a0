// The afterEach of the tests that change the render schedule: drops what a test left queued, and restores the
// default. A change of schedule also clears a stuck posted flush, so one failing test does not hang the next.
import { configure, flush } from '@eddy/signal'

/** Renders nothing a test left queued into the next test, and puts back the 'microtask' schedule. */
export function resetSchedule(): void {
  configure({ schedule: () => {} })
  flush()
  configure({ schedule: 'microtask' })
}
