// The real heap through the DevTools protocol (Chromium), for the tests that check what stays alive: live objects
// counted (the keep-alive instances, the soak's objects left per cycle), and what holds one that should be gone.
import { cdp, type CDPSession } from 'vitest/browser'

interface Remote {
  result: { objectId?: string; value?: unknown }
}

// Execution context ids are serial numbers, one per frame or worker made so far in the run; ids that are not (or no
// longer) there are rejected. Asked 200 at a time: a full run of the browser project made more than the first 200
// (every test file, iframe and worker takes some), and the keep-alive test, run late, found none of them.
const batches = Array.from({ length: 50 }, (_, b) => Array.from({ length: 200 }, (_, i) => b * 200 + i + 1))

/**
 * The DevTools protocol's handle (objectId) of `value`, an object of the test's frame: found by evaluating a global
 * key in each execution context until one has it (Runtime.enable first). Release it with Runtime.releaseObject.
 */
async function remoteObject(session: CDPSession, value: object): Promise<string> {
  const key = `__eddyRemote${Math.random().toString(36).slice(2)}`
  const global = globalThis as Record<string, unknown>
  global[key] = value
  try {
    for (const ids of batches) {
      const found = (await Promise.all(
        ids.map((contextId) => session.send('Runtime.evaluate', { expression: `globalThis.${key}`, contextId }).catch(() => undefined)),
      )) as (Remote | undefined)[]
      const objectId = found.find((f) => f?.result.objectId)?.result.objectId
      if (objectId) return objectId
    }
    throw new Error("the test's frame was not found among the execution contexts")
  } finally {
    delete global[key]
  }
}

/**
 * Counts live objects by exact prototype, after a full garbage collection, with Runtime.queryObjects. That only
 * reports objects created in the context the prototype is looked up in, and the test runs in a frame of the tester
 * page: so the lookup tries each execution context until one has the prototype.
 */
export async function heapCounter(): Promise<{ count(proto: object): Promise<number>; close(): Promise<void> }> {
  const session = cdp()
  await session.send('Runtime.enable')
  return {
    async count(proto) {
      const prototypeObjectId = await remoteObject(session, proto)
      try {
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
        await session.send('Runtime.releaseObject', { objectId: prototypeObjectId }).catch(() => undefined)
      }
    },
    close: async () => void (await session.send('Runtime.disable')),
  }
}

/**
 * What keeps `ref`'s target alive: the shortest chain of strong references from the heap's roots to it, in a DevTools heap
 * snapshot (V8's objects and Blink's, with the edges between them), one line per hop: `edge -> type name`. An empty
 * array if the snapshot does not have it (collected meanwhile). Given a WeakRef: a caller's frame that held the
 * target across the awaits would be a retainer of its own. Slow (a snapshot of the whole renderer, a second or
 * more): for a test's diagnostics, when something it expected collected is still there.
 */
export async function retainerPath(ref: WeakRef<object>): Promise<string[]> {
  const session = cdp()
  await session.send('Runtime.enable')
  await session.send('HeapProfiler.enable')
  const chunks: string[] = []
  const onChunk = ({ chunk }: { chunk: string }) => void chunks.push(chunk)
  try {
    // The snapshot first: an object gets its id (what getHeapObjectId answers) in the first snapshot that has it,
    // and no handle of ours may hold the target meanwhile.
    session.on('HeapProfiler.addHeapSnapshotChunk', onChunk)
    await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
    // The chunks are events, relayed apart from the command's reply: parsed once none came for 100 ms (a snapshot
    // of a big heap is 100 MB of JSON), again if they did not make whole JSON yet; for 20 s at most.
    let snapshot: any
    for (let i = 0, had = -1; i < 200 && !snapshot; i++) {
      if (chunks.length == had) try { snapshot = JSON.parse(chunks.join('')) } catch {}
      had = chunks.length
      if (!snapshot) await new Promise((r) => setTimeout(r, 100))
    }
    if (!snapshot) return ['(the heap snapshot did not arrive)']
    // Not held in a local of this frame, which stays suspended across the awaits.
    if (!ref.deref()) return []
    const objectId = await remoteObject(session, ref.deref()!)
    const { heapSnapshotObjectId } = (await session.send('HeapProfiler.getHeapObjectId', { objectId })) as {
      heapSnapshotObjectId: string
    }
    await session.send('Runtime.releaseObject', { objectId })
    return pathTo(snapshot, +heapSnapshotObjectId)
  } finally {
    session.off('HeapProfiler.addHeapSnapshotChunk', onChunk)
    await session.send('HeapProfiler.disable').catch(() => undefined)
    await session.send('Runtime.disable').catch(() => undefined)
  }
}

/** A breadth-first walk of a heap snapshot (V8's JSON format) from its root, over strong edges, to the node `id`. */
function pathTo(snapshot: any, id: number): string[] {
  const { node_fields, edge_fields, node_types, edge_types } = snapshot.snapshot.meta
  const { nodes, edges, strings } = snapshot as { nodes: number[]; edges: number[]; strings: string[] }
  const nf = node_fields.length
  const ef = edge_fields.length
  const [nType, nName, nId, nEdges] = ['type', 'name', 'id', 'edge_count'].map((f) => node_fields.indexOf(f))
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => edge_fields.indexOf(f))
  const nodeTypes: string[] = node_types[nType]
  const edgeTypes: string[] = edge_types[eType]
  const count = nodes.length / nf
  // The first edge of each node (and one past the last node's): edges are stored node after node.
  const firstEdge = new Uint32Array(count + 1)
  for (let i = 0, e = 0; i <= count; e += (nodes[i * nf + nEdges] ?? 0) * ef, i++) firstEdge[i] = e
  // The node each node was first reached from, and by which edge (its offset); -1 while not reached.
  const from = new Int32Array(count).fill(-1)
  const via = new Int32Array(count).fill(-1)
  const queue = [0]
  from[0] = 0
  let found = -1
  for (let q = 0; q < queue.length && found < 0; q++) {
    const n = queue[q]!
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += ef) {
      const kind = edgeTypes[edges[e + eType]!]
      if (kind == 'weak') continue
      const to = edges[e + eTo]! / nf
      if (from[to]! >= 0) continue
      from[to] = n
      via[to] = e
      if (nodes[to * nf + nId] == id) {
        found = to
        break
      }
      queue.push(to)
    }
  }
  const out: string[] = []
  for (let n = found; n > 0; n = from[n]!) {
    const e = via[n]!
    const kind = edgeTypes[edges[e + eType]!]
    const name = kind == 'element' || kind == 'hidden' ? `[${edges[e + eName]}]` : strings[edges[e + eName]!]
    out.unshift(`${kind} ${name} -> ${nodeTypes[nodes[n * nf + nType]!]} ${strings[nodes[n * nf + nName]!]!.slice(0, 80)}`)
  }
  return out
}
