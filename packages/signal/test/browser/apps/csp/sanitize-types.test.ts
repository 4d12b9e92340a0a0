// `sanitize` may return a TrustedHTML (a policy's createHTML, DOMPurify's sanitize with RETURN_TRUSTED_TYPE: true).
// It was typed `(html: string) => string` until stop 36, and `npm run -s typecheck` failed on the bind() below with:
//   Type 'TrustedHTML' is not assignable to type 'string'.
// This test is the runtime half; the type check is the other half (no cast here on purpose).
import { afterEach, expect, it } from 'vitest'
import type { Signal as SignalType } from '@eddy/signal'
import { closeFrames, htmlPolicy, openCspFrame, type TrustedHTML } from './csp-harness.ts'

afterEach(closeFrames)

// As an app would write it, typed against @eddy/signal: a TrustedHTML-returning sanitizer, no cast.
function bindMemo(note: SignalType<string>, el: Element, sanitize: (html: string) => TrustedHTML) {
  return note.bind(el, { html: true, sanitize })
}

it('a TrustedHTML-returning sanitizer type-checks and renders', async () => {
  const { win, doc } = await openCspFrame()
  const policy = htmlPolicy(win)
  const memo = doc.createElement('div')
  doc.body.append(memo)
  const note = new win.eddy.Signal('<em>salary</em> <script>x</script>')
  bindMemo(note as any, memo, (html) => policy.createHTML(html))
  win.eddy.flush()
  expect(memo.innerHTML).toBe('<em>salary</em> &lt;script&gt;x&lt;/script&gt;')
  expect(win.violations).toEqual([])
})
