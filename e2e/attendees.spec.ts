import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import { addDays, todayIn } from '../contracts/dates';
import type { MyTicket } from '../contracts/tickets';
import { ADMIN_STATE, createEventAsAdmin } from './support/fixtures';
import { expect, type Page, test } from './support/test';

/** Events of these tests come after the demo events in every list: other specs pick a list's first event. */
const FAR_AHEAD = addDays(todayIn('Africa/Cairo'), 200);

/**
 * The organiser's attendees page: from the admin list to the event's tickets, a search by code as typed at a
 * desk, the CSV, and the counts following the door without a reload; on a laptop and on a phone.
 */

test.use({ storageState: ADMIN_STATE });

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

async function violationsOn(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A buyer of this test's own, in a browser of their own, who pays `quantity` tickets: their tickets. */
async function buyerWithTickets(page: Page, baseURL: string, eventId: string, quantity: number): Promise<MyTicket[]> {
  const context = await page.context().browser()?.newContext({ baseURL });
  if (!context) throw new Error('no browser');
  const request = context.request;
  const headers = { origin: baseURL };
  const signedUp = await request.post('/api/auth/sign-up/email', {
    headers,
    data: {
      firstName: 'Nour',
      lastName: 'Attendee',
      email: `attendee-${Date.now()}@eventry.test`,
      password: 'Journey1',
    },
  });
  expect(signedUp.ok()).toBe(true);
  const reserved = await request.post('/api/bookings', {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: { eventId, quantity },
  });
  expect(reserved.status()).toBe(201);
  const { id } = await reserved.json();
  const paid = await request.post('/api/payments/simulated/confirm', {
    headers,
    data: { bookingId: id, cardNumber: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' },
  });
  expect(paid.status()).toBe(200);
  const tickets = (await (await request.get('/api/me/tickets')).json()).items as MyTicket[];
  await context.close();
  return tickets.filter((t) => t.bookingId === id);
}

for (const viewport of VIEWPORTS) {
  test(`the admin opens an event's attendees from the list, finds a ticket by its code and downloads the CSV (${viewport.width} px)`, async ({
    page,
    baseURL,
  }) => {
    // A buyer of its own, two searches, a wait for the poll and a download: over a minute on a busy machine.
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'teal' } })
      .png()
      .toBuffer();
    const upload = await page.request.post('/api/admin/uploads', {
      multipart: { file: { name: 'p.png', mimeType: 'image/png', buffer: png } },
    });
    const title = `E2E Attendees ${viewport.width} ${Date.now()}`;
    const eventId = await createEventAsAdmin(page.request, {
      title,
      imageUrl: (await upload.json()).url,
      eventDate: FAR_AHEAD,
    });
    const [first, second] = (await buyerWithTickets(page, baseURL as string, eventId, 2)) as [MyTicket, MyTicket];

    await page.goto(`/admin?q=${encodeURIComponent(title)}`);
    await page.getByRole('link', { name: `Attendees of ${title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/event/${eventId}/attendees$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Attendees' })).toBeVisible();
    await expect(page.getByText(title)).toBeVisible();
    const counts = page.getByRole('region', { name: 'Counts' });
    await expect(counts.getByRole('definition').first()).toHaveText('2');
    await expect(page.getByText('Nour Attendee').filter({ visible: true })).toHaveCount(2);
    expect(await violationsOn(page)).toEqual([]);

    // The code as someone reads it out at the desk: lower case, a dash in the middle.
    const typed = `${second.code.slice(0, 5).toLowerCase()}-${second.code.slice(5)}`;
    await page.getByLabel('Search attendees').fill(typed);
    await expect(page).toHaveURL(/q=/);
    const shown = page.getByText(`${second.code.slice(0, 5)}-${second.code.slice(5)}`).filter({ visible: true });
    await expect(shown).toHaveCount(1);
    await expect(
      page.getByText(`${first.code.slice(0, 5)}-${first.code.slice(5)}`).filter({ visible: true }),
    ).toHaveCount(0);
    await page.getByLabel('Search attendees').fill('nobody at all');
    await expect(page.getByText("No tickets match 'nobody at all'")).toBeVisible();
    await page.getByLabel('Search attendees').fill('');
    await expect(page.getByText('Nour Attendee').filter({ visible: true })).toHaveCount(2);

    // The door admits one: the page follows without a reload.
    const scan = await page.request.post('/api/check-in', {
      headers: { origin: baseURL as string },
      data: { eventId, code: first.qr },
    });
    expect((await scan.json()).outcome).toBe('admitted');
    await expect(counts.getByRole('definition').nth(1)).toHaveText('1, 50%', { timeout: 15_000 });
    await expect(page.getByText('by Eventry Admin').filter({ visible: true }).first()).toBeVisible();

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^attendees-\d{4}-\d\d-\d\d-e2e-attendees-\d+-\d+\.csv$/);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trim().split('\r\n');
    expect(lines[0]).toMatch(/^Name,Email,Code,Ticket,Status,/);
    expect(lines).toHaveLength(3);
    expect(lines.filter((line) => line.startsWith('Nour Attendee,'))).toHaveLength(2);
    expect(csv).toContain('Checked in');
  });
}

test('an unknown event is the 404 page', async ({ page }) => {
  await page.goto('/admin/event/00000000-0000-4000-8000-000000000000/attendees');
  await expect(page).toHaveURL(/\/404$/);
});

test('an event with no tickets sold says so', async ({ page }) => {
  const events = await (await page.request.get('/api/admin/events?q=E2E%20Empty')).json();
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'navy' } })
    .png()
    .toBuffer();
  const upload = await page.request.post('/api/admin/uploads', {
    multipart: { file: { name: 'p.png', mimeType: 'image/png', buffer: png } },
  });
  const eventId =
    events.items[0]?.id ??
    (await createEventAsAdmin(page.request, {
      title: `E2E Empty ${Date.now()}`,
      imageUrl: (await upload.json()).url,
      eventDate: FAR_AHEAD,
    }));
  await page.goto(`/admin/event/${eventId}/attendees`);
  await expect(page.getByText('No tickets sold yet')).toBeVisible();
});
