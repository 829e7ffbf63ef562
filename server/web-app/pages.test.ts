import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { i18nOf } from '../../contracts/i18n/all';
import type { MessageKey } from '../../contracts/i18n/types';
import { PAGES, type PageId } from '../../contracts/pages';
import { insertEvent } from '../features/catalogue/test-events';
import { webTestApp } from './test-web-dir';

const SITE_TITLE = 'Eventry — discover and book events';

/** A page's address with its parameters filled in. */
function addressOf(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => params[name] ?? name);
}

describe('the pages of the route manifest, as a page load gets them', () => {
  /** Each page's chunk in this build's manifest, by its module. */
  const chunkOf = new Map<string, string>();
  // Each page's module has a chunk of its own in this build's manifest, as Vite names them.
  const ctx = webTestApp((dir) => {
    const manifestPath = path.join(dir, '.vite', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, { file: string }>;
    for (const [id, page] of Object.entries(PAGES)) {
      manifest[page.module] ??= { file: `assets/${id}-abc.js` };
      chunkOf.set(page.module, `/${manifest[page.module]?.file}`);
    }
    writeFileSync(manifestPath, JSON.stringify(manifest));
  });

  it('answers every page 200 with its chunk, and names those a visitor sees as they are', async () => {
    const event = await insertEvent(ctx.test.app.database.db, { title: 'Jazz night' });
    // A page the manifest gains must say here how a visitor's first load names it.
    const titles: Record<PageId, string> = {
      home: SITE_TITLE,
      eventsPage: 'All events · Eventry',
      eventDetails: 'Jazz night · Eventry',
      getTicket: SITE_TITLE,
      payment: SITE_TITLE,
      paymentSuccess: SITE_TITLE,
      paymentFailed: SITE_TITLE,
      successEmail: SITE_TITLE,
      contact: 'Contact Us · Eventry',
      login: 'Sign in to your account · Eventry',
      signup: 'Create a new account · Eventry',
      forgotPass: 'Reset Password · Eventry',
      resetPassword: SITE_TITLE,
      profile: SITE_TITLE,
      editProfile: SITE_TITLE,
      admin: SITE_TITLE,
      adminEventForm: SITE_TITLE,
      adminAttendees: SITE_TITLE,
      adminMailbox: SITE_TITLE,
      adminDashboard: SITE_TITLE,
      adminEventDashboard: SITE_TITLE,
      checkInEvents: SITE_TITLE,
      eventCheckIn: SITE_TITLE,
      doorStaff: SITE_TITLE,
    };
    const found: Record<string, unknown> = {};
    for (const [id, page] of Object.entries(PAGES)) {
      const url = addressOf(page.path, { category: 'all', id: event.id });
      const res = await ctx.test.app.inject({ method: 'GET', url });
      const chunks = /<meta name="page-chunks" content="([^"]*)"/.exec(res.body)?.[1]?.split(' ') ?? [];
      found[id] = {
        status: res.statusCode,
        title: /<title>([^<]*)<\/title>/.exec(res.body)?.[1],
        hasItsChunk: chunks.includes(chunkOf.get(page.module) ?? ''),
      };
    }
    expect(found).toEqual(
      Object.fromEntries(Object.entries(titles).map(([id, title]) => [id, { status: 200, title, hasItsChunk: true }])),
    );
  });

  it('describes the pages that have a description of their own', async () => {
    const description = async (url: string) =>
      /<meta name="description" content="([^"]*)"/.exec((await ctx.test.app.inject({ method: 'GET', url })).body)?.[1];
    const { t } = i18nOf('en');
    expect(await description('/')).toBe(t(PAGES.home.description as MessageKey));
    expect(await description('/contact')).toBe(t(PAGES.contact.description as MessageKey));
    // Pages without a description of their own have the site's.
    expect(await description('/login')).toBe(t('common.siteDescription'));
  });

  it('answers 404 for the addresses that are no page of it', async () => {
    const urls = ['/no/such/page', '/404', '/admin/event', '/event-details', '/login/again', '//contact'];
    const statuses: Record<string, number> = {};
    for (const url of urls) statuses[url] = (await ctx.test.app.inject({ method: 'GET', url })).statusCode;
    expect(statuses).toEqual(Object.fromEntries(urls.map((url) => [url, 404])));
  });

  it('loads a page again when its bare form was sent before the app took it over, reading none of it', async () => {
    const sent = await ctx.test.app.inject({
      method: 'POST',
      url: '/login?redirect=%2Fprofile',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40example.com&password=Secret123',
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe('/login?redirect=%2Fprofile');
    expect(sent.body).not.toContain('Secret123');
    // Not an address of the web app: still not found.
    expect((await ctx.test.app.inject({ method: 'POST', url: '/no-such-page' })).statusCode).toBe(404);
  });
});
