// A frame document bound by 'location': the value is resolved against the frame's document, both to compare it with
// its address and to assign it. Assigned as given, `doc.location = value` resolved it against the window running
// eddy (the parent): a review found a hash-only value loading the parent page into the frame.
import { afterEach, expect, it, vi } from 'vitest'
import { Signal, flush, settled } from '@eddy/signal'

const reported: unknown[] = []
afterEach(() => { flush(); vi.unstubAllGlobals(); reported.length = 0; document.body.replaceChildren() })

async function frameAt(src: string) {
  vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
  const frame = document.body.appendChild(document.createElement('iframe'))
  frame.src = src
  await new Promise((r) => (frame.onload = r))
  return { frame, doc: frame.contentDocument! }
}
const landed = (frame: HTMLIFrameElement) =>
  Promise.race([new Promise((r) => (frame.onload = r)), new Promise((r) => setTimeout(r, 300))]).then(() => frame.contentWindow!.location.href)

it('a hash-only value stays in the frame document (same-document navigation)', async () => {
  const { frame, doc } = await frameAt('/packages/signal/package.json')
  const url = new Signal(doc.location.href)
  url.bind(doc, 'location')
  await settled()
  url.value = '#a'
  await settled()
  // got: the frame loaded the PARENT page (the vitest runner, http://localhost:…/?sessionId=…#a)
  expect(await landed(frame)).toBe(new URL('/packages/signal/package.json#a', location.href).href)
  expect(frame.contentDocument).toBe(doc)
})

it('a relative value is resolved against the bound document, as the comparison (and README) says', async () => {
  const { frame, doc } = await frameAt('/packages/signal/package.json')
  const url = new Signal(doc.location.href)
  url.bind(doc, 'location')
  await settled()
  url.value = 'README.md'
  await settled()
  // got: http://localhost:…/README.md (resolved against the parent page)
  expect(await landed(frame)).toBe(new URL('/packages/signal/README.md', location.href).href)
  expect(reported).toEqual([])
})
