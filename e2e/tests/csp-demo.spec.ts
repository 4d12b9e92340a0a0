// The built demo under a strict Content Security Policy, sent as a real response header: no inline script, inline
// style or style="" attribute in the built page, so a site that serves it behind `script-src 'self'; style-src
// 'self'` gets no violation. (Trusted Types are another matter: the page's "Render on every write" is the talk's
// innerHTML signal, and its worker loop makes a Worker from a URL string; the packages' own behaviour under Trusted
// Types is tested in packages/signal/test/browser/apps/csp/.)
import { expect, test } from '@playwright/test'

const policy = "script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'"

test('the built demo runs under script-src and style-src self, with no violation', async ({ page }) => {
  await page.route('**/*', async (route) => {
    const response = await route.fetch()
    const headers = { ...response.headers() }
    if (route.request().resourceType() == 'document') headers['content-security-policy'] = policy
    await route.fulfill({ response, headers })
  })
  const violations: string[] = []
  const errors: string[] = []
  await page.exposeFunction('__violation', (v: string) => violations.push(v))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as any).__violation(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`))
  })
  page.on('pageerror', (e) => errors.push(e.message))
  const response = await page.goto('/')
  expect(response!.headers()['content-security-policy']).toBe(policy)
  // The policy is enforced: an inline script added now does not run, and is reported.
  await page.evaluate(() => {
    const s = document.createElement('script')
    s.textContent = 'window.inlineRan = true'
    document.head.append(s)
  })
  await expect.poll(() => violations.filter((v) => v.startsWith('script-src-elem')).length).toBe(1)
  expect(await page.evaluate(() => (window as any).inlineRan)).toBeUndefined()
  // The page works: the llama draws, its styles apply, and a cooperative loop reports its row.
  await expect.poll(() => page.evaluate(() => Number(document.getElementById('frame-count')?.textContent))).toBeGreaterThan(5)
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('.card')!).display)).not.toBe('inline')
  await page.getByLabel('Run time (seconds)').fill('0.5')
  await page.locator('.loop-btn[data-loop="cooperative"]').click()
  await expect(page.locator('#loop-results tr[data-loop="cooperative"] [data-col="work"]')).toHaveText(/^[1-9][\d,]*$/)
  expect(errors).toEqual([])
  expect(violations.filter((v) => !v.startsWith('script-src-elem'))).toEqual([])
})
