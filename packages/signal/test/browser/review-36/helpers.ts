// Shared helpers of the review-36 tests (stop 36's review of the Trusted Types and form-associated element changes).
import { vi } from 'vitest'

/** Captures what eddy reports (render errors go to `reportError`). */
export function catchReports(): { errors: string[]; restore: () => void } {
  const errors: string[] = []
  const spy = vi.spyOn(globalThis, 'reportError').mockImplementation((e: unknown) => void errors.push(String(e)))
  return { errors, restore: () => spy.mockRestore() }
}

/** Counts DOM mutations under `node` while `fn` runs. */
export function mutations(node: Node, fn: () => void): number {
  const mo = new MutationObserver(() => {})
  mo.observe(node, { subtree: true, childList: true, characterData: true, attributes: true })
  fn()
  const n = mo.takeRecords().length
  mo.disconnect()
  return n
}

/** An element of this document, in its body, marked for removal after each test (`[data-r36]`). */
export const el = <K extends keyof HTMLElementTagNameMap>(tag: K): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag)
  e.dataset.r36 = ''
  document.body.append(e)
  return e
}

let n = 0
/** A Trusted Types policy of this window that lets every URL through (a unique name each time). */
export const laxPolicy = (win: Window = window) =>
  (win as any).trustedTypes.createPolicy('review36-lax-' + n++, {
    createScriptURL: (s: string) => s,
    createHTML: (s: string) => s,
    createScript: (s: string) => s,
  })

/** A same-origin about:blank frame: another realm, no CSP. */
export async function blankFrame(): Promise<{ win: Window & typeof globalThis; doc: Document; frame: HTMLIFrameElement }> {
  const frame = document.createElement('iframe')
  document.body.append(frame)
  const win = frame.contentWindow as Window & typeof globalThis
  return { win, doc: win.document, frame }
}
