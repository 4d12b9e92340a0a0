// Schedule flips during a burst of microtask writes, in happy-dom (see schedule-flips.ts).
import { scheduleFlips } from './schedule-flips.ts'

scheduleFlips()
