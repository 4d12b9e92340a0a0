/**
 * The benchmark as a module, for a browser page as much as for ./node.ts: cases, adapters, runner.
 * No Node-only imports anywhere below (the page must provide a `document` for "bound writes").
 */
export { type Adapter, type Sig, type Comp, alienAdapter, preactAdapter, vueAdapter, handWrittenAdapter, peerAdapters } from './adapters.ts'
export { type Case, type Trial, type CaseOptions, createCases } from './cases.ts'
export { type RunOptions, type Report, type Sample, type Target, type CaseInfo, type FrameworkInfo, runBenchmarks, measureOnce, ratio, settle, toMarkdown } from './run.ts'
export { allAdapters } from './all.ts'
