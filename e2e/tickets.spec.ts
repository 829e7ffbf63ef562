import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import jsQR from 'jsqr';
import sharp from 'sharp';
import type { EventsPage } from '../contracts/catalogue';
import { addDays, todayIn } from '../contracts/dates';
import { formatShortCode, type MyTicket } from '../contracts/tickets';
import { ADMIN_STATE, createEventAsAdmin, USER_STATE } from './support/fixtures';
import { expect, test } from './support/test';

test.use({ storageState: USER_STATE });

/** The text of the QR code an element shows, read from a screenshot of it as a phone's camera would. */
async function scanQr(element: Locator): Promise<string | undefined> {
  const { data, info } = await sharp(await element.screenshot())
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data;
}

/** axe-core's WCAG 2.1 A and AA violations on the page as it is now. */
async function violationsOn(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('two tickets bought through the pages show as two QR codes that scan to their signed codes, with the PDF and the calendar file', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const admin = await browser.newContext({ baseURL, storageState: ADMIN_STATE });
  const { items } = (await (await admin.request.get('/api/events')).json()) as EventsPage;
  const title = `Ticket Night ${Date.now().toString(36)}`;
  const id = await createEventAsAdmin(admin.request, {
    title,
    eventDate: addDays(todayIn('Africa/Cairo'), 200),
    imageUrl: items[0]?.imageUrl,
  });
  try {
    await page.goto(`/event-details/${id}/get-ticket`);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await expect(page.locator('output[aria-label="Quantity"]')).toHaveText('2');
    await page.getByRole('button', { name: /^Proceed to Pay/ }).click();
    await expect(page).toHaveURL(/\/payment\?booking=[0-9a-f-]{36}$/);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry date').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay \d+(\.\d+)? EGP$/ }).click();
    await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
    await page.getByRole('link', { name: 'View My Tickets' }).click();
    await expect(page).toHaveURL(/\/profile$/);

    const mine = (await (await page.request.get('/api/me/tickets')).json()).items as MyTicket[];
    const tickets = mine.filter((ticket) => ticket.eventId === id);
    expect(tickets.map((ticket) => ticket.number)).toEqual([1, 2]);

    const booking = page
      .getByRole('region', { name: 'Your Tickets' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 3, name: title }) });
    const list = booking.getByRole('list', { name: `Tickets for ${title}` });
    await expect(list.getByRole('img', { name: /^QR code of ticket \d of 2$/ })).toHaveCount(2);
    for (const ticket of tickets) {
      const qr = list.getByRole('img', { name: `QR code of ticket ${ticket.number} of 2` });
      const box = await qr.boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(240);
      expect(await scanQr(qr)).toBe(ticket.qr);
      const seat = list.getByRole('article', { name: `Ticket ${ticket.number} of 2` });
      await expect(seat.getByText(formatShortCode(ticket.code), { exact: true })).toBeVisible();
    }
    await page.screenshot({ path: testInfo.outputPath('profile-1280.png'), fullPage: true });
    expect(await violationsOn(page)).toEqual([]);

    // The PDF: one page per ticket.
    const downloading = page.waitForEvent('download');
    await booking.getByRole('link', { name: 'Download PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const pdf = await readFile((await download.path()) as string);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);

    // The calendar file answers text/calendar; Google Calendar gets the event through a link.
    const ics = await booking.getByRole('link', { name: 'Calendar file (.ics)' }).getAttribute('href');
    const calendar = await page.request.get(ics ?? '');
    expect(calendar.status()).toBe(200);
    expect(calendar.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    expect(await calendar.text()).toContain(`SUMMARY:${title}`);
    const google = new URL((await booking.getByRole('link', { name: 'Google Calendar' }).getAttribute('href')) ?? '');
    expect(google.origin + google.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(google.searchParams.get('text')).toBe(title);
    expect(google.searchParams.get('dates')).toMatch(/^\d{8}T\d{6}Z\/\d{8}T\d{6}Z$/);

    // On a phone the tickets stay scannable, and the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const ticket of tickets) {
      const qr = list.getByRole('img', { name: `QR code of ticket ${ticket.number} of 2` });
      expect(await scanQr(qr)).toBe(ticket.qr);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: testInfo.outputPath('profile-390.png'), fullPage: true });
    expect(await violationsOn(page)).toEqual([]);
    // The row of tickets scrolls with the keyboard.
    await list.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => list.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  } finally {
    expect((await admin.request.delete(`/api/admin/events/${id}`)).status()).toBe(204);
    await admin.close();
  }
});
