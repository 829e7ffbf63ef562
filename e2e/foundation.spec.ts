import { expect, test } from './support/test';

test('an unknown path shows the 404 page with a way back home', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: 'PAGE NOT FOUND' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('pages are served with security headers', async ({ request }) => {
  const res = await request.get('/events-page/all');
  expect(res.status()).toBe(200);
  const csp = res.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers()['x-content-type-options']).toBe('nosniff');
});
