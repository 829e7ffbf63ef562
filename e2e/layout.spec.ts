import type { Locator } from '@playwright/test';
import type { EventsPage } from '../contracts/catalogue';
import { addDays, todayIn } from '../contracts/dates';
import { ADMIN_STATE, createEventAsAdmin, USER_STATE } from './support/fixtures';
import { expect, type Page, test } from './support/test';

/**
 * Titles, descriptions, hosts and places are typed by admins: a word may be longer than a phone is wide
 * (a German compound, a URL). Every page that shows an event keeps to the screen's width, and shows that
 * text whole, wrapped, at each of these widths.
 */
const WIDTHS = [320, 390, 768, 1280];

const run = Date.now().toString(36);
const word = `Donaudampfschifffahrtsgesellschaftskapitänswitwenrentenversicherung${run}`;
const title = `${word} Gala`;
const description = `Details: https://example.com/${'long-path-segment-'.repeat(6)}end?ref=${run} and ${'x'.repeat(113)}.`;
const host = `${word}Hosts`;
const location = `https://maps.example.com/place/${'a'.repeat(90)}`;

test.use({ storageState: USER_STATE });

/**
 * At each width: the page is no wider than the screen, and each part lies inside the screen with nothing of
 * it cut off by its own box (a word running past a heading's edge, hidden by a card or a banner).
 */
async function expectToFit(page: Page, parts: Locator[], widths = WIDTHS) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth, `the page's width on a ${width}px screen`).toBeLessThanOrEqual(width);
    for (const part of parts) {
      // A page reached by a link may still be loading its chunk or data: wait for the part, then measure it.
      await expect(part, `${part} at ${width}px`).toBeVisible();
      // A page that draws again as its data arrives may replace the part between two reads: the box measured is
      // the one the poll found (a second read could fall between the old part and the new one).
      const seen: { box: Awaited<ReturnType<Locator['boundingBox']>> } = { box: null };
      await expect
        .poll(async () => (seen.box = await part.boundingBox()), { message: `${part} is shown at ${width}px` })
        .not.toBeNull();
      const { box } = seen;
      if (!box) throw new Error(`${part} is not shown at ${width}px`);
      expect(box.x, `${part}'s left edge at ${width}px`).toBeGreaterThanOrEqual(0);
      expect(Math.floor(box.x + box.width), `${part}'s right edge at ${width}px`).toBeLessThanOrEqual(width);
      const cut = await part.evaluate((element) => element.scrollWidth - element.clientWidth);
      expect(cut, `what runs past ${part}'s own edge at ${width}px`).toBeLessThanOrEqual(0);
    }
  }
}

test('an event whose title, description, host and place hold very long words fits every page it appears on', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await browser.newContext({ baseURL, storageState: ADMIN_STATE });
  const today = todayIn('Africa/Cairo');
  const { items } = (await (await admin.request.get('/api/events')).json()) as EventsPage;
  // Tomorrow just after midnight: the first event, so the home banner shows it too.
  const id = await createEventAsAdmin(admin.request, {
    title,
    host,
    location,
    description,
    price: '10',
    tickets: '20',
    eventDate: addDays(today, 1),
    startTime: '00:01',
    endTime: '23:59',
    imageUrl: items[0]?.imageUrl,
  });

  try {
    await page.goto('/');
    await expect(page.locator('#banner-title')).toHaveText(title);
    await expectToFit(page, [page.locator('#banner-title'), page.getByRole('heading', { level: 3, name: title })]);

    await page.goto(`/events-page/all?q=${encodeURIComponent(word.slice(0, 20))}`);
    await expectToFit(page, [page.getByRole('heading', { level: 3, name: title })]);

    // The header's search lists it (in the menu on a phone).
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      if (width < 768) await page.getByRole('button', { name: 'Open menu' }).click();
      const search = page.locator('header').getByRole('searchbox', { name: 'Search events' }).filter({ visible: true });
      await search.fill(word.slice(0, 20));
      const hit = page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: title });
      await expectToFit(page, [hit, hit.locator('span')], [width]);
      await page.keyboard.press('Escape');
    }

    await page.goto(`/event-details/${id}`);
    const book = page.getByRole('complementary');
    await expectToFit(page, [
      page.getByRole('heading', { level: 1, name: title }),
      page.getByText(`Hosted by ${host}`),
      page.getByText(location),
      page.getByText(description),
      book.getByRole('heading', { name: 'Book a Ticket' }),
      book.getByText(/^\w{3} \d{1,2}, \d{4}$/),
      book.getByText(/^\d\d:\d\d [AP]M$/),
      book.getByRole('link', { name: '10 EGP' }),
    ]);

    await book.getByRole('link', { name: '10 EGP' }).click();
    await expect(page).toHaveURL(/\/get-ticket$/);
    const proceed = page.getByRole('button', { name: 'Proceed to Pay 10 EGP' });
    await expectToFit(page, [page.getByRole('heading', { level: 1, name: title }), proceed]);

    await proceed.click();
    await expect(page).toHaveURL(/\/payment\?booking=/);
    const pay = page.getByRole('button', { name: 'Pay 10 EGP' });
    await expectToFit(page, [page.getByText(title, { exact: true }), pay]);

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry date').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await pay.click();
    await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible();
    await expectToFit(page, [page.getByRole('link', { name: 'Back To Event' })]);

    await page.goto('/profile');
    await expectToFit(page, [
      page.getByRole('region', { name: 'Your Tickets' }).getByRole('heading', { level: 3, name: title }),
    ]);
  } finally {
    // Other journeys read the first events of the lists.
    expect((await admin.request.delete(`/api/admin/events/${id}`)).status()).toBe(204);
    await admin.close();
  }
});
