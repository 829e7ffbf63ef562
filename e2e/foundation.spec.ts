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

test('server-rendered pages hydrate with no console error (CSP violations included) and keep their footer', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto('/events-page/all');
  // The footer comes with the page, visible before and after React takes over.
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await page.getByRole('heading', { level: 3 }).first().click();
  await expect(page).toHaveURL(/\/event-details\//);
  await page.reload();
  await page.goto('/');
  await expect(
    page.locator('section[aria-labelledby="banner-title"]').getByRole('heading', { level: 1 }),
  ).toBeVisible();
  expect(problems).toEqual([]);
});
