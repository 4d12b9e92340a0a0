import { expect, test } from '@playwright/test'

test('the counter counts two clicks', async ({ page }) => {
  await page.goto('/')
  const count = page.locator('#count')
  await expect(count).toHaveText('0')
  const button = page.getByRole('button', { name: 'Increment' })
  await button.click()
  await button.click()
  await expect(count).toHaveText('2')
})
