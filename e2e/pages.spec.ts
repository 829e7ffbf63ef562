import { expect, type Page, test } from '@playwright/test';
import { i18nOf } from '../contracts/i18n/all';
import type { MessageKey } from '../contracts/i18n/types';
import { PAGES, type PageRoute } from '../contracts/pages';

const en = i18nOf('en');

import { ADMIN_STATE, USER_STATE } from './support/fixtures';

/**
 * Every page of the route manifest (contracts/pages.ts), opened in the app by someone its guard lets in: the
 * router shows that page (not the 404 page, not the sign-in page), and a page with a fixed title takes the
 * manifest's. The app gets there by moving within itself from its 404 page, so the title is the page's own
 * doing, not the one the server wrote into the HTML.
 */

const SITE_TITLE = 'Eventry — discover and book events';
const NOT_FOUND_TITLE = 'Page not found · Eventry';

type Role = 'visitor' | 'user' | 'admin';

function roleFor(page: PageRoute): Role {
  if (page.guard === 'require-admin' || page.guard === 'require-door') return 'admin';
  return page.guard === 'require-auth' ? 'user' : 'visitor';
}

async function addressOf(page: Page, route: PageRoute): Promise<string> {
  // The payment page sends an address without a booking home; one the server does not know, it tells so.
  if (route === PAGES.payment) return '/payment?booking=00000000-0000-4000-8000-000000000000';
  if (!route.path.includes(':')) return route.path;
  // The event form's own address for a new event; the other admin pages of an event need one that exists.
  if (route.path === '/admin/event/:id') return route.path.replace(':id', 'new');
  const events = await (await page.request.get('/api/events')).json();
  return route.path.replace(':category', 'all').replace(':id', events.items[0].id as string);
}

const STATES: Record<Role, string | undefined> = { visitor: undefined, user: USER_STATE, admin: ADMIN_STATE };
const WHO: Record<Role, string> = { visitor: 'a visitor', user: 'a signed-in user', admin: 'the admin' };

for (const role of ['visitor', 'user', 'admin'] as const) {
  test.describe(`the pages ${WHO[role]} opens`, () => {
    test.use({ storageState: STATES[role] });
    for (const route of Object.values(PAGES).filter((page) => roleFor(page) === role)) {
      test(`${route.path} shows its page${route.title === undefined ? '' : ', with the manifest’s title'}`, async ({
        page,
      }) => {
        const address = await addressOf(page, route);
        await page.goto('/no-such-page');
        await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
        await expect(page).toHaveTitle(NOT_FOUND_TITLE);
        // A move within the app, as a link makes it (React Router follows the history).
        await page.evaluate((url) => {
          window.history.pushState(null, '', url);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, address);
        if (route.title === undefined) await expect(page).not.toHaveTitle(NOT_FOUND_TITLE);
        else await expect(page).toHaveTitle(route.title ? `${en.t(route.title as MessageKey)} · Eventry` : SITE_TITLE);
        await expect(page).toHaveURL(new URL(address, page.url()).href);
      });
    }
  });
}
