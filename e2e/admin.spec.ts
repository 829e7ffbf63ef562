import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { EventsPage } from '../contracts/catalogue';
import { addDays, todayIn } from '../contracts/dates';
import { ADMIN, ADMIN_STATE, createEventAsAdmin, holdRequests, loginFor } from './support/fixtures';
import { expect, type Page, test } from './support/test';

const today = todayIn('Africa/Cairo');
const title = `E2E Rooftop Concert ${Date.now()}`;

async function posterFile(name: string, color: { r: number; g: number; b: number }): Promise<string> {
  mkdirSync('.tmp', { recursive: true });
  const file = path.resolve('.tmp', name);
  await sharp({ create: { width: 800, height: 450, channels: 3, background: color } })
    .png()
    .toFile(file);
  return file;
}

/** Events made through the admin API (one uploaded picture for all), listed far in the future; their ids. */
async function createEvents(page: Page, titles: string[]): Promise<string[]> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'teal' } })
    .png()
    .toBuffer();
  const upload = await page.request.post('/api/admin/uploads', {
    multipart: { file: { name: 'p.png', mimeType: 'image/png', buffer: png } },
  });
  expect(upload.status()).toBe(201);
  const imageUrl = (await upload.json()).url;
  const ids: string[] = [];
  for (const title of titles) ids.push(await createEventAsAdmin(page.request, { title, imageUrl }));
  return ids;
}

test('the admin signs in and lands on the event list, with the admin header and no footer', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Event List' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Eventry' })).toHaveAttribute('href', '/admin');
  await expect(page.getByText('Eventry Admin')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
});

test.describe('as the admin', () => {
  test.use({ storageState: ADMIN_STATE });

  test('an admin opening a public page is sent to /admin by the server, before any of it is drawn', async ({
    page,
  }) => {
    const documents: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'document') return;
      const { pathname, search } = new URL(response.url());
      documents.push(`${response.status()} ${pathname}${search}`);
    });
    // /api/me waits: the browser cannot know the session is an admin's, so only the server can send it on.
    const release = await holdRequests(page, '**/api/me');
    await page.goto('/events-page/all');
    await expect(page).toHaveURL(/\/admin$/);
    expect(documents).toEqual(['302 /events-page/all', '200 /admin']);
    // While the session is being checked: the admin header's frame, no Login and no footer.
    await expect(page.locator('header').getByRole('link', { name: 'Eventry' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Login' })).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    release();
    await expect(page.getByRole('heading', { name: 'Event List' })).toBeVisible();

    const { items } = (await (await page.request.get('/api/events')).json()) as EventsPage;
    for (const path of ['/', `/event-details/${items[0]?.id}`, '/contact']) {
      documents.length = 0;
      await page.goto(path);
      await expect(page).toHaveURL(/\/admin$/);
      expect(documents).toEqual([`302 ${path}`, '200 /admin']);
    }

    // Moving to a public page within the app (as Back does), the browser's guard sends the admin on.
    documents.length = 0;
    await page.evaluate(() => {
      history.pushState(null, '', '/events-page/all');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Event List' })).toBeVisible();
    expect(documents).toEqual([]);
  });

  test('the header links the mailbox only where emails are kept instead of sent', async ({ page }) => {
    // These tests send over SMTP: no Mailbox link once the server has said so.
    const delivery = page.waitForResponse('**/api/admin/mailbox');
    await page.goto('/admin');
    await delivery;
    await expect(page.getByRole('heading', { name: 'Event List' })).toBeVisible();
    await expect(page.locator('header').getByRole('link', { name: 'Mailbox' })).toHaveCount(0);

    // Without SMTP_URL the server keeps emails in the mailbox, and the header links it.
    await page.route('**/api/admin/mailbox', (route) => route.fulfill({ json: { delivery: 'log', items: [] } }));
    await page.reload();
    await page.locator('header').getByRole('link', { name: 'Mailbox' }).click();
    await expect(page).toHaveURL(/\/admin\/mailbox$/);
    await expect(page.getByText('No emails yet.')).toBeVisible();
  });

  test('creates an event with an image, edits it and deletes it; the public follows', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    // A visitor in a separate, signed-out browser (admins are sent away from the public pages).
    const visitorContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const visitor = await visitorContext.newPage();

    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Event List' })).toBeVisible();
    await expect(page.getByRole('table')).toBeVisible();

    // Create, with every rule checked first.
    await page.getByRole('link', { name: 'Add Event' }).click();
    await expect(page).toHaveURL(/\/admin\/event\/new$/);
    await expect(page.getByRole('heading', { name: 'Create Event' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Event' }).click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expect(page.getByText('Image is required')).toBeVisible();
    await expect(page.getByText('Tickets is required')).toBeVisible();
    // The first field in error, the picture, takes the focus.
    await expect(page.getByLabel('Event image')).toBeFocused();

    await page.getByLabel('Event image').setInputFiles(await posterFile('e2e-poster.png', { r: 10, g: 160, b: 140 }));
    await expect(page.getByRole('img', { name: 'Event preview' })).toBeVisible();
    // A file that is not an image is refused, and the picture already there is said to be kept.
    await page
      .getByLabel('Event image')
      .setInputFiles({ name: 'not-a-picture.png', mimeType: 'image/png', buffer: Buffer.from('just text') });
    await expect(page.getByText(/The current image is kept\.$/)).toBeVisible();
    await expect(page.getByRole('img', { name: 'Event preview' })).toBeVisible();
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Host').fill('E2E Hosts');
    await page.getByLabel('Location').fill('Zamalek, Cairo');
    await page.getByLabel('Ticket price (EGP)').fill('abc');
    await expect(page.getByText('Price must be a number')).toBeVisible();
    await page.getByLabel('Ticket price (EGP)').fill('175.5');
    await expect(page.getByText('Price must be a number')).toHaveCount(0);
    await page.getByLabel('Number of tickets').fill('40');
    await page.getByLabel('Category').selectOption({ label: 'Music' });
    await page.getByLabel('Start date').fill(addDays(today, 1));
    await page.getByLabel('End date').fill(addDays(today, 3));
    await page.getByLabel('Event date').fill(addDays(today, 2));
    await expect(page.getByText('Event date must be the same as or after end date')).toBeVisible();
    await page.getByLabel('Event date').fill(addDays(today, 4));
    await page.getByLabel('Start time').fill('25:00');
    await expect(page.getByText('Invalid start time format')).toBeVisible();
    await page.getByLabel('Start time').fill('19:30');
    await page.getByLabel('End time').fill('23:00');
    await page.getByLabel('Description').fill('Live music on a Cairo rooftop, from sunset on.');
    // Three clicks in the same instant (before the button can be disabled) save one event.
    await page.getByRole('button', { name: 'Create Event' }).evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
      button.click();
    });
    await expect(page.getByText('Event added successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);
    const saved = await page.request.get(`/api/admin/events?q=${encodeURIComponent(title)}`);
    expect((await saved.json()).total).toBe(1);

    // Find it in the list by searching.
    await page.getByLabel('Search events by title').fill(title.slice(0, 20).toLowerCase());
    const row = page.getByRole('row', { name: new RegExp(title) });
    await expect(row).toBeVisible();
    await expect(row).toContainText('175.50 EGP');
    await expect(row).toContainText('07:30 PM');

    const editHref = await row.getByRole('link', { name: `Edit ${title}` }).getAttribute('href');
    const id = editHref?.split('/').pop() ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    // The public sees it.
    const publicEvent = await request.get(`/api/events/${id}`);
    expect(publicEvent.status()).toBe(200);
    expect(await publicEvent.json()).toMatchObject({ title, pricePiasters: 17550, ticketsAvailable: 40 });
    const image = await request.get((await publicEvent.json()).imageUrl);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toContain('image/webp');
    await visitor.goto(`/event-details/${id}`);
    await expect(visitor.getByRole('heading', { name: title })).toBeVisible();

    // Edit.
    await row.getByRole('link', { name: `Edit ${title}` }).click();
    await expect(page.getByRole('heading', { name: 'Edit Event' })).toBeVisible();
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(page.getByLabel('Ticket price (EGP)')).toHaveValue('175.5');
    await page.getByLabel('Title').fill(`${title} Edited`);
    await page.getByLabel('Number of tickets').fill('60');
    await page.getByLabel('Event image').setInputFiles(await posterFile('e2e-poster-2.png', { r: 200, g: 80, b: 20 }));
    await expect(page.getByRole('img', { name: 'Event preview' })).toBeVisible();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Event edited successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/admin/);
    const edited = await (await request.get(`/api/events/${id}`)).json();
    expect(edited).toMatchObject({ title: `${title} Edited`, capacity: 60, ticketsAvailable: 60 });

    // Delete: Escape closes the dialog first, and focus comes back to the button.
    await page.getByLabel('Search events by title').fill(title);
    const editedRow = page.getByRole('row', { name: new RegExp(`${title} Edited`) });
    await expect(editedRow).toBeVisible();
    const deleteButton = editedRow.getByRole('button', { name: `Delete ${title} Edited` });
    await deleteButton.click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Deletion:' });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('p')).toHaveText('Confirm Deletion: Are you sure you want to delete this item?');
    await expect(dialog).toHaveAccessibleDescription('Are you sure you want to delete this item?');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Delete' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(deleteButton).toBeFocused();

    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Event deleted successfully')).toBeVisible();
    await expect(editedRow).toHaveCount(0);
    await expect(page.getByText('There is no Events')).toBeVisible();

    // Gone for the public.
    expect((await request.get(`/api/events/${id}`)).status()).toBe(404);
    await visitor.goto(`/event-details/${id}`);
    await expect(visitor).toHaveURL(/\/404$/);
    await visitorContext.close();
  });

  test('a save after the session has ended goes to sign in, not to an error, and back to the form', async ({
    page,
  }) => {
    const [id] = await createEvents(page, [`Zz Session Ends ${Date.now()}`]);
    // The header's mailbox link asks for its count once its chunk is there, after the form shows: answered without
    // a session, it would end the session before the save does.
    const mailboxAsked = page.waitForResponse('**/api/admin/mailbox');
    await page.goto(`/admin/event/${id}`);
    const save = page.getByRole('button', { name: 'Save Changes' });
    await expect(save).toBeVisible();
    await mailboxAsked;
    await page.context().clearCookies();
    await save.click();
    await expect(page).toHaveURL(loginFor(`/admin/event/${id}`));
    await expect(page.getByText('Your session has ended. Sign in again.')).toBeVisible();
    await expect(page.getByText('Failed to edit event')).toHaveCount(0);

    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/event/${id}$`));
    await expect(save).toBeVisible();
    expect((await page.request.delete(`/api/admin/events/${id}`)).status()).toBe(204);
  });

  test('a delete the server refuses brings the row back with an error', async ({ page }) => {
    // Another admin deleted the event a moment before: the server answers 404 to our delete.
    const doomedTitle = `Zz Doomed ${Date.now()}`;
    const [id] = await createEvents(page, [doomedTitle]);

    await page.goto(`/admin?q=${encodeURIComponent(doomedTitle)}`);
    const row = page.getByRole('row', { name: new RegExp(doomedTitle) });
    await expect(row).toBeVisible();
    expect((await page.request.delete(`/api/admin/events/${id}`)).status()).toBe(204);

    await row.getByRole('button', { name: `Delete ${doomedTitle}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Failed to delete event')).toBeVisible();
    // Error toasts are dark red (web/src/app/toaster.tsx).
    await expect(page.locator('[data-sonner-toast][data-type="error"]').first()).toHaveCSS(
      'background-color',
      'rgb(127, 29, 29)',
    );
    await expect(page.getByRole('heading', { name: 'Event List' })).toBeFocused();
  });

  test('deleting the only row of a later page goes back to page 1, not to the new last page', async ({ page }) => {
    // 21 events: three pages, the third with one row; once it is deleted, the last page is page 2.
    const prefix = `Zz TwentyOne ${Date.now()}`;
    const titles = Array.from({ length: 21 }, (_, i) => `${prefix} ${String(i + 1).padStart(2, '0')}`);
    const ids = await createEvents(page, titles);
    const q = encodeURIComponent(prefix).replace(/%20/g, '+');
    await page.goto(`/admin?q=${q}&page=3`);
    const rows = page.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await rows
      .first()
      .getByRole('button', { name: new RegExp(`^Delete ${prefix}`) })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Event deleted successfully')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/admin\\?q=${q.replace(/\+/g, '\\+')}$`));
    await expect(rows).toHaveCount(10);
    // And it stays there: the list's own correction of a page past the end does not move it to the last page.
    await page.waitForTimeout(500);
    await expect(page).not.toHaveURL(/page=/);
    // Leave the public lists as the other journeys expect them.
    for (const id of ids) await page.request.delete(`/api/admin/events/${id}`);
  });

  test('at every width from a phone up, each row shows its edit link and delete button inside the table', async ({
    page,
  }) => {
    // A title of one long word: cut short in its column, it must not push the other columns out of the box.
    const prefix = `Zz Wide ${Date.now()}`;
    const title = `${prefix} Donaudampfschifffahrtsgesellschaftskapitänswitwenrentenversicherung Gala`;
    const [id] = await createEvents(page, [title]);
    // That event alone, then the first page of the demo catalogue.
    for (const address of [`/admin?q=${encodeURIComponent(prefix)}`, '/admin']) {
      await page.goto(address);
      const table = page.getByRole('table');
      await expect(table.getByRole('button', { name: /^Delete / }).first()).toBeVisible();
      for (const width of [320, 390, 640, 768, 820, 1024, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        const frame = await table.evaluate((element) => {
          const parent = element.parentElement as HTMLElement;
          const box = parent.getBoundingClientRect();
          return {
            left: box.left,
            right: box.right,
            hidden: element.getBoundingClientRect().width - parent.clientWidth,
          };
        });
        expect(frame.right, `the table's box at ${width}px`).toBeLessThanOrEqual(width);
        expect(frame.hidden, `the table's width past its box at ${width}px`).toBeLessThanOrEqual(0);
        const controls = [
          ...(await table.getByRole('link', { name: /^Edit / }).all()),
          ...(await table.getByRole('button', { name: /^Delete / }).all()),
          ...(await table.getByRole('columnheader').filter({ visible: true }).all()),
        ];
        expect(controls.length).toBeGreaterThan(2);
        for (const control of controls) {
          const box = await control.boundingBox();
          if (!box) throw new Error(`${control} is not shown at ${width}px`);
          expect(box.x, `${control} at ${width}px`).toBeGreaterThanOrEqual(frame.left);
          expect(Math.floor(box.x + box.width), `${control} at ${width}px`).toBeLessThanOrEqual(frame.right);
        }
      }
    }
    expect((await page.request.delete(`/api/admin/events/${id}`)).status()).toBe(204);
  });

  test('on a phone, a long title shows whole in the list', async ({ page }) => {
    const prefix = `Zz Long ${Date.now()}`;
    const title = `${prefix} Summer Jazz and Soul Evening at the Garden Theatre, the Second Night`;
    const [id] = await createEvents(page, [title]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/admin?q=${encodeURIComponent(prefix)}`);
    const shown = page.getByRole('table').getByText(title, { exact: true });
    await expect(shown).toBeVisible();
    // Wrapped, not cut short: nothing of it lies past its own box.
    const cut = await shown.evaluate((element) => ({
      height: element.scrollHeight - element.clientHeight,
      width: element.scrollWidth - element.clientWidth,
    }));
    expect(cut).toEqual({ height: 0, width: 0 });
    expect((await page.request.delete(`/api/admin/events/${id}`)).status()).toBe(204);
  });

  test('the image field says which picture it shows, with a labelled button instead of the bare file input', async ({
    page,
  }) => {
    const [id] = await createEvents(page, [`Zz Picture ${Date.now()}`]);
    await page.goto(`/admin/event/${id}`);
    await expect(page.getByRole('img', { name: 'Event preview' })).toBeVisible();
    const input = page.getByLabel('Event image');
    // The native input would say "No file chosen" beside the picture: it is there for the keyboard, unseen.
    await expect(input).toHaveAccessibleName('Event image');
    await expect(input).toHaveAccessibleDescription('Current image');
    await expect(page.getByText('Current image', { exact: true })).toBeVisible();
    expect((await input.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
    await input.focus();
    await expect(input).toBeFocused();
    // The visible button opens the file chooser; the status then names the file uploaded.
    const chooser = page.waitForEvent('filechooser');
    await page.getByText('Replace image', { exact: true }).click();
    await (await chooser).setFiles(await posterFile('e2e-replacement.png', { r: 200, g: 90, b: 20 }));
    await expect(input).toHaveAccessibleDescription('e2e-replacement.png');
    await expect(page.getByText('e2e-replacement.png', { exact: true })).toBeVisible();
    expect((await page.request.delete(`/api/admin/events/${id}`)).status()).toBe(204);
  });

  test('the search box follows the address on Back and Forward', async ({ page }) => {
    await page.goto('/admin');
    const search = page.getByLabel('Search events by title');
    await search.fill('zz gathering');
    await expect(page).toHaveURL(/\/admin\?q=zz\+gathering$/);
    await page.locator('header').getByRole('link', { name: 'Eventry' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(search).toHaveValue('');
    await page.goBack();
    await expect(page).toHaveURL(/\?q=zz\+gathering$/);
    await expect(search).toHaveValue('zz gathering');
    await page.goForward();
    await expect(search).toHaveValue('');
    // Typing is not undone by its own debounced write to the address.
    await search.pressSequentially('zz ');
    await expect(page).toHaveURL(/\?q=zz$/);
    await expect(search).toHaveValue('zz ');
  });

  test('the list pages through events ten at a time', async ({ page }) => {
    await page.goto('/admin');
    const rows = page.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(10);
    await expect(rows.first()).toContainText('1');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(rows.first()).toContainText('11');
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(page).not.toHaveURL(/page=2/);
  });

  test('paging by keyboard onto the last or first page keeps the focus in the pager', async ({ page }) => {
    await page.goto('/admin');
    const next = page.getByRole('button', { name: 'Next' });
    const previous = page.getByRole('button', { name: 'Previous' });
    const status = page.getByRole('navigation', { name: 'Pagination' }).getByText(/^Page \d+ of \d+$/);
    await expect(status).toHaveText(/^Page 1 of \d+$/);
    const pages = Number((await status.textContent())?.match(/of (\d+)/)?.[1]);
    expect(pages).toBeGreaterThan(1);
    await next.focus();
    for (let shown = 2; shown <= pages; shown++) {
      await page.keyboard.press('Enter');
      await expect(status).toHaveText(`Page ${shown} of ${pages}`);
    }
    await expect(next).toBeDisabled();
    await expect(previous).toBeFocused();
    for (let shown = pages - 1; shown >= 1; shown--) {
      await page.keyboard.press('Enter');
      await expect(status).toHaveText(`Page ${shown} of ${pages}`);
    }
    await expect(previous).toBeDisabled();
    await expect(next).toBeFocused();
  });

  test('an unknown or malformed event id goes to the 404 page, with the way back to the dashboard', async ({
    page,
  }) => {
    await page.goto('/admin/event/00000000-0000-4000-8000-000000000000');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { name: 'PAGE NOT FOUND' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'DashBoard' })).toHaveAttribute('href', '/admin');
    await page.goto('/admin/event/not-an-id');
    await expect(page).toHaveURL(/\/404$/);
  });
});
