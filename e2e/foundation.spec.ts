import { expect, test } from './support/test';

test('an unknown path shows the 404 page with a way back home', async ({ page }) => {
  expect((await page.goto('/this/does/not/exist'))?.status()).toBe(404);
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

test('a page left open across a redeploy loads itself again, once, when a chunk it needs is gone', async ({ page }) => {
  // Nothing fails on the way: no error is thrown or logged (but the 404 itself), and the app's error page does
  // not show, not even for a moment before the reload.
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(message.text());
    }
  });
  await page.exposeBinding('e2eErrorPageShown', () => problems.push('the error page was shown'));
  await page.addInitScript(() => {
    new MutationObserver(() => {
      // The error page's heading (the page's texts are also in its messages block, which is not shown).
      if (document.querySelector('[role="alert"] h1')?.textContent === 'Something went wrong.') {
        (window as unknown as { e2eErrorPageShown(): void }).e2eErrorPageShown();
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  // The events list's chunk answers 404 the first time, as an old build's chunk does after a redeploy.
  let refused = 0;
  await page.route(/\/assets\/events-page-[\w-]+\.js$/, (route) => {
    if (refused > 0) return route.continue();
    refused += 1;
    return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(6);
  await page.evaluate(() => sessionStorage.setItem('e2e-mark', 'before'));
  await page.evaluate(() => Object.assign(window, { e2eSameDocument: true }));

  await page.getByRole('link', { name: 'See More' }).click();
  await expect(page).toHaveURL(/\/events-page\/all$/);
  await expect(page.getByRole('link', { name: 'All', exact: true })).toHaveAttribute('aria-current', 'page');
  expect(refused).toBe(1);
  // A new document (the reload), in the same tab session.
  expect(await page.evaluate(() => 'e2eSameDocument' in window)).toBe(false);
  expect(await page.evaluate(() => sessionStorage.getItem('e2e-mark'))).toBe('before');
  // The reloaded page works: its category pills navigate.
  await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Music' }).click();
  await expect(page.getByRole('heading', { name: 'Music', level: 1 })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a chunk that stays missing does not reload the page over and over', async ({ page }) => {
  let refused = 0;
  await page.route(/\/assets\/events-page-[\w-]+\.js$/, (route) => {
    refused += 1;
    return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
  });
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(6);
  await page.getByRole('link', { name: 'See More' }).click();
  await expect(page).toHaveURL(/\/events-page\/all$/);
  // One reload, then the app's error page with its way back, instead of reloading again and again.
  await expect(page.getByRole('heading', { name: 'Something went wrong.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Home' })).toBeVisible();
  await page.waitForTimeout(2_000);
  expect(loads).toBe(2);
  expect(refused).toBeGreaterThanOrEqual(2);
});
