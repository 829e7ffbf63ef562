import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, BrowserContext } from '@playwright/test';
import { waitlist } from '../contracts/i18n/en/waitlist';
import { loginFor, payWithTestCard, USER_STATE, waitForMail } from './support/fixtures';
import { expect, type Page, test } from './support/test';

/**
 * The waitlist of a sold-out event (issue 36): a buyer joins it on the event's page, tickets another buyer gives
 * back are held for them and emailed, and they pay for them as for any reservation; one may leave the line, or
 * decline the tickets offered from Your Tickets.
 */

test.use({ storageState: USER_STATE });

/** A new buyer in a browser of their own (a new account each run: the line is per user). */
async function newBuyer(browser: Browser, baseURL: string, name: string) {
  const context = await browser.newContext({ baseURL });
  const email = `${name.toLowerCase()}-${Date.now().toString(36)}@eventry.test`;
  const signedUp = await context.request.post('/api/auth/sign-up/email', {
    headers: { origin: baseURL },
    data: { firstName: name, lastName: 'Waiting', email, password: 'Journey1' },
  });
  expect(signedUp.ok()).toBe(true);
  return { context, email };
}

/** Reserves and pays `eventId`'s tickets through the API: the booking's id. */
async function buyThroughApi(request: APIRequestContext, baseURL: string, eventId: string, quantity: number) {
  const reserved = await request.post('/api/bookings', {
    headers: { origin: baseURL, 'idempotency-key': crypto.randomUUID() },
    data: { eventId, quantity },
  });
  expect(reserved.status()).toBe(201);
  const { id } = (await reserved.json()) as { id: string };
  const paid = await request.post('/api/payments/simulated/confirm', {
    headers: { origin: baseURL },
    data: { bookingId: id, cardNumber: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' },
  });
  expect(paid.status()).toBe(200);
  return id;
}

/** A page of a context of the test's own, opened once the app has taken it over (see support/test.ts). */
async function openPage(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
  return page;
}

/** axe-core's WCAG 2.1 A and AA violations on the page as it is now, one line each. */
async function violationsOn(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('a buyer joins a sold-out event’s waitlist, gets the ticket another buyer gives back, and pays for it', async ({
  ownEvent,
  page,
  browser,
  baseURL,
}) => {
  const origin = baseURL as string;
  const event = await ownEvent('Waitlist gig', { tickets: '1', days: 90 });
  const b = await newBuyer(browser, origin, 'Karim');
  try {
    // Buyer A (the shared user) takes the only ticket.
    await page.goto(`/event-details/${event.id}/get-ticket`);
    await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
    await expect(page).toHaveURL(/\/payment\?booking=/);
    await payWithTestCard(page);

    // Buyer B finds it sold out and joins the line.
    const eventPage = await openPage(b.context, `/event-details/${event.id}`);
    await expect(eventPage.getByRole('button', { name: /Sold out$/ })).toBeDisabled();
    const panel = eventPage.getByRole('region', { name: waitlist.title });
    await panel.getByLabel(waitlist.quantity).selectOption('1');
    await panel.getByRole('button', { name: waitlist.join }).click();
    await expect(panel.getByText('You are number 1 on the waitlist')).toBeVisible();
    await expect(panel.getByText('You asked for 1 ticket.')).toBeVisible();
    await expect(panel.getByRole('heading', { name: waitlist.title })).toBeFocused();
    await expect(panel.getByRole('button', { name: waitlist.leave })).toBeVisible();
    for (const width of [1280, 390]) {
      await eventPage.setViewportSize({ width, height: 900 });
      await expect(panel).toBeVisible();
      expect(await violationsOn(eventPage), `the event page with the waitlist at ${width} px`).toEqual([]);
    }

    // Buyer A gives the ticket back from Your Tickets.
    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'Your Tickets' }).locator('li').filter({ hasText: event.title });
    await card.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('dialog', { name: 'Cancel booking' }).getByRole('button', { name: 'Cancel 1 ticket' }).click();
    await expect(page.getByText('1 ticket cancelled: 150 EGP refunded')).toBeVisible();
    const history = page.getByRole('region', { name: 'Your History' }).locator('li').filter({ hasText: event.title });
    await expect(history.getByText('Refunded 150 EGP')).toBeVisible();

    // Buyer B's page, still open, shows the ticket held for them (the live stream, no reload).
    await expect(panel.getByText(waitlist.offerTitle)).toBeVisible({ timeout: 20_000 });
    await expect(
      panel.getByText(/^1 ticket is held for you until \d\d:\d\d [AP]M on [A-Z][a-z]{2} \d+, \d{4}\.$/),
    ).toBeVisible();
    const payNow = panel.getByRole('link', { name: waitlist.payNow });
    await expect(payNow).toHaveAttribute('href', /^\/payment\?booking=[0-9a-f-]{36}$/);
    const bookingPath = (await payNow.getAttribute('href')) as string;
    expect(await violationsOn(eventPage), 'the event page with an offer').toEqual([]);

    // ... and on Your Tickets, under Your waitlists.
    await eventPage.goto('/profile');
    const waitlists = eventPage.getByRole('region', { name: waitlist.yourWaitlists });
    const entry = waitlists.locator('li').filter({ hasText: event.title });
    await expect(entry.getByRole('link', { name: event.title })).toHaveAttribute('href', `/event-details/${event.id}`);
    await expect(entry.getByRole('link', { name: waitlist.payNow })).toHaveAttribute('href', bookingPath);

    // The email's link goes to the payment page of that hold.
    const escaped = event.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const mail = await waitForMail(b.email, new RegExp(`^Eventry: tickets for ${escaped} are waiting for you$`));
    const link = /https?:\/\/\S+\/payment\?booking=[0-9a-f-]{36}/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    const emailed = new URL(link as string);
    expect(`${emailed.pathname}${emailed.search}`).toBe(bookingPath);

    await eventPage.goto(`${emailed.pathname}${emailed.search}`);
    await eventPage.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await payWithTestCard(eventPage);
    await eventPage.goto('/profile');
    await expect(eventPage.getByRole('region', { name: 'Your Tickets' }).getByText(event.title)).toBeVisible();
    await expect(eventPage.getByRole('region', { name: waitlist.yourWaitlists })).toHaveCount(0);
  } finally {
    await b.context.close();
  }
});

test('a visitor is sent to sign in first, and a buyer may leave the line', async ({
  page,
  browser,
  baseURL,
  ownEvent,
}) => {
  const origin = baseURL as string;
  const event = await ownEvent('Waitlist leave', { tickets: '1', days: 90 });
  const other = await newBuyer(browser, origin, 'Salma');
  const visitor = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  try {
    await buyThroughApi(other.context.request, origin, event.id, 1);

    const visitorPage = await openPage(visitor, `/event-details/${event.id}`);
    await visitorPage.getByRole('region', { name: waitlist.title }).getByRole('link', { name: waitlist.join }).click();
    await expect(visitorPage).toHaveURL(loginFor(`/event-details/${event.id}`));

    await page.goto(`/event-details/${event.id}`);
    const panel = page.getByRole('region', { name: waitlist.title });
    await panel.getByLabel(waitlist.quantity).selectOption('3');
    await panel.getByRole('checkbox', { name: waitlist.acceptFewer }).check();
    await panel.getByRole('button', { name: waitlist.join }).click();
    await expect(panel.getByText('You are number 1 on the waitlist')).toBeVisible();
    await expect(panel.getByText('You asked for 3 tickets, or fewer.')).toBeVisible();

    await panel.getByRole('button', { name: waitlist.leave }).click();
    await expect(page.getByText(waitlist.left)).toBeVisible();
    await expect(panel.getByRole('button', { name: waitlist.join })).toBeVisible();
    await expect(panel.getByRole('heading', { name: waitlist.title })).toBeFocused();
  } finally {
    await visitor.close();
    await other.context.close();
  }
});

test('tickets offered to a waitlisted buyer can be declined from Your Tickets', async ({
  page,
  browser,
  baseURL,
  ownEvent,
}) => {
  const origin = baseURL as string;
  const event = await ownEvent('Waitlist decline', { tickets: '1', days: 90 });
  const other = await newBuyer(browser, origin, 'Omar');
  try {
    const bookingId = await buyThroughApi(other.context.request, origin, event.id, 1);
    const joined = await page.request.post(`/api/events/${event.id}/waitlist`, {
      headers: { origin },
      data: { quantity: 1, acceptFewer: false },
    });
    expect(joined.status()).toBe(201);
    const cancelled = await other.context.request.post(`/api/bookings/${bookingId}/cancel`, {
      headers: { origin },
      data: { quantity: 1 },
    });
    expect(cancelled.ok()).toBe(true);

    await page.goto('/profile');
    const waitlists = page.getByRole('region', { name: waitlist.yourWaitlists });
    const entry = waitlists.locator('li').filter({ hasText: event.title });
    await expect(entry.getByText(/^1 ticket is held for you until /)).toBeVisible();
    expect(await violationsOn(page), 'Your Tickets with an offer').toEqual([]);
    await entry.getByRole('button', { name: waitlist.decline }).click();
    const dialog = page.getByRole('dialog', { name: waitlist.declineTitle });
    await expect(dialog.getByText(event.title)).toBeVisible();
    await dialog.getByRole('button', { name: waitlist.confirmDecline }).click();
    await expect(page.getByText(waitlist.declined)).toBeVisible();
    await expect(waitlists).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Your Tickets' })).toBeFocused();

    // Nobody else waits: the ticket is on sale again.
    await page.goto(`/event-details/${event.id}`);
    await expect(page.getByRole('link', { name: '150 EGP' })).toBeVisible();
    await expect(page.getByRole('region', { name: waitlist.title })).toHaveCount(0);
  } finally {
    await other.context.close();
  }
});
