import { brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/helpers';
import { messagesUrl } from './i18n';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

describe('choosing a language', () => {
  it('keeps the choice in a cookie for a year and goes back to the same page', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/language/ar?to=%2Fevents-page%2Fmusic%3Fpage%3D2' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/events-page/music?page=2');
    expect(res.headers['set-cookie']).toBe('lang=ar; Path=/; Max-Age=31536000; SameSite=Lax');
    expect(res.headers['cache-control']).toBe('no-store');
    const back = await ctx.app.inject({ method: 'GET', url: '/api/language/en' });
    expect(back.headers.location).toBe('/');
    expect(back.headers['set-cookie']).toContain('lang=en;');
  });

  it('never sends the browser to another site, and refuses a language it does not speak', async () => {
    for (const to of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/language/ar?to=${encodeURIComponent(to)}` });
      expect(res.headers.location).toBe('/');
    }
    const res = await ctx.app.inject({ method: 'GET', url: '/api/language/fr?to=/' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('GET /api/messages/:lang/:bundle', () => {
  it('gives a bundle in one language, revalidated by its ETag', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/messages/ar/site' });
    expect(res.statusCode).toBe(200);
    expect(res.json().catalogue.bookATicket).toBe('احجز تذكرة');
    expect(res.body).not.toContain('Book a Ticket');
    const etag = res.headers.etag as string;
    const again = await ctx.app.inject({
      method: 'GET',
      url: '/api/messages/ar/site',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    const english = await ctx.app.inject({ method: 'GET', url: '/api/messages/en/site' });
    expect(english.headers.etag).not.toBe(etag);
  });

  it('keeps the address of the current version for a year, and sends it compressed', async () => {
    const url = messagesUrl('ar', 'site');
    expect(url).toMatch(/^\/api\/messages\/ar\/site\?v=[\w-]{22}$/);
    const res = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    const body = JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8'));
    expect(body.catalogue.bookATicket).toBe('احجز تذكرة');
    // An old version's address is not kept: it gets today's texts, revalidated.
    const old = await ctx.app.inject({ method: 'GET', url: '/api/messages/ar/site?v=old' });
    expect(old.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
  });

  it('answers 400 for a language or bundle that does not exist', async () => {
    for (const url of ['/api/messages/fr/site', '/api/messages/ar/emails', '/api/messages/ar/../../etc']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect([400, 404]).toContain(res.statusCode);
    }
  });
});

describe('problem details in the request’s language', () => {
  it('says why in Arabic to an Arabic request, and keeps the code', async () => {
    const url = '/api/no-such-thing';
    const english = await ctx.app.inject({ method: 'GET', url });
    const arabic = await ctx.app.inject({ method: 'GET', url, headers: { cookie: 'lang=ar' } });
    expect(english.json()).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      detail: 'No route for GET /api/no-such-thing',
    });
    expect(arabic.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(arabic.json().detail).toBe('لا يوجد مسار للطلب GET /api/no-such-thing');
    // Accept-Language alone does it too, for a client that never chose.
    const browser = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-language': 'ar-EG' } });
    expect(browser.json().detail).toBe(arabic.json().detail);
  });
});
