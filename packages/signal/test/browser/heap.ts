// Live objects counted in the real heap through the DevTools protocol (Chromium), for the tests that check what
// stays alive: the keep-alive instances, the soak's objects left per cycle.
import { cdp } from 'vitest/browser'

interface Remote {
  result: { objectId?: string; value?: unknown }
}

/**
 * Counts live objects by exact prototype, after a full garbage collection, with Runtime.queryObjects. That only
 * reports objects created in the context the prototype is looked up in, and the test runs in a frame of the tester
 * page: so the lookup tries each execution context until one has the prototype.
 */
export async function heapCounter(): Promise<{ count(proto: object): Promise<number>; close(): Promise<void> }> {
  const session = cdp()
  await session.send('Runtime.enable')
  // Execution context ids are serial numbers, one per frame or worker made so far in the run; ids that are not (or no
  // longer) there are rejected. Asked 200 at a time: a full run of the browser project made more than the first
  // 200 (every test file, iframe and worker takes some), and the keep-alive test, run late, found none of them.
  const batches = Array.from({ length: 50 }, (_, b) => Array.from({ length: 200 }, (_, i) => b * 200 + i + 1))
  const global = globalThis as Record<string, unknown>
  return {
    async count(proto) {
      const key = `__eddyProto${Math.random().toString(36).slice(2)}`
      global[key] = proto
      try {
        let prototypeObjectId: string | undefined
        for (const ids of batches) {
          const found = (await Promise.all(
            ids.map((contextId) =>
              session.send('Runtime.evaluate', { expression: `globalThis.${key}`, contextId }).catch(() => undefined),
            ),
          )) as (Remote | undefined)[]
          if ((prototypeObjectId = found.find((f) => f?.result.objectId)?.result.objectId)) break
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
        return count.result.value as number
      } finally {
        delete global[key]
      }
    },
    close: async () => void (await session.send('Runtime.disable')),
  }
}
