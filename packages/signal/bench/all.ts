/** Every adapter the benchmark runs, in report order: the subject first, then the peers, then the reference. */
import { handWrittenAdapter, peerAdapters, type Adapter } from './adapters.ts'
import { eddyAdapter } from './eddy.ts'

export const allAdapters: readonly Adapter[] = [eddyAdapter, ...peerAdapters, handWrittenAdapter]
