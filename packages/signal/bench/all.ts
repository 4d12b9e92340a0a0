/** Every adapter the benchmark runs, in report order: the subject first, then the peers, then the reference. */
import { handWrittenAdapter, peerAdapters, type Adapter } from './adapters.ts'

export const allAdapters: readonly Adapter[] = [...peerAdapters, handWrittenAdapter]
