// Opens frame.html (a same-origin document under an enforced CSP + Trusted Types, see its <meta>) in an iframe and
// hands back its window, with the built @eddy/signal and @eddy/scheduler loaded in it.
import type * as Eddy from '@eddy/signal'
import type * as Sched from '@eddy/scheduler'

export type Violation = {
  directive: string
  blockedURI: string
  sample: string
  sourceFile: string
  line: number
  disposition: string
}
export type CspWindow = Window &
  typeof globalThis & {
    eddy: typeof Eddy
    sched: typeof Sched
    violations: Violation[]
    errors: unknown[]
    inlineRan?: boolean
  }

export const frameUrl = new URL('./frame.html', import.meta.url).pathname

const frames: HTMLIFrameElement[] = []
export function closeFrames() {
  frames.splice(0).forEach((f) => f.remove())
}

export async function openCspFrame(): Promise<{ win: CspWindow; doc: Document; frame: HTMLIFrameElement }> {
  const frame = document.createElement('iframe')
  frame.src = frameUrl
  frames.push(frame)
  const ready = new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('CSP frame did not load its modules')), 15_000)
    const on = (e: MessageEvent) => {
      if (e.source === frame.contentWindow && e.data == 'csp-frame-ready')
        clearTimeout(t), removeEventListener('message', on), resolve()
    }
    addEventListener('message', on)
  })
  document.body.append(frame)
  await ready
  const win = frame.contentWindow as CspWindow
  return { win, doc: win.document, frame }
}

/** Lets violation events (dispatched in a task after the blocked action) arrive. */
export const tick = (win: Window, ms = 50) => new Promise<void>((r) => (win as any).setTimeout(r, ms))

// Trusted Types are not in TypeScript's DOM lib (apps get them from @types/trusted-types, which DOMPurify pulls in).
// What these tests use, declared as that package declares it: TrustedHTML is a class with a private brand.
export declare class TrustedHTML {
  private _brand: true
  toJSON(): string
}
export declare class TrustedScriptURL {
  private _brand: true
  toJSON(): string
}
export interface TrustedTypePolicy {
  readonly name: string
  createHTML(input: string): TrustedHTML
  createScriptURL(input: string): TrustedScriptURL
}
export interface TrustedTypePolicyFactory {
  createPolicy(
    name: string,
    rules: {
      createHTML?: (input: string, type?: string, sink?: string) => string
      createScriptURL?: (input: string, type?: string, sink?: string) => string
    },
  ): TrustedTypePolicy
  isHTML(value: unknown): boolean
  isScriptURL(value: unknown): boolean
}
export const trustedTypesOf = (win: Window) => (win as any).trustedTypes as TrustedTypePolicyFactory

/**
 * The bank's tiny sanitizer, as a Trusted Types policy (in the frame's realm): everything is escaped, then only
 * <b>, <em>, <strong> and <br> come back, without attributes. It returns serialized HTML, as DOMPurify does.
 */
export function htmlPolicy(win: Window): TrustedTypePolicy {
  return trustedTypesOf(win).createPolicy('app-html', {
    createHTML: (input) =>
      input
        .replace(/[&<>"']/g, (c) => `&${({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' } as any)[c]};`)
        .replace(/&lt;(\/?)(b|em|strong)&gt;/g, '<$1$2>')
        .replace(/&lt;br\s*\/?&gt;/g, '<br>'),
  })
}

/** Same-origin URLs only, for <embed>/<object> (a statement PDF). */
export function urlPolicy(win: Window): TrustedTypePolicy {
  return trustedTypesOf(win).createPolicy('app-url', {
    createScriptURL: (input) => {
      const url = new URL(input, win.location.href)
      if (url.origin != win.location.origin) throw new TypeError('app-url: not same-origin: ' + input)
      return url.href
    },
  })
}

/** Counts DOM mutations under `node` while `fn` runs (records are taken synchronously). */
export function mutations(win: Window, node: Node, fn: () => void): number {
  const mo = new (win as any).MutationObserver(() => {}) as MutationObserver
  mo.observe(node, { subtree: true, childList: true, characterData: true, attributes: true })
  fn()
  const n = mo.takeRecords().length
  mo.disconnect()
  return n
}
