import { describe, expect, it, vi } from 'vitest';
import { insertEvent } from '../features/catalogue/test-events';
import type { TestUser } from '../test/helpers';
import { webTestApp } from './test-web-dir';

describe('a page load sent on by its guard before any HTML', () => {
  const ctx = webTestApp();

  /** Every address of a public page (guard 'not-for-admins' in contracts/pages.ts), as React Router matches them. */
  async function publicPages(): Promise<string[]> {
    const event = await insertEvent(ctx.test.app.database.db, {});
    return [
      '/',
      '/?page=2',
      '/events-page/all',
      '/events-page/music?page=2',
      '/events-page/no-such-category',
      `/event-details/${event.id}`,
      '/event-details/not-an-id',
      '/contact',
      '/Contact/',
    ];
  }

  /** The status (and where a redirect goes) of each address, as this visitor gets it. */
  async function answers(user: TestUser | undefined, urls: string[], method: 'GET' | 'HEAD' = 'GET') {
    const found: Record<string, string> = {};
    for (const url of urls) {
      const res = await ctx.test.request(user, { method, url });
      found[url] = `${res.statusCode}${res.headers.location ? ` ${res.headers.location}` : ''}`;
    }
    return found;
  }

  it('sends a signed-in admin from every public page to /admin before any of it is sent', async () => {
    const admin = await ctx.test.createUser({ role: 'admin' });
    const urls = await publicPages();
    const redirected = Object.fromEntries(urls.map((url) => [url, '302 /admin']));
    expect(await answers(admin, urls)).toEqual(redirected);
    expect(await answers(admin, urls, 'HEAD')).toEqual(redirected);
    // One session's answer: no cache keeps it, and any cache that keeps the page keeps one per cookie.
    const res = await ctx.test.request(admin, { method: 'GET', url: '/events-page/all' });
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toMatch(/\bcookie\b/i);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('serves the public pages to users and signed-out visitors, varying by cookie', async () => {
    const user = await ctx.test.createUser();
    const urls = (await publicPages()).filter((url) => !/no-such-category|not-an-id/.test(url));
    const served = Object.fromEntries(urls.map((url) => [url, '200']));
    expect(await answers(user, urls)).toEqual(served);
    expect(await answers(undefined, urls)).toEqual(served);
    const res = await ctx.test.request(undefined, { method: 'GET', url: '/' });
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/\bcookie\b/i);
  });

  it('serves a first visit whose browser prefers Arabic in Arabic, and a chosen language over the browser’s', async () => {
    const arabic = await ctx.test.request(undefined, {
      method: 'GET',
      url: '/',
      headers: { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.8' },
    });
    expect(arabic.body).toContain('<html lang="ar" dir="rtl"');
    // Caches keep one page per language (and per cookie, which carries the choice).
    expect(arabic.headers.vary).toMatch(/\baccept-language\b/i);
    const chosen = await ctx.test.request(undefined, {
      method: 'GET',
      url: '/',
      headers: { 'accept-language': 'ar', cookie: 'lang=en' },
    });
    expect(chosen.body).toContain('<html lang="en" dir="ltr"');
  });

  it('answers an address that is not a URL path with the 404 page, whoever asks (it was a 500)', async () => {
    const admin = await ctx.test.createUser({ role: 'admin' });
    for (const user of [admin, undefined]) {
      expect(await answers(user, ['//[', '//contact', '//[?page=2'])).toEqual({
        '//[': '404',
        '//contact': '404',
        '//[?page=2': '404',
      });
    }
  });

  it('serves an admin the admin pages, the 404 page and the pages that are not public ones', async () => {
    const admin = await ctx.test.createUser({ role: 'admin' });
    expect(
      await answers(admin, [
        '/admin',
        '/admin/event/new',
        '/admin/mailbox',
        // The 404 page offers admins their 'DashBoard' button (web/src/app/not-found.tsx).
        '/404',
        '/no/such/page',
        '/reset-password?token=x',
        // An emailed verification link: the page says how it went, then the browser moves on.
        '/?verified=1',
      ]),
    ).toEqual({
      '/admin': '200',
      '/admin/event/new': '200',
      '/admin/mailbox': '200',
      '/404': '404',
      '/no/such/page': '404',
      '/reset-password?token=x': '200',
      '/?verified=1': '200',
    });
  });

  it('sends a signed-in user or admin from login, signup and forgot-pass on, as the browser would', async () => {
    const user = await ctx.test.createUser();
    const admin = await ctx.test.createUser({ role: 'admin' });
    const pages = ['/login', '/signup', '/forgot-pass', '/Login/'];
    const everywhere = (target: string) => Object.fromEntries(pages.map((url) => [url, `302 ${target}`]));
    // Users to /, admins to /admin (contracts/redirect.ts).
    expect(await answers(user, pages)).toEqual(everywhere('/'));
    expect(await answers(admin, pages)).toEqual(everywhere('/admin'));
    // Back where sign-in was asked for (?redirect=), if it is a same-site page of theirs; never off the site.
    expect(
      await answers(user, [
        '/login?redirect=%2Fprofile',
        '/login?redirect=%2Fadmin%2Fmailbox',
        '/login?redirect=%2F%2Fevil.example',
      ]),
    ).toEqual({
      '/login?redirect=%2Fprofile': '302 /profile',
      '/login?redirect=%2Fadmin%2Fmailbox': '302 /',
      '/login?redirect=%2F%2Fevil.example': '302 /',
    });
    expect(await answers(admin, ['/login?redirect=%2Fadmin%2Fmailbox', '/login?redirect=%2Fprofile'])).toEqual({
      '/login?redirect=%2Fadmin%2Fmailbox': '302 /admin/mailbox',
      '/login?redirect=%2Fprofile': '302 /admin',
    });
    // Signed out, the pages are served.
    expect(await answers(undefined, pages)).toEqual(Object.fromEntries(pages.map((url) => [url, '200'])));
  });

  it('looks up no session for a visitor without a session cookie', async () => {
    const query = vi.spyOn(ctx.test.app.database.pool, 'query');
    try {
      for (const cookie of [undefined, 'theme=dark']) {
        const res = await ctx.test.app.inject({ method: 'GET', url: '/', headers: cookie ? { cookie } : {} });
        expect(res.statusCode).toBe(200);
      }
      const sql = query.mock.calls.map((call) => JSON.stringify(call[0]));
      expect(sql.filter((text) => /\bsessions\b/.test(text))).toEqual([]);
    } finally {
      query.mockRestore();
    }
  });

  it('serves the page when the session cannot be read (the browser’s guard still sends an admin on)', async () => {
    const admin = await ctx.test.createUser({ role: 'admin' });
    const query = vi.spyOn(ctx.test.app.database.pool, 'query').mockRejectedValueOnce(new Error('connection refused'));
    try {
      const res = await ctx.test.request(admin, { method: 'GET', url: '/contact' });
      expect(res.statusCode).toBe(200);
    } finally {
      query.mockRestore();
    }
  });
});
