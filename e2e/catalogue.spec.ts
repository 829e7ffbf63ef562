import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { EventsPage } from '../contracts/catalogue';
import { EVENTS_PAGE_SIZE, HEADER_SEARCH_LIMIT } from '../contracts/constants';
import { addDays, todayIn } from '../contracts/dates';
import { E2E_APP_PORT } from '../playwright.config';
import { holdRequests, USER_STATE } from './support/fixtures';
import { expect, test } from './support/test';

/**
 * The catalogue journeys. Extra events are inserted straight into the server's embedded
 * database (its Unix socket lives in the e2e data folder), with capacity = tickets available.
 */

const dataDir = path.resolve(`.tmp/e2e-${E2E_APP_PORT}`);
const run = Date.now().toString(36);
const today = todayIn('Africa/Cairo');

function database(): pg.Client {
  return new pg.Client({
    host: path.join(dataDir, 'postgres'),
    port: 5432,
    user: 'postgres',
    password: readFileSync(path.join(dataDir, '.postgres-password'), 'utf8').trim(),
    database: 'eventry',
  });
}

async function insertEvent(
  db: pg.Client,
  e: { title: string; categoryId: string; inDays: number; pricePiasters?: number; capacity?: number },
): Promise<string> {
  const eventDate = addDays(today, e.inDays);
  const capacity = e.capacity ?? 80;
  const res = await db.query<{ id: string }>(
    `INSERT INTO events (title, host, location, description, price_piasters, capacity, tickets_available,
       start_date, end_date, event_date, start_time, end_time, image_url, category_id)
     VALUES ($1, 'E2E Hosts', 'Garden City, Cairo', $2, $3, $4, $4, $5, $6, $6, '18:00', '21:30',
       (SELECT image_url FROM events ORDER BY created_at LIMIT 1), $7)
     RETURNING id`,
    [
      e.title,
      `${e.title}: an evening put on by the end-to-end tests.`,
      e.pricePiasters ?? 12_000,
      capacity,
      today,
      eventDate,
      e.categoryId,
    ],
  );
  return res.rows[0]?.id as string;
}

let db: pg.Client;

async function activeCount(categoryId: string): Promise<number> {
  const res = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM events WHERE category_id = $1 AND NOT is_deleted',
    [categoryId],
  );
  return Number(res.rows[0]?.n ?? 0);
}

test.beforeAll(async () => {
  db = database();
  await db.connect();
  // 'Other' gets 8 more events, far in the future (so they come last): at least two pages of six.
  // A retried worker runs this again, so only once per database.
  const seeded = await db.query("SELECT 1 FROM events WHERE title LIKE 'Zz Gathering %'");
  if (seeded.rowCount === 0) {
    for (let i = 1; i <= 8; i++) {
      await insertEvent(db, { title: `Zz Gathering ${i}`, categoryId: 'other', inDays: 3000 + i });
    }
  }
});

test.afterAll(async () => {
  await db?.end();
});

test('home shows the banner, and skeletons for the events for its first second', async ({ page }) => {
  await page.goto('/events-page/all');
  const banner = page.locator('section[aria-labelledby="banner-title"]');
  // Timed in the page, from the click to the end of the skeleton's (CSS) time: a busy test runner that
  // looks late cannot miss it, nor see it shorter than it was.
  await page.evaluate(() => {
    const w = window as unknown as { skeletonShownMs?: number };
    let clickedAt = 0;
    document.addEventListener('click', () => (clickedAt ||= performance.now()), { capture: true });
    document.addEventListener('animationend', (event) => {
      if ((event.target as Element).classList.contains('reveal-skeleton')) {
        w.skeletonShownMs ??= performance.now() - clickedAt;
      }
    });
  });
  await page.getByRole('link', { name: 'Home', exact: true }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(banner.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3 }).first()).toBeVisible();
  // The skeleton fades out by opacity (index.css: a change that restyles one element, not the grid).
  await expect(page.locator('.reveal-skeleton').first()).toHaveCSS('opacity', '0');
  await expect(page.locator('.reveal-content').first()).toHaveCSS('opacity', '1');
  const shownMs = await page.evaluate(() => (window as unknown as { skeletonShownMs?: number }).skeletonShownMs);
  expect(shownMs).toBeGreaterThanOrEqual(950);
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(6);
});

test('while the home grid shows its placeholders they take the clicks, and a keyboard user sees the cards', async ({
  page,
}) => {
  // The page's animations held still, so the placeholders' second never ends during the test.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Animation.enable');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 0 });
  await page.goto('/');
  const skeleton = page.locator('.reveal-skeleton');
  const content = page.locator('.reveal-content');
  await expect(skeleton).toHaveCSS('opacity', '1');
  await expect(content).toHaveCSS('opacity', '0');
  // A click on a placeholder lands on the placeholder, not on the event card hidden beneath it.
  const card = content.locator('a[href^="/event-details/"]').first();
  await card.scrollIntoViewIfNeeded();
  const box = await card.boundingBox();
  if (!box) throw new Error('the first card has no box');
  const hit = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('.reveal-skeleton, .reveal-content')?.className ?? '',
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
  expect(hit).toContain('reveal-skeleton');
  // Tabbing onto a card shows the cards at once: the focus is never on something unseen.
  await card.focus();
  await expect(content).toHaveCSS('opacity', '1');
  await expect(skeleton).toHaveCSS('opacity', '0');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 1 });
});

test('home → See More → a category → next page → a card → the event detail', async ({ page }) => {
  await page.goto('/');
  // The banner (with its own header) shows the first event; six cards; 'See More'.
  await expect(page.getByRole('link', { name: 'Eventry' })).toBeVisible();
  const banner = page.locator('section[aria-labelledby="banner-title"]');
  await expect(banner.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(6);
  await expect(page.getByRole('contentinfo')).toHaveCount(0);

  await page.getByRole('link', { name: 'See More' }).click();
  await expect(page).toHaveURL(/\/events-page\/all$/);
  await expect(page.getByRole('link', { name: 'All', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('contentinfo')).toBeVisible();

  // The address carries the category's name, URL-encoded.
  const pills = page.getByRole('navigation', { name: 'Categories' });
  await pills.getByRole('link', { name: 'Food & Drink' }).click();
  await expect(page).toHaveURL(/\/events-page\/Food%20%26%20Drink$/);
  await expect(page.getByRole('heading', { name: 'Food & Drink', level: 1 })).toBeVisible();
  await expect(pills.getByRole('link', { name: 'Food & Drink' })).toHaveAttribute('aria-current', 'page');
  await expect(pills.getByRole('link', { name: 'All', exact: true })).not.toHaveAttribute('aria-current', 'page');

  await pills.getByRole('link', { name: 'Other' }).click();
  await expect(page).toHaveURL(/\/events-page\/Other$/);
  await expect(page.getByRole('heading', { name: 'Other', level: 1 })).toBeVisible();
  await expect(pills.getByRole('link', { name: 'Other' })).toHaveAttribute('aria-current', 'page');
  const pageCount = Math.ceil((await activeCount('other')) / 6);
  expect(pageCount).toBeGreaterThanOrEqual(2);
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(6);
  await expect(page.getByText(`Page 1 of ${pageCount}`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Previous' })).toHaveCount(0);

  // Next is at the bottom of the list; the next page is read from its top.
  await page.getByRole('link', { name: 'Next' }).scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/events-page\/Other\?page=2$/);
  await expect(page.getByText(`Page 2 of ${pageCount}`)).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  // The address is the view: a refresh keeps page 2, Back returns to page 1.
  await page.reload();
  await expect(page.getByText(`Page 2 of ${pageCount}`)).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/events-page\/Other$/);
  await expect(page.getByText(`Page 1 of ${pageCount}`)).toBeVisible();
  await page.goForward();
  await expect(page.getByText(`Page 2 of ${pageCount}`)).toBeVisible();

  const card = page.getByRole('heading', { level: 3 }).first().getByRole('link');
  const title = (await card.textContent()) ?? '';
  await card.click();
  await expect(page).toHaveURL(/\/event-details\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /hosted by/);
  await expect(page.getByText(/^\d\d:\d\d [AP]M - \d\d:\d\d [AP]M$/)).toBeVisible();
  const book = page.getByRole('complementary');
  await expect(book.getByRole('heading', { name: 'Book a Ticket' })).toBeVisible();
  await expect(book.getByRole('link', { name: /^\d+(\.\d\d)? EGP$/ })).toHaveAttribute(
    'href',
    /\/event-details\/[0-9a-f-]{36}\/get-ticket$/,
  );

  // The back button lines up with the page's content, not with the image's edge.
  const back = page.getByRole('link', { name: 'Back to events' });
  const left = async (box: Promise<{ x: number } | null>) => Math.round((await box)?.x ?? -1);
  expect(await left(back.boundingBox())).toBe(await left(page.getByRole('heading', { level: 1 }).boundingBox()));
  await back.click();
  await expect(page).toHaveURL(/\/events-page\/all$/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Browse all events/);

  // A page without a description of its own shows the site's default, not the previous page's.
  await page.locator('header').getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    'Discover events near you and book tickets in seconds with Eventry.',
  );
});

test('the header search lists matching events, or says there is none', async ({ page }) => {
  await page.goto('/events-page/all');
  const search = page.getByRole('searchbox', { name: 'Search events' });
  await search.fill('cairo j');
  const hit = page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: 'Cairo Jazz Night' });
  await expect(hit).toBeVisible();
  await expect(hit.locator('img')).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: /results?$/ })).toHaveText('1 result');
  // Escape from a result closes the list at once and gives the focus back to the field.
  await search.press('ArrowDown');
  await expect(hit).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(search).toBeFocused();
  await expect(hit).toBeHidden();
  await search.press('ArrowDown');
  await hit.click();
  await expect(page).toHaveURL(/\/event-details\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Cairo Jazz Night', level: 1 })).toBeVisible();

  await search.fill('no such event 100%_');
  await expect(page.getByText('There is no events with this title')).toBeVisible();
  await search.press('Escape');
  await expect(page.getByText('There is no events with this title')).toBeHidden();
});

test('a header search with more matches than it lists counts them all and leads to every one', async ({
  page,
  request,
}) => {
  // The demo catalogue has seven titles starting with 'c': one more than the dropdown lists.
  const titles: string[] = [];
  for (let n = 1, pages = 1; n <= pages; n++) {
    const list = (await (await request.get(`/api/events?q=c&page=${n}`)).json()) as EventsPage;
    pages = list.pageCount;
    titles.push(...list.items.map((event) => event.title));
  }
  expect(titles.length).toBeGreaterThan(HEADER_SEARCH_LIMIT);

  await page.goto('/events-page/all');
  await page.getByRole('searchbox', { name: 'Search events' }).fill('c');
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('link')).toHaveCount(HEADER_SEARCH_LIMIT);
  // The results' own status (the field's 'Searching' spinner is a status too while a request is out).
  await expect(
    page
      .locator('header')
      .getByRole('status')
      .filter({ hasText: /results$/ }),
  ).toHaveText(`${titles.length} results`);
  await page.getByRole('link', { name: `See all ${titles.length} results` }).click();

  // The events list searched for the same text holds every match, the one the dropdown left out included.
  await expect(page).toHaveURL(/\/events-page\/all\?q=c$/);
  await expect(page.getByText(`${titles.length} events`, { exact: true })).toBeVisible();
  await expect(results).toBeHidden();
  const shown: string[] = [];
  const cards = page.getByRole('heading', { level: 3 });
  for (let n = 1; n <= Math.ceil(titles.length / EVENTS_PAGE_SIZE); n++) {
    if (n > 1) await page.getByRole('link', { name: 'Next' }).click();
    await expect(page.getByText(`Page ${n} of`)).toBeVisible();
    shown.push(...(await cards.allTextContents()));
  }
  expect(shown.sort()).toEqual(titles.sort());
});

test('the header search is used from the keyboard on a page the server rendered', async ({ page }) => {
  await page.goto('/events-page/all');
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  // Hydration keeps the ids the server wrote (React does not correct attributes), so the browser must compute
  // the same ones (useId): every id, label and aria-controls in the page equals what React rendered for it.
  const differing = await page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.querySelectorAll('[id], [for], [aria-controls]')) {
      const key = Object.keys(element).find((k) => k.startsWith('__reactProps$'));
      if (!key) continue;
      const props = (element as unknown as Record<string, Record<string, unknown>>)[key] ?? {};
      for (const [attribute, prop] of [
        ['id', 'id'],
        ['for', 'htmlFor'],
        ['aria-controls', 'aria-controls'],
      ]) {
        const rendered = props[prop as string];
        const written = element.getAttribute(attribute as string);
        if (typeof rendered === 'string' && rendered !== written) found.push(`${attribute}: ${written} ≠ ${rendered}`);
      }
    }
    return found;
  });
  expect(differing).toEqual([]);
  const search = page.getByRole('searchbox', { name: 'Search events' });
  await search.fill('cairo j');
  const hit = page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: 'Cairo Jazz Night' });
  await expect(hit).toBeVisible();
  await search.press('ArrowDown');
  await expect(hit).toBeFocused();
  await hit.press('ArrowUp');
  await expect(search).toBeFocused();
  // Tabbing on past the results closes them: they no longer cover the page.
  await search.press('Tab');
  await expect(hit).toBeFocused();
  await hit.press('Tab');
  await expect(hit).toBeHidden();
});

test('text typed in the header search before the page has hydrated is searched for once it has', async ({ page }) => {
  // The app's code (the boot chunk) waits while the visitor types into the field the server rendered.
  const release = await holdRequests(page, '**/assets/boot-*.js');
  await page.goto('/', { waitUntil: 'commit' });
  const search = page.getByRole('searchbox', { name: 'Search events' });
  await search.pressSequentially('cairo j');
  await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
  release();
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  const hit = page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: 'Cairo Jazz Night' });
  await expect(hit).toBeVisible();
  await expect(search).toHaveValue('cairo j');
  await expect(search).toBeFocused();
});

test('an unknown category shows No Events, and a malformed event id the 404 page', async ({ page }) => {
  // The server says so too (crawlers and link checkers see a 404, not a page that is empty by chance).
  expect((await page.goto('/events-page/no-such-category'))?.status()).toBe(404);
  await expect(page.getByText('No Events', { exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
  // The address's word is not presented as a category: the page says there is none, and where to go.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Category not found');
  await expect(page).toHaveTitle(/^Category not found/);
  await expect(page.getByText('There is no “no-such-category” category.')).toBeVisible();
  await page.getByRole('link', { name: 'see all events' }).click();
  await expect(page).toHaveURL(/\/events-page\/all$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('All events');

  await page.goto('/events-page/all?page=999');
  await expect(page).toHaveURL(/\/events-page\/all\?page=\d$/);

  expect((await page.goto('/event-details/not-an-id'))?.status()).toBe(404);
  await expect(page).toHaveURL(/\/404$/);
  expect((await page.goto('/event-details/00000000-0000-4000-8000-000000000000'))?.status()).toBe(404);
  await expect(page).toHaveURL(/\/404$/);
});

test('moving to another page puts the focus on its heading; a control that stays keeps it', async ({ page }) => {
  await page.goto('/events-page/all');
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  // A category pill stays on the page when the list changes: the keyboard user goes on from it.
  const music = page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Music', exact: true });
  await music.focus();
  await music.press('Enter');
  await expect(page).toHaveURL(/\/events-page\/Music$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Music');
  await expect(music).toBeFocused();
  // A card leads away and is gone: the new page's heading takes the focus, and is read first.
  const card = page.locator('a[href^="/event-details/"]').first();
  await card.focus();
  await card.press('Enter');
  await expect(page).toHaveURL(/\/event-details\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
});

test('after Next or Previous from the keyboard, the focus starts at the new page’s results', async ({ page }) => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto('/events-page/all');
    await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
    const next = page.getByRole('link', { name: 'Next' });
    await next.focus();
    await next.press('Enter');
    await expect(page).toHaveURL(/\/events-page\/all\?page=2$/);
    await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    // Not left on Next, far below the view: the results' heading has it, and Tab goes on to the first card.
    await expect(page.getByRole('heading', { name: 'Events', level: 2 })).toBeFocused();
    await page.keyboard.press('Tab');
    const first = page.getByRole('heading', { level: 3 }).first().getByRole('link');
    await expect(first).toBeFocused();
    await expect(first).toBeInViewport();
    await page.getByRole('link', { name: 'Previous' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/events-page\/all$/);
    await expect(page.getByRole('heading', { name: 'Events', level: 2 })).toBeFocused();
  }
});

test('a reload keeps the place the reader had scrolled to', async ({ page }) => {
  await page.goto('/events-page/all');
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);
  await page.reload();
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  // The browser restores the position; React taking over the page (whose effects have run once it marks
  // itself hydrated) must not send it back to the top.
  expect(await page.evaluate(() => window.scrollY)).toBe(400);
});

test('the list and the detail update live when an event changes', async ({ page }) => {
  const tag = `${run}${Math.random().toString(36).slice(2, 6)}`;
  const title = `Zz ${tag} Live Show`;
  const id = await insertEvent(db, { title, categoryId: 'arts', inDays: 300, capacity: 50 });
  await page.goto(`/event-details/${id}`);
  await expect(page.getByTestId('tickets-available')).toHaveText('50');
  await db.query(
    'UPDATE events SET tickets_available = 42, price_piasters = 9900, version = version + 1 WHERE id = $1',
    [id],
  );
  await expect(page.getByTestId('tickets-available')).toHaveText('42');
  await expect(page.getByRole('complementary').getByRole('link', { name: '99 EGP' })).toBeVisible();
  // Sold out: the panel says so instead of leading to a ticket page with nothing to choose.
  await db.query('UPDATE events SET tickets_available = 0, version = version + 1 WHERE id = $1', [id]);
  await expect(page.getByRole('complementary').getByRole('button', { name: '99 EGP · Sold out' })).toBeDisabled();
  await expect(page.getByRole('complementary').getByRole('link', { name: '99 EGP' })).toHaveCount(0);

  // Only this test's events (a retry adds more): the new one must appear on this very page.
  await page.goto(`/events-page/arts?q=${encodeURIComponent(`Zz ${tag}`)}`);
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  const added = `Zz ${tag} Late Addition`;
  await insertEvent(db, { title: added, categoryId: 'arts', inDays: 301 });
  await expect(page.getByRole('link', { name: added })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the hamburger opens the link menu', async ({ page }) => {
    await page.goto('/events-page/all');
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Home' })).toBeVisible();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
    // Escape closes it and gives the focus back to its button, not to the page's body.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Home' }).focus();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Hosting an Event?' }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(menu).toBeHidden();
  });

  test('the list has its own search box that resets the page', async ({ page }) => {
    await page.goto('/events-page/other?page=2');
    await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    const search = page.getByRole('searchbox', { name: 'Search events' });
    await expect(search).toBeVisible();
    await search.fill('zz gathering 1');
    await expect(page).toHaveURL(/\/events-page\/other\?q=zz\+/i);
    await expect(page).not.toHaveURL(/page=/);
    await expect(page.getByRole('heading', { level: 3 })).toHaveCount(1);
    await search.fill('nothing starts like this');
    await expect(page.getByText('No Events', { exact: true })).toBeVisible();
    // The search matches the start of titles, and says so on a phone too.
    await expect(page.getByText('Titles starting with “nothing starts like this”')).toBeVisible();
    await page.getByRole('link', { name: 'Clear search' }).click();
    await expect(page).toHaveURL(/\/events-page\/other$/);
    await expect(search).toHaveValue('');
  });

  test('the scroll-to-top button never covers the pagination', async ({ page }) => {
    await page.goto('/events-page/all');
    await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
    const button = page.getByRole('button', { name: 'Scroll to top' });
    const next = page.getByRole('link', { name: 'Next' });
    await page.mouse.wheel(0, 600);
    await expect(button).toBeVisible();
    // Next's bottom edge this far above the screen's, from just inside it to past the button's corner, then
    // the page's very end: Next's own right-hand part is what a tap there reaches.
    for (const above of [2, 20, 40, 60, 90, 400]) {
      await next.evaluate((element, above) => {
        window.scrollBy(0, element.getBoundingClientRect().bottom - window.innerHeight + above);
      }, above);
      await expect
        .poll(
          () =>
            next.evaluate((element) => {
              const box = element.getBoundingClientRect();
              return element.contains(document.elementFromPoint(box.right - 6, box.top + box.height / 2));
            }),
          { message: `Next ${above}px above the screen's bottom edge` },
        )
        .toBe(true);
    }
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(button).toBeVisible();
  });

  test.describe('signed in', () => {
    test.use({ storageState: USER_STATE });

    test('the account menu and the link menu are never open together', async ({ page }) => {
      await page.goto('/events-page/all');
      const links = page.getByRole('navigation', { name: 'Mobile' });
      const account = page.getByRole('menu', { name: 'Account' });
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(links).toBeVisible();
      await page.getByRole('button', { name: 'Account menu' }).click();
      await expect(account).toBeVisible();
      await expect(links).toBeHidden();
      await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(links).toBeVisible();
      await expect(account).toHaveCount(0);
      // From the keyboard too.
      await page.getByRole('button', { name: 'Account menu' }).focus();
      await page.keyboard.press('ArrowDown');
      await expect(account).toBeVisible();
      await expect(links).toBeHidden();
    });
  });

  test('the scroll-to-top button appears after scrolling', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'See More' })).toBeVisible();
    const button = page.getByRole('button', { name: 'Scroll to top' });
    await expect(button).toHaveCount(0);
    await page.mouse.wheel(0, 1200);
    await expect(button).toBeVisible();
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(150);
  });
});
