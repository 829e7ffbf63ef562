import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, chromium } from '@playwright/test';
import sharp from 'sharp';
import { renderSVG } from 'uqr';
import type { EventsPage } from '../contracts/catalogue';
import { addDays, todayIn } from '../contracts/dates';
import type { MyTicket } from '../contracts/tickets';
import { E2E_APP_PORT } from '../playwright.config';
import { ADMIN_STATE, createEventAsAdmin } from './support/fixtures';
import { expect, test } from './support/test';

/**
 * The door: a buyer's tickets checked in on /admin/check-in by a fake camera showing the ticket's QR, by the
 * short code typed in 'Ticket code', and offline (admitted on the device, queued, sent when the network is back).
 */

test.use({ storageState: ADMIN_STATE });

const WORK = path.resolve(`.tmp/e2e-${E2E_APP_PORT}-check-in`);

let eventId = '';
let eventTitle = '';
let tickets: MyTicket[] = [];
let buyer: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  const origin = { origin: baseURL as string };
  const admin = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE, extraHTTPHeaders: origin });
  const events = (await (await admin.get('/api/events')).json()) as EventsPage;
  eventTitle = `Door night ${Date.now()}`;
  eventId = await createEventAsAdmin(admin, {
    title: eventTitle,
    imageUrl: events.items[0]?.imageUrl,
    tickets: '5',
    eventDate: addDays(todayIn('Africa/Cairo'), 200),
  });
  await admin.dispose();

  buyer = await playwright.request.newContext({ baseURL, extraHTTPHeaders: origin });
  const signedUp = await buyer.post('/api/auth/sign-up/email', {
    data: { firstName: 'Nour', lastName: 'Sami', email: `door-${Date.now()}@eventry.test`, password: 'Journey1' },
  });
  expect(signedUp.ok()).toBe(true);
  const reserved = await buyer.post('/api/bookings', {
    headers: { 'idempotency-key': crypto.randomUUID() },
    data: { eventId, quantity: 3 },
  });
  expect(reserved.status()).toBe(201);
  const { id } = await reserved.json();
  const paid = await buyer.post('/api/payments/simulated/confirm', {
    data: { bookingId: id, cardNumber: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' },
  });
  expect(paid.status()).toBe(200);
  tickets = ((await (await buyer.get('/api/me/tickets')).json()).items as MyTicket[]).filter(
    (ticket) => ticket.eventId === eventId,
  );
  expect(tickets).toHaveLength(3);
});

test.afterAll(async () => {
  await buyer?.dispose();
});

async function statusOf(ticketId: string): Promise<string | undefined> {
  const items = (await (await buyer.get('/api/me/tickets')).json()).items as MyTicket[];
  return items.find((ticket) => ticket.id === ticketId)?.status;
}

/**
 * A one-second video of the QR for Chromium's fake camera, looped by Chromium: a Y4M file (4:2:0), written here
 * from the QR's grey pixels (luma only; neutral chroma), so the tests need no video tool.
 */
async function qrVideo(text: string): Promise<string> {
  mkdirSync(WORK, { recursive: true });
  const y4m = path.join(WORK, 'qr.y4m');
  const size = 480;
  const luma = await sharp(Buffer.from(renderSVG(text, { border: 4 })))
    .resize(size, size, { kernel: 'nearest' })
    .flatten({ background: '#fff' })
    .greyscale()
    .raw()
    .toBuffer();
  const chroma = Buffer.alloc((size / 2) * (size / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const frames = 10;
  writeFileSync(
    y4m,
    Buffer.concat([
      Buffer.from(`YUV4MPEG2 W${size} H${size} F${frames}:1 Ip A1:1 C420jpeg\n`),
      ...Array(frames).fill(frame),
    ]),
  );
  return y4m;
}

test('a fake camera showing a ticket’s QR admits it, and the next scan says it is already checked in', async ({
  baseURL,
}) => {
  const ticket = tickets[0] as MyTicket;
  const video = await qrVideo(ticket.qr);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const context = await browser.newContext({ baseURL, storageState: ADMIN_STATE });
    await context.grantPermissions(['camera']);
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    page.on('request', (request) => {
      if (!request.url().startsWith(baseURL as string)) failed.push(`outside: ${request.url()}`);
    });
    await page.goto('/admin/check-in');
    await page.getByRole('link', { name: eventTitle, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Check-in: ${eventTitle}`);
    await page.getByRole('button', { name: 'Scan with the camera' }).click();

    const last = page.getByTestId('last-scan');
    await expect(last).toContainText('Admitted', { timeout: 20_000 });
    await expect(last).toContainText('Nour Sami');
    await expect(last).toContainText('Ticket 1 of 3');
    // The QR stays in front of the camera: after a pause it is read again, and refused.
    await expect(last).toContainText(/Already checked in at \d\d:\d\d by Eventry Admin/, { timeout: 15_000 });
    // Screen readers hear each answer.
    await expect(page.locator('[aria-live="assertive"]')).toContainText('Already checked in at');
    expect(await statusOf(ticket.id)).toBe('checked_in');
    // The decoder's WebAssembly came from this server, like everything else.
    expect(failed).toEqual([]);
    await context.close();
  } finally {
    await browser.close();
  }
});

test('typing a ticket’s short code in Ticket code admits it', async ({ page }) => {
  const ticket = tickets[1] as MyTicket;
  await page.goto(`/admin/event/${eventId}/check-in`);
  const field = page.getByLabel('Ticket code');
  await field.fill(`${ticket.code.slice(0, 5).toLowerCase()}-${ticket.code.slice(5)}`);
  await field.press('Enter');
  const last = page.getByTestId('last-scan');
  await expect(last).toContainText('Admitted');
  await expect(last).toContainText('Ticket 2 of 3');
  await expect(field).toHaveValue('');
  await expect(field).toBeFocused();
  // A code that names nothing answers at once, and the page takes the next one.
  await field.fill('NOT-A-TICKET');
  await field.press('Enter');
  await expect(last).toContainText('Unknown ticket');
  expect(await statusOf(ticket.id)).toBe('checked_in');
});

test('offline, a scan is admitted on the device and queued, then sent when the network is back', async ({
  page,
  context,
}) => {
  const ticket = tickets[2] as MyTicket;
  await page.goto(`/admin/event/${eventId}/check-in`);
  await expect(page.getByText('3 tickets kept on this device for offline use')).toBeVisible();
  // The door staff has the page open for a moment before the network goes.
  const field = page.getByLabel('Ticket code');
  await field.click();
  await page.waitForLoadState('networkidle');

  await context.setOffline(true);
  await field.fill(ticket.code);
  await field.press('Enter');
  const last = page.getByTestId('last-scan');
  await expect(last).toContainText('Admitted');
  await expect(last).toContainText('Ticket 3 of 3');
  await expect(page.getByText('Offline — 1 scan waiting')).toBeVisible();
  // Offline too, a ticket admitted before is refused.
  await field.fill(tickets[1]?.code as string);
  await field.press('Enter');
  await expect(last).toContainText('Already checked in');
  expect(await statusOf(ticket.id)).toBe('valid');

  // Back online, but the sync does not get through yet: the scan keeps waiting, across a reload too.
  await page.route('**/sync', (route) => route.abort('internetdisconnected'));
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByText(/1 scan waiting/)).toBeVisible();
  expect(await statusOf(ticket.id)).toBe('valid');

  // The network is back: the retry sends it, and the server has it checked in.
  await page.unroute('**/sync');
  await expect(page.getByText(/scans? waiting|Sending/)).toHaveCount(0, { timeout: 20_000 });
  await expect.poll(() => statusOf(ticket.id)).toBe('checked_in');
  await expect(page.getByTestId('checked-in-count')).toHaveText('3', { timeout: 15_000 });
});

test('the admin gives a user the door on the door staff page; that user finds Check-in in their account menu and nothing else of the admin', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `staff-${Date.now()}@eventry.test`;
  const staff = await browser.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL as string } });
  const signedUp = await staff.request.post('/api/auth/sign-up/email', {
    data: { firstName: 'Karim', lastName: 'Nabil', email, password: 'Journey1' },
  });
  expect(signedUp.ok()).toBe(true);

  await page.goto(`/admin/event/${eventId}/check-in`);
  await page.getByRole('link', { name: 'Door staff' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Door staff');
  await page.getByLabel('Email').fill('nobody@eventry.test');
  await page.getByRole('button', { name: 'Add to the door staff' }).click();
  await expect(page.getByText('No account has this email. Ask them to sign up first.')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Add to the door staff' }).click();
  await expect(page.getByRole('status')).toHaveText(`${email} may now check tickets in at this event`);
  await expect(page.getByText('Karim Nabil')).toBeVisible();

  const door = await staff.newPage();
  await door.goto('/');
  // Their way to the door is in their account menu (a chunk visitors never load).
  await door.getByRole('button', { name: 'Account menu' }).click();
  await door.getByRole('menuitem', { name: 'Check-in' }).click();
  await expect(door).toHaveURL(/\/admin\/check-in$/);
  await door.getByRole('link', { name: eventTitle, exact: true }).click();
  await expect(door.getByRole('heading', { level: 1 })).toHaveText(`Check-in: ${eventTitle}`);
  await expect(door.getByRole('link', { name: 'Door staff' })).toHaveCount(0);
  // The admin area stays closed to them.
  await door.goto('/admin');
  await expect(door).toHaveURL(/\/$/);

  await page.getByRole('button', { name: 'Remove Karim Nabil from the door staff' }).click();
  await expect(page.getByText('Nobody is on the door staff of this event yet.')).toBeVisible();
  await staff.close();
});
