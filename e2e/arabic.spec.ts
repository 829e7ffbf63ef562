import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext } from '@playwright/test';
import { i18nOf } from '../contracts/i18n/all';
import type { MessageKey } from '../contracts/i18n/types';
import { ADMIN_STATE, waitForMail } from './support/fixtures';
import { expect, type Page, test } from './support/test';

/**
 * The product in Arabic: the buyer's whole journey at a phone's width and a desktop's, right to left, in Arabic
 * words and digits; every page through axe-core's WCAG rules; the switch between languages; an Arabic buyer's
 * booking email. Texts are read from the Arabic messages, so the journey follows their wording.
 */

const ar = i18nOf('ar');
const ARABIC_DIGIT = /[٠-٩]/;

/** A message as a pattern: its placeholders match any text. */
function pattern(key: MessageKey, { exact = true } = {}): RegExp {
  const source = ar
    .t(key)
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\\\{\w+\\\}/g, '.+');
  return new RegExp(exact ? `^${source}$` : source);
}

/** axe-core's WCAG 2.1 A and AA violations on the page as it is now, one line each. */
async function violationsOn(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A browser context whose visitor chose Arabic, signed in as a new buyer who signed up in Arabic. */
async function arabicBuyer(
  browser: Browser,
  baseURL: string,
  width: number,
): Promise<{ context: BrowserContext; email: string }> {
  const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL }]);
  const email = `arabic-${width}-${Date.now()}@eventry.test`;
  const signedUp = await context.request.post('/api/auth/sign-up/email', {
    headers: { origin: baseURL },
    data: { firstName: 'ليلى', lastName: 'حسن', email, password: 'Journey1' },
  });
  expect(signedUp.ok()).toBe(true);
  return { context, email };
}

async function expectArabicPage(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  expect(await violationsOn(page), page.url()).toEqual([]);
}

for (const width of [390, 1280]) {
  test(`browses, books and pays in Arabic at ${width} px, and finds the tickets and the email in Arabic`, async ({
    browser,
    baseURL,
  }) => {
    const { context, email } = await arabicBuyer(browser, baseURL as string, width);
    const page = await context.newPage();
    try {
      await page.goto('/events-page/all');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(ar.t('catalogue.allEvents'));
      // '٢٦ فعالية': the count in Arabic digits, with the plural form it takes.
      await expect(page.getByText(/^[٠-٩٬]+ فعالي(ة|ات)$/)).toBeVisible();
      await expectArabicPage(page);

      await page.locator('a[href^="/event-details/"]').first().click();
      await expect(page).toHaveURL(/\/event-details\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('heading', { name: ar.t('catalogue.aboutEvent') })).toBeVisible();
      // The back arrow points the way back in a right-to-left page: to the right.
      const back = page.getByRole('link', { name: ar.t('catalogue.backToEvents') });
      // (Tailwind's -scale-x-100 is the CSS scale property: mirrored left to right.)
      const scale = await back.locator('svg').evaluate((svg) => getComputedStyle(svg).scale);
      expect(scale).toBe('-1 1');
      await expect(page.getByTestId('tickets-available')).toHaveText(ARABIC_DIGIT);
      await expectArabicPage(page);

      await page.locator('a[href$="/get-ticket"]').first().click();
      await expect(page).toHaveURL(/\/get-ticket$/);
      const proceed = page.getByRole('button', { name: pattern('payment.proceedToPay') });
      await expect(proceed).toHaveText(ARABIC_DIGIT);
      await expectArabicPage(page);
      await proceed.click();

      await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
      await expectArabicPage(page);
      await page.getByLabel(ar.t('payment.cardNumber')).fill('4242 4242 4242 4242');
      await page.getByLabel(ar.t('payment.expiryDate')).fill('12 / 34');
      await page.getByLabel(ar.t('payment.cvc')).fill('123');
      await page.getByRole('button', { name: pattern('payment.pay') }).click();

      await expect(page.getByRole('heading', { name: ar.t('payment.successTitle') })).toBeVisible();
      await expectArabicPage(page);
      await page.getByRole('link', { name: ar.t('payment.viewMyTickets') }).click();
      await expect(page).toHaveURL(/\/profile$/);
      const tickets = page.getByRole('region', { name: ar.t('bookings.yourTickets') });
      await expect(tickets).toBeVisible();
      await expect(tickets.getByText(/ج\.م\./).first()).toHaveText(ARABIC_DIGIT);
      await expectArabicPage(page);

      // The buyer signed up in Arabic: the confirmation comes in Arabic, laid out right to left.
      const mail = await waitForMail(email, /[\u0600-\u06FF]/);
      expect(mail.html).toContain('dir="rtl"');
      expect(mail.text).toMatch(ARABIC_DIGIT);
    } finally {
      await context.close();
    }
  });
}

test('switching language keeps the page and the session', async ({ browser, baseURL }) => {
  const { context } = await arabicBuyer(browser, baseURL as string, 1280);
  await context.clearCookies({ name: 'lang' });
  const page = await context.newPage();
  try {
    await page.goto('/events-page/all?q=c');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    // The English page's switch names Arabic in Arabic ('العربية'), in that language (lang="ar").
    await page
      .getByRole('link', { name: i18nOf('en').t('common.switchLanguage'), exact: true })
      .first()
      .click();
    await expect(page).toHaveURL(/\/events-page\/all\?q=c$/);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ar.t('catalogue.allEvents'));
    // Still signed in: the account menu, not the sign-in link.
    await expect(page.getByRole('link', { name: ar.t('catalogue.login') })).toHaveCount(0);
    await page
      .getByRole('link', { name: ar.t('common.switchLanguage'), exact: true })
      .first()
      .click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('All events');
  } finally {
    await context.close();
  }
});

/** Every page a visitor, a buyer and an admin meet first, in Arabic, at both widths, through axe-core. */
test.describe('every page in Arabic passes axe-core’s WCAG rules', () => {
  // Several pages at two widths each, in one test per role.
  test.setTimeout(180_000);
  const visitorPages = ['/', '/events-page/all', '/login', '/signup', '/forgot-pass', '/contact', '/no-such-page'];

  async function checkInArabic(context: BrowserContext, path: string) {
    const page = await context.newPage();
    try {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
        await expect(page.locator(':is(h1, h2):visible').first()).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
        expect(await violationsOn(page), `${path} at ${width} px`).toEqual([]);
      }
    } finally {
      await page.close();
    }
  }

  test('a visitor’s pages', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL });
    await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL as string }]);
    const { items } = await (await context.request.get('/api/events')).json();
    for (const path of [...visitorPages, `/event-details/${items[0].id}`]) await checkInArabic(context, path);
    await context.close();
  });

  test('a buyer’s pages', async ({ browser, baseURL }) => {
    const { context } = await arabicBuyer(browser, baseURL as string, 1280);
    const { items } = await (await context.request.get('/api/events')).json();
    for (const path of ['/profile', '/edit-profile', `/event-details/${items[0].id}/get-ticket`]) {
      await checkInArabic(context, path);
    }
    await context.close();
  });

  test('the admin’s pages', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, storageState: ADMIN_STATE });
    await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL as string }]);
    const { items } = await (await context.request.get('/api/events')).json();
    const id = items[0].id as string;
    for (const path of ['/admin', '/admin/event/new', `/admin/event/${id}`, `/admin/event/${id}/attendees`]) {
      await checkInArabic(context, path);
    }
    for (const path of ['/admin/check-in', `/admin/event/${id}/check-in`, `/admin/event/${id}/door-staff`]) {
      await checkInArabic(context, path);
    }
    await context.close();
  });
});
