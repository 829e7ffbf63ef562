import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN_STATE, USER_STATE } from './support/fixtures';

/**
 * Every page, as the visitor, user or admin who sees it, on a wide screen and on a phone, through axe-core's
 * WCAG 2.1 A and AA rules. Lighthouse's accessibility score covers three public pages; this covers the rest
 * (forms, booking, admin) in the states a user meets first.
 */

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

interface Check {
  path: string | ((page: Page) => Promise<string>);
  /** Seen once the page has its data: what it is checked with. */
  ready: (page: Page) => ReturnType<Page['getByRole']>;
}

async function firstEventId(page: Page): Promise<string> {
  const events = await (await page.request.get('/api/events')).json();
  return events.items[0].id as string;
}

/** axe-core's WCAG 2.1 A and AA violations on the page as it is now, one line each. */
async function violationsOn(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

async function checkPage(page: Page, check: Check) {
  const path = typeof check.path === 'string' ? check.path : await check.path(page);
  const [wide, phone] = VIEWPORTS;
  await page.setViewportSize(wide);
  await page.goto(path);
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  await expect(check.ready(page)).toBeVisible();
  expect(await violationsOn(page), `${path} at ${wide.width} px`).toEqual([]);
  // The same page turned into a phone's: the layout is CSS's, so no new load is needed.
  await page.setViewportSize(phone);
  await page.waitForFunction((width) => window.innerWidth === width, phone.width);
  await expect(check.ready(page)).toBeVisible();
  expect(await violationsOn(page), `${path} at ${phone.width} px`).toEqual([]);
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });

test.describe('a visitor’s pages', () => {
  const pages: Record<string, Check> = {
    home: { path: '/', ready: (page) => page.getByRole('link', { name: 'More Details' }).first() },
    'all events': { path: '/events-page/all', ready: heading('All events') },
    'a title search': {
      path: '/events-page/all?q=zzzz',
      ready: (page) => page.getByText('No Events', { exact: true }),
    },
    'an event': {
      path: async (page) => `/event-details/${await firstEventId(page)}`,
      ready: (page) => page.getByRole('heading', { level: 1 }),
    },
    login: { path: '/login', ready: heading('Sign in to your account') },
    'sign-up': { path: '/signup', ready: heading('Create a new account') },
    'forgot password': { path: '/forgot-pass', ready: (page) => page.getByRole('button', { name: 'Reset Password' }) },
    'not found': { path: '/no-such-page', ready: (page) => page.getByRole('heading', { level: 1 }) },
    'reset password': {
      path: '/reset-password?token=not-a-token',
      ready: (page) => page.getByRole('heading', { level: 1 }),
    },
  };
  for (const [name, check] of Object.entries(pages)) {
    test(name, async ({ page }) => checkPage(page, check));
  }
});

test('the header search with its results open, and a form showing its errors', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search events' }).fill('c');
  await expect(page.getByRole('status').filter({ hasText: /results$/ })).toHaveCount(1);
  expect(await violationsOn(page), 'header search results').toEqual([]);

  await page.goto('/signup');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.locator('input[aria-invalid="true"]').first()).toBeVisible();
  expect(await violationsOn(page), 'sign-up errors').toEqual([]);
});

test.describe('a signed-in user’s pages', () => {
  test.use({ storageState: USER_STATE });
  const pages: Record<string, Check> = {
    'your bookings': { path: '/profile', ready: (page) => page.getByRole('heading', { name: 'Your Tickets' }) },
    'edit profile': { path: '/edit-profile', ready: heading('Edit Profile') },
    'ticket selection': {
      path: async (page) => `/event-details/${await firstEventId(page)}/get-ticket`,
      ready: (page) => page.getByRole('button', { name: /^Proceed to Pay/ }),
    },
    'contact form': { path: '/contact', ready: (page) => page.getByRole('heading', { level: 1 }) },
    'payment failed': {
      path: async (page) => `/payment-failed?event=${await firstEventId(page)}`,
      ready: heading('Something Went Wrong'),
    },
    'message sent': { path: '/success-email', ready: heading('Message Successful') },
  };
  for (const [name, check] of Object.entries(pages)) {
    test(name, async ({ page }) => checkPage(page, check));
  }

  test('the account menu, and the phone’s link menu, open', async ({ page }) => {
    await page.goto('/events-page/all');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menu', { name: 'Account' })).toBeVisible();
    expect(await violationsOn(page), 'account menu').toEqual([]);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
    expect(await violationsOn(page), 'phone menu').toEqual([]);
  });
});

test.describe('a buyer’s payment pages', () => {
  test('payment, then payment success', async ({ page, baseURL }) => {
    // A buyer of this test's own: the shared user's tickets are other journeys' to count.
    const signedUp = await page.request.post('/api/auth/sign-up/email', {
      headers: { origin: baseURL as string },
      data: { firstName: 'Axe', lastName: 'Buyer', email: `a11y-${Date.now()}@eventry.test`, password: 'Journey1' },
    });
    expect(signedUp.ok()).toBe(true);
    const reserved = await page.request.post('/api/bookings', {
      headers: { origin: baseURL as string, 'idempotency-key': crypto.randomUUID() },
      data: { eventId: await firstEventId(page), quantity: 1 },
    });
    expect(reserved.status()).toBe(201);
    const { id } = await reserved.json();
    await checkPage(page, { path: `/payment?booking=${id}`, ready: heading('Payment') });
    const paid = await page.request.post('/api/payments/simulated/confirm', {
      headers: { origin: baseURL as string },
      data: { bookingId: id, cardNumber: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' },
    });
    expect(paid.status()).toBe(200);
    await checkPage(page, { path: `/payment-success?booking=${id}`, ready: heading('Payment Successful') });
  });
});

test.describe('the admin’s pages', () => {
  test.use({ storageState: ADMIN_STATE });
  const pages: Record<string, Check> = {
    'event list': { path: '/admin', ready: heading('Event List') },
    'new event': { path: '/admin/event/new', ready: heading('Create Event') },
    mailbox: { path: '/admin/mailbox', ready: (page) => page.getByRole('heading', { level: 1 }) },
    'edit an event': {
      path: async (page) => `/admin/event/${await firstEventId(page)}`,
      ready: heading('Edit Event'),
    },
  };
  for (const [name, check] of Object.entries(pages)) {
    test(name, async ({ page }) => checkPage(page, check));
  }

  test('the delete dialog', async ({ page }) => {
    await page.goto('/admin');
    await page
      .getByRole('button', { name: /^Delete/ })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await violationsOn(page)).toEqual([]);
  });
});
