import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import type { EventInput } from '../../contracts/admin';
import type { EventsPage } from '../../contracts/catalogue';
import { addDays, todayIn } from '../../contracts/dates';
import { E2E_APP_PORT, E2E_MAIL_HTTP_PORT } from '../../playwright.config';
import type { CapturedMail } from './mail-server';

export const ADMIN = { email: 'admin@eventry.test', password: 'Admin123' };
export const USER_STATE = `.tmp/e2e-${E2E_APP_PORT}-user.json`;
export const ADMIN_STATE = `.tmp/e2e-${E2E_APP_PORT}-admin.json`;
export const USER = { email: 'e2e-user@eventry.test', password: 'Visitor123', firstName: 'Layla', lastName: 'Hassan' };

/** Every email the SMTP stand-in received so far. */
export async function receivedMail(): Promise<CapturedMail[]> {
  const res = await fetch(`http://127.0.0.1:${E2E_MAIL_HTTP_PORT}/messages`);
  return (await res.json()) as CapturedMail[];
}

/** Waits for an email to `to` whose subject matches, and returns it. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 20_000): Promise<CapturedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = (await receivedMail()).filter((m) => m.to.includes(to) && subject.test(m.subject)).at(-1);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No email to ${to} matching ${subject} within ${timeoutMs} ms`);
}

/** The first http(s) link in an email's text part. */
export function firstLink(mail: CapturedMail): string {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`No link in email "${mail.subject}"`);
  return match[0];
}

/** Holds every request matching `pattern` until the returned function is called (to see a page while it waits). */
export async function holdRequests(page: Page, pattern: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * An event made through the admin API (`request` signed in as the admin); its id. Unless given otherwise:
 * 10 EGP, 5 tickets, on sale from today, held tomorrow from 10:00 to 12:00.
 */
export async function createEventAsAdmin(
  request: APIRequestContext,
  fields: Partial<EventInput> & { title: string; imageUrl: string | undefined },
): Promise<string> {
  const created = await request.post('/api/admin/events', { data: eventForm(fields) });
  expect(created.status()).toBe(201);
  return (await created.json()).id as string;
}

/**
 * An event of the test's own, made by the admin through the API (so that no other test changes its tickets or its
 * waitlist): `days` ahead, 150 EGP, `tickets` of them, the cancellation fee given. `admin` is the organiser's
 * browser context; `close` deletes the event and closes it.
 */
export async function createOwnEvent(
  browser: Browser,
  baseURL: string | undefined,
  title: string,
  options: { tickets: string; days: number; fee?: string },
): Promise<{ admin: BrowserContext; id: string; title: string; close: () => Promise<void> }> {
  const admin = await browser.newContext({ baseURL, storageState: ADMIN_STATE });
  const { items } = (await (await admin.request.get('/api/events')).json()) as EventsPage;
  const fullTitle = `${title} ${Date.now().toString(36)}`;
  const id = await createEventAsAdmin(admin.request, {
    eventDate: addDays(todayIn('Africa/Cairo'), options.days),
    imageUrl: items[0]?.imageUrl,
    price: '150',
    tickets: options.tickets,
    cancellationFee: options.fee ?? '0',
    title: fullTitle,
  });
  return {
    admin,
    id,
    title: fullTitle,
    close: async () => {
      await admin.request.delete(`/api/admin/events/${id}`);
      await admin.close();
    },
  };
}

/** The admin form's fields of such an event (what createEventAsAdmin sends; PUT it back to edit the event). */
export function eventForm(fields: Partial<EventInput> & { title: string; imageUrl: string | undefined }) {
  const today = todayIn('Africa/Cairo');
  return {
    host: 'Host',
    location: 'Cairo',
    description: 'Soon gone.',
    price: '10',
    tickets: '5',
    startDate: today,
    endDate: today,
    eventDate: addDays(today, 1),
    startTime: '10:00',
    endTime: '12:00',
    ...fields,
  };
}

/** The sign-in page's address that comes back to `path` afterwards (the guards' ?redirect=), as a pattern. */
export function loginFor(path: string): RegExp {
  return new RegExp(`/login\\?redirect=${encodeURIComponent(path).replace(/[.*()]/g, '\\$&')}$`);
}

/** Pays on the payment page with the simulated processor's test card, and waits for the success page. */
export async function payWithTestCard(page: Page): Promise<void> {
  await page.getByRole('radio', { name: 'Card (test mode)' }).check();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \d+/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
}
