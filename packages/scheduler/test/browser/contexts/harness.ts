// Builds each context around probe.js: the shipped dist files, as ES modules or as a classic script (what an IIFE
// bundle gives: the `export { a as b }` lists turned into objects), and a message harness.
import probeSrc from './probe.js?raw'

export const schedulerUrl = new URL('../../../dist/index.js', import.meta.url).href
export const signalUrl = new URL('../../../../signal/dist/index.js', import.meta.url).href
export const probeUrl = new URL('./probe.js', import.meta.url).href

/** A dist file as a classic script that defines `name` (an IIFE, as a bundler's iife output would). */
const iife = (src: string, name: string) =>
  `var ${name} = (() => {\n` +
  src.replace(/export\s*\{([^}]*)\};?/, (_, list: string) =>
    'return {' + list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
      const [local, as] = s.split(/\s+as\s+/)
      return `${as ?? local}: ${local}`
    }).join(', ') + '}') +
  '\n})();\n'

/** The whole classic bundle: scheduler, signal, probe, then `tail` (the context's harness). */
export async function classicBundle(tail: string): Promise<string> {
  const get = (u: string) => fetch(u).then((r) => (r.ok ? r.text() : Promise.reject(new Error(u + ': ' + r.status))))
  const [s, g] = await Promise.all([get(schedulerUrl), get(signalUrl)])
  return iife(s, 'EddyScheduler') + iife(g, 'EddySignal') + probeSrc.replace(/^export /m, '') + '\n' + tail
}

/** A module script: imports the dist files, then `tail`. */
export const moduleScript = (tail: string) =>
  `import * as EddyScheduler from '${schedulerUrl}'\nimport * as EddySignal from '${signalUrl}'\n` +
  `import { probe } from '${probeUrl}'\n${tail}`

/** The harness of a dedicated worker or a window: runs the probe on a message, posts the result back. */
export const workerTail = `self.onmessage = async (e) => { (e.ports[0] || self).postMessage(await probe(EddyScheduler, EddySignal)) }
self.postMessage?.('ready')`
export const sharedTail = `self.onconnect = (c) => { const p = c.ports[0]; p.onmessage = async () => p.postMessage(await probe(EddyScheduler, EddySignal)); p.postMessage('ready') }`
export const frameTail = `window.onmessage = async (e) => { if (e.data !== 'run') return; parent.postMessage({ probe: await probe(EddyScheduler, EddySignal) }, '*') }
parent.postMessage('ready', '*')`
