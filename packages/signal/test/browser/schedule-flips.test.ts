// Schedule flips during a burst of microtask writes, in Chromium with a real 'animationFrame' (see schedule-flips.ts).
import { scheduleFlips } from '../schedule-flips.ts'

scheduleFlips()
