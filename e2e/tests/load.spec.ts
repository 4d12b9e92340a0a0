/** The page loads cleanly: no console errors, no uncaught exceptions, no failed or foreign requests. */
import { expect, test } from '@playwright/test'
import { openDemo } from './support.ts'

test('the demo loads with no console errors, no uncaught exceptions and no failed requests', async ({ page, baseURL }) => {
  const problems: string[] = []
  page.on('console', (m) => m.type() === 'error' && problems.push(`console.error: ${m.text()}`))
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`))
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`))
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`))
  const foreign: string[] = []
  page.on('request', (r) => {
    const url = r.url()
    if (!url.startsWith(`${baseURL}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url)
  })

  await openDemo(page)
  await expect(page).toHaveTitle(/eddy/)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.locator('#llama')).toBeVisible()
  await expect(page.locator('#fps')).toHaveText(/^[1-9]\d*$/)
  // Let the page settle: the monitor samples, the llama walks, lazy work happens.
  await page.waitForTimeout(1500)
  // The Worker loop loads the worker script: a short run proves it loads without errors too.
  await page.getByLabel('Run time (seconds)').fill('0.5')
  await page.getByRole('button', { name: 'Worker loop', exact: true }).click()
  await expect(page.locator('#loop-status')).toHaveText(/^Worker loop: /, { timeout: 20_000 })

  expect(problems).toEqual([])
  expect(foreign, 'requests beyond the page own files').toEqual([])
})
