// Measurement helpers of the soak trial: heap after a full collection, live objects by prototype (the DevTools
// protocol's Runtime.queryObjects, which collects garbage first), medians and slopes.
import { cdp } from 'vitest/browser'
import { gc } from '../../../../../scripts/gc.ts'

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Collects garbage between macrotasks, so FinalizationRegistry callbacks (eddy drops bindings in them) run. */
export async function settleHeap(rounds = 4): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await sleep(2)
    gc()
  }
}

/** The JS heap in use after a full collection: CDP's Runtime.getHeapUsage (exact), and performance.memory's figure. */
export async function heapUsed(): Promise<{ cdp: number; memory: number | undefined }> {
  await settleHeap()
  const session = cdp()
  const { usedSize } = (await session.send('Runtime.getHeapUsage')) as { usedSize: number }
  return { cdp: usedSize, memory: (performance as any).memory?.usedJSHeapSize }
}

interface Remote {
  result: { objectId?: string; value?: unknown }
}

/**
 * Counts live objects whose prototype is exactly `proto`, after a full collection (Runtime.queryObjects), as
 * keepalive.test.ts does. The test runs in a frame of the tester page: each execution context is tried until one
 * has the prototype.
 */
export async function liveObjects(protos: Record<string, object>): Promise<Record<string, number>> {
  await settleHeap()
  const session = cdp()
  await session.send('Runtime.enable')
  const out: Record<string, number> = {}
  const global = globalThis as Record<string, unknown>
  for (const [name, proto] of Object.entries(protos)) {
    const key = `__soakProto${Math.random().toString(36).slice(2)}`
    global[key] = proto
    try {
      let prototypeObjectId: string | undefined
      for (let contextId = 1; contextId <= 200 && !prototypeObjectId; contextId++) {
        const found = (await session
          .send('Runtime.evaluate', { expression: `globalThis.${key}`, contextId })
          .catch(() => undefined)) as Remote | undefined
        prototypeObjectId = found?.result.objectId
      }
      if (!prototypeObjectId) throw new Error("the test's frame was not found among the execution contexts")
      const { objects } = (await session.send('Runtime.queryObjects', { prototypeObjectId })) as {
        objects: { objectId: string }
      }
      const count = (await session.send('Runtime.callFunctionOn', {
        objectId: objects.objectId,
        functionDeclaration: 'function (proto) { return this.filter((o) => Object.getPrototypeOf(o) === proto).length }',
        arguments: [{ objectId: prototypeObjectId }],
        returnByValue: true,
      })) as Remote
      await session.send('Runtime.releaseObject', { objectId: objects.objectId }).catch(() => undefined)
      out[name] = count.result.value as number
    } finally {
      delete global[key]
    }
  }
  return out
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Least-squares slope of ys over xs. */
export const slope = (xs: number[], ys: number[]): number => {
  const n = xs.length
  const mx = xs.reduce((a, b) => a + b, 0) / n
  const my = ys.reduce((a, b) => a + b, 0) / n
  let num = 0
  let den = 0
  for (let i = 0; i < n; i++) (num += (xs[i]! - mx) * (ys[i]! - my)), (den += (xs[i]! - mx) ** 2)
  return num / den
}
