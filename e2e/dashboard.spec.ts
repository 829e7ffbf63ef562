import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from '@playwright/test';
import { i18nOf } from '../contracts/i18n/all';
import { ADMIN_STATE, payWithTestCard, USER_STATE } from './support/fixtures';
import { expect, type Page, test } from './support/test';

/**
 * The organiser's dashboard (issue 37): a purchase shows in its figures, charts and tables; a purchase made
 * elsewhere moves the figures of an open dashboard without a reload; 'Show as table' works from the keyboard; and
 * the pages pass axe-core's WCAG rules at a phone's width and a desktop's, in English and in Arabic.
 */

test.use({ storageState: ADMIN_STATE });

const ar = i18nOf('ar');

async function violationsOn(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The signed-in buyer opens the event's page and pays `quantity` tickets with the test card, in a browser of their own. */
async function buyOnTheSite(browser: Browser, baseURL: string, eventId: string, quantity: number) {
  const context = await browser.newContext({ baseURL, storageState: USER_STATE });
  const page = await context.newPage();
  try {
    // The page counts itself once it runs, for the funnel.
    const viewed = page.waitForResponse((r) => r.url().endsWith(`/api/events/${eventId}/view`) && r.status() === 204);
    await page.goto(`/event-details/${eventId}`);
    await viewed;
    await page.goto(`/event-details/${eventId}/get-ticket`);
    for (let i = 1; i < quantity; i++) await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
    await expect(page).toHaveURL(/\/payment\?booking=/);
    await payWithTestCard(page);
  } finally {
    await context.close();
  }
}

/** A new buyer pays one ticket through the API (another person, somewhere else). */
async function buyThroughTheApi(browser: Browser, baseURL: string, eventId: string) {
  const context = await browser.newContext({ baseURL });
  const headers = { origin: baseURL };
  try {
    const signedUp = await context.request.post('/api/auth/sign-up/email', {
      headers,
      data: { firstName: 'Omar', lastName: 'Live', email: `live-${Date.now()}@eventry.test`, password: 'Journey1' },
    });
    expect(signedUp.ok()).toBe(true);
    const reserved = await context.request.post('/api/bookings', {
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      data: { eventId, quantity: 1 },
    });
    expect(reserved.status()).toBe(201);
    const paid = await context.request.post('/api/payments/simulated/confirm', {
      headers,
      data: {
        bookingId: (await reserved.json()).id,
        cardNumber: '4242424242424242',
        expMonth: 12,
        expYear: 2099,
        cvc: '123',
      },
    });
    expect(paid.status()).toBe(200);
  } finally {
    await context.close();
  }
}

/** A chart's figure, found by its caption. */
function chart(page: Page, title: string | RegExp) {
  return page.getByRole('figure', { name: title });
}

test('after a purchase the event’s dashboard shows it in the figures, the charts and their tables', async ({
  ownEvent,
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const own = await ownEvent('E2E Dashboard', { tickets: '20', days: 5 });
  await buyOnTheSite(browser, baseURL as string, own.id, 2);

  // From the admin list, the event's own dashboard.
  await page.goto(`/admin?q=${encodeURIComponent(own.title)}`);
  await page.getByRole('link', { name: `Dashboard of ${own.title}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/event/${own.id}/dashboard$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText(own.title)).toBeVisible();

  await expect(page.getByTestId('figure-sold')).toHaveText('2');
  const inRange = page.getByRole('region', { name: 'In this range' });
  await expect(inRange.getByRole('definition').nth(1)).toHaveText('300 EGP');
  await expect(inRange.getByRole('definition').nth(3)).toHaveText('300 EGP');
  const now = page.getByRole('region', { name: 'Right now' });
  await expect(now.getByRole('definition').first()).toContainText('2 / 20');

  // Each chart is an image named by its summary, with the same figures as a table.
  const sold = chart(page, 'Tickets sold per day');
  await expect(sold.getByRole('img')).toHaveAttribute(
    'aria-label',
    /: 2 in total, most on .+ \(2\)\. Capacity: 20 tickets\.$/,
  );
  await sold.getByRole('button', { name: 'Show as table' }).click();
  const soldTable = sold.getByRole('table');
  await expect(soldTable).toBeVisible();
  // The last day of the range is today: 2 sold, none refunded, 2 so far.
  await expect(soldTable.getByRole('row').last().getByRole('cell')).toHaveText(['2', '0', '2']);

  const revenue = chart(page, 'Revenue per day');
  await expect(revenue.getByRole('img')).toHaveAttribute('aria-label', /300 EGP gross, 0 EGP refunded, 300 EGP net\.$/);

  const methods = chart(page, 'Payment methods');
  await expect(methods.getByRole('img')).toHaveAttribute(
    'aria-label',
    'Paid bookings by payment method: Test card: 1.',
  );
  await methods.getByRole('button', { name: 'Show as table' }).click();
  await expect(methods.getByRole('row', { name: /Test card/ }).getByRole('cell')).toHaveText(['1', '300 EGP']);

  // The orders behind the figures, for the range on screen.
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download orders (CSV)' }).click();
  const csv = readFileSync((await (await downloading).path()) as string, 'utf8');
  expect(csv.startsWith('\uFEFF')).toBe(true);
  expect(csv).toContain(own.title);

  // The buyer opened the event's page once and paid once. Views are written every few seconds (decision 022).
  await expect(async () => {
    await page.reload();
    await expect(chart(page, 'From event page to payment').getByRole('img')).toHaveAttribute(
      'aria-label',
      'Event page views: 1; reservations: 1; paid bookings: 1 (100% of views).',
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 20_000 });

  // The header's Dashboard: every event together, this one in the list with its figures.
  await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByText('All events', { exact: true }).first()).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(own.title) });
  await expect(row).toContainText('2 / 20');
  await expect(row.getByRole('link', { name: `Attendees of ${own.title}` })).toBeVisible();
});

test('a purchase made elsewhere moves the open dashboard’s figures without a reload', async ({
  ownEvent,
  page,
  browser,
  baseURL,
}) => {
  const own = await ownEvent('E2E Dashboard Live', { tickets: '10', days: 5 });
  await page.goto(`/admin/event/${own.id}/dashboard`);
  await expect(page.getByTestId('figure-sold')).toHaveText('0');
  await expect(page.getByText('No sales, refunds or check-ins in this range.')).toBeVisible();
  await expect(page.locator('[data-live="live"]')).toBeVisible();
  await page.evaluate(() => Object.assign(window, { e2eSameDocument: true }));

  await buyThroughTheApi(browser, baseURL as string, own.id);
  await expect(page.getByTestId('figure-sold')).toHaveText('1', { timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'Right now' }).getByRole('definition').first()).toContainText('1 / 10');
  expect(await page.evaluate(() => (window as unknown as { e2eSameDocument?: boolean }).e2eSameDocument)).toBe(true);
});

test('‘Show as table’ is reached with Tab and works with Enter and Space', async ({ page }) => {
  await page.goto('/admin/dashboard');
  const sold = chart(page, 'Tickets sold per day');
  const toggle = sold.getByRole('button', { name: /table/ });
  await expect(toggle).toBeVisible();
  // Tab from the chart's title: the next stop is its toggle.
  await sold.locator('figcaption').click();
  await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  const table = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
  await expect(table).toBeHidden();

  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(toggle).toHaveText('Hide table');
  await expect(table.getByRole('table', { name: 'Tickets sold per day' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Sold so far' })).toBeVisible();

  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(table).toBeHidden();
});

test('a reversed range shows the API’s message under the dates, and a preset puts it right', async ({ page }) => {
  await page.goto('/admin/dashboard?from=2026-12-10&to=2026-12-01');
  await expect(page.getByText('The end date must be on or after the start date')).toBeVisible();
  await expect(page.getByLabel('To')).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await expect(page.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('figure-sold')).toBeVisible();
  await expect(page).toHaveURL(/from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d$/);
  // The range is in the address: a reload keeps it.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'true');
});

for (const lang of ['en', 'ar'] as const) {
  for (const width of [390, 1280]) {
    test(`the dashboards pass axe and fit the screen at ${width} px in ${lang === 'en' ? 'English' : 'Arabic'}`, async ({
      ownEvent,
      browser,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const own = await ownEvent('E2E Dashboard A11y', { tickets: '10', days: 5 });
      const context = await browser.newContext({
        baseURL,
        storageState: ADMIN_STATE,
        viewport: { width, height: 900 },
      });
      await context.addCookies([{ name: 'lang', value: lang, url: baseURL as string }]);
      const page = await context.newPage();
      try {
        await buyThroughTheApi(browser, baseURL as string, own.id);
        for (const path of ['/admin/dashboard', `/admin/event/${own.id}/dashboard`]) {
          await page.goto(path);
          await expect(page.getByTestId('figure-sold')).toBeVisible();
          await expect(page.locator('html')).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr');
          // One chart's table open, so that axe reads a table too.
          await page.getByRole('figure').first().getByRole('button').click();
          if (lang === 'ar') {
            await expect(page.getByRole('heading', { level: 1 })).toHaveText(ar.t('dashboard.title'));
            await expect(page.getByTestId('figure-sold')).toHaveText(/^[٠-٩٬]+$/);
          }
          expect(await violationsOn(page), `${path} ${lang} ${width}`).toEqual([]);
          // Wide charts scroll inside their figure; the page itself never scrolls sideways.
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${path} ${lang} ${width}`).toBeLessThanOrEqual(0);
        }
      } finally {
        await context.close();
      }
    });
  }
}
