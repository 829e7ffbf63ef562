import { createHash, randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { i18nOf } from '../../contracts/i18n/all';
import { SITE_NAMESPACES } from '../../contracts/i18n/bundles';
import { insertEvent } from '../features/catalogue/test-events';
import type { TestContext } from '../test/helpers';
import { webTestApp } from './test-web-dir';
import { createWebHtml } from './web-html';

/** The JSON data block of a page. */
function dataOf(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="initial-data">([^<]*)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no data block');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

/** The addresses of a page's messages (its meta element), answered by the app. */
async function messagesOf(
  app: TestContext['app'],
  html: string,
): Promise<{ urls: string[]; messages: Record<string, Record<string, unknown>> }> {
  const match = /<meta name="messages" content="([^"]*)" \/>/.exec(html);
  if (!match?.[1]) throw new Error('no messages meta');
  const urls = match[1].split(' ');
  let messages: Record<string, Record<string, unknown>> = {};
  for (const url of urls) {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    // The address carries the texts' version: kept for a year.
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    messages = { ...messages, ...(res.json() as typeof messages) };
  }
  return { urls, messages };
}

describe('server-side HTML of the web app', () => {
  const ctx = webTestApp();

  it('preloads the same file the page picks from an uploaded picture and its 800 px copy', async () => {
    const file = `${randomUUID()}.webp`;
    const event = await insertEvent(ctx.test.app.database.db, { imageUrl: `/uploads/eventImg/${file}` });
    const { html } = await createWebHtml(ctx.test.app, ctx.dir).render(`/event-details/${event.id}`, 'en');
    expect(html).toContain(
      `<link rel="preload" as="image" href="/uploads/eventImg/${file}" imagesrcset="/uploads/w800/eventImg/${file} 800w, /uploads/eventImg/${file} 1600w" imagesizes="100vw" fetchpriority="high" />`,
    );
  });

  it('puts an event page’s escaped title, description, image preload, chunks and data into the page', async () => {
    const event = await insertEvent(ctx.test.app.database.db, {
      title: 'Jazz </script><script>alert(1)</script> & "friends"',
      description: 'Bring <b>everyone</b>',
    });
    const { html } = await createWebHtml(ctx.test.app, ctx.dir).render(`/event-details/${event.id}`, 'en');

    expect(html).toContain(
      '<title>Jazz &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot; · Eventry</title>',
    );
    expect(html).toMatch(/<meta name="description" content="[^"<>]*Bring &lt;b&gt;everyone&lt;\/b&gt;" \/>/);
    expect(html).toContain(`<link rel="preload" as="image" href="${event.imageUrl}" fetchpriority="high" />`);
    // The app's chunks and the page's own, each once; the entry is in the template.
    expect(html).toContain(
      '<meta name="page-chunks" content="/assets/boot-abc.js /assets/framework-abc.js /assets/event-details-abc.js /assets/dates-abc.js" />',
    );
    // The entry's loader and the page's data; the texts are the app's, fetched after the first paint.
    expect(html.match(/<script/g)).toHaveLength(2);
    const data = dataOf(html);
    expect(data).toMatchObject({ event: { id: event.id, data: { id: event.id, title: event.title } }, me: null });
  });

  it('starts the app from the one inline script, which the page’s CSP allows by its hash and nothing else', async () => {
    const res = await ctx.test.app.inject({ method: 'GET', url: '/contact' });
    expect(res.statusCode).toBe(200);
    // index.html's entry module is not fetched with the page: the loader adds it after the load and a paint.
    expect(res.body).not.toContain('<script type="module"');
    const scripts = [...res.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    const inline = scripts.filter(([, attributes]) => !attributes?.includes('application/json'));
    expect(inline).toHaveLength(1);
    const [, attributes, code] = inline[0] ?? [];
    expect(attributes).toBe(' data-src="/assets/index-abc.js"');
    const hash = `'sha256-${createHash('sha256')
      .update(code ?? '')
      .digest('base64')}'`;
    const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1]?.split(' ');
    expect(scriptSrc).toContain(hash);
    expect(scriptSrc?.filter((source) => source.startsWith("'sha") || source === "'unsafe-inline'")).toEqual([hash]);
  });

  it('writes the rules the page uses into it, so the first paint waits for no other request', async () => {
    const { html } = await createWebHtml(ctx.test.app, ctx.dir).render('/contact', 'en');
    // The template's <body class="page"> and <html>, but no element with class 'other' nor any <table>.
    expect(html).toContain(
      '<style>/*! licence */\n@layer x;body{color:red}.page{margin:0}@media (width>=40rem){.page{margin:1rem}}</style>',
    );
    // A disabled link stays: main.tsx loads it after the first paint; Vite's preload helper sees it there.
    expect(html).toContain('<link rel="stylesheet" href="/assets/index-abc.css" disabled />');
    expect(html.match(/rel="stylesheet"/g)).toHaveLength(1);
  });

  it('leaves out the signed-out hint when the request has a session cookie', async () => {
    const web = createWebHtml(ctx.test.app, ctx.dir);
    const { html } = await web.render('/', 'en', 'theme=dark; eventry.session_token=abc');
    expect(dataOf(html)).not.toHaveProperty('me');
    expect(dataOf((await web.render('/', 'en', 'theme=dark')).html)).toMatchObject({ me: null });
  });

  it('gives an unknown event and other pages the site’s head, with only the signed-out hint', async () => {
    const web = createWebHtml(ctx.test.app, ctx.dir);
    const missing = await web.render('/event-details/00000000-0000-4000-8000-000000000000', 'en');
    expect(missing.html).toContain('<title>Eventry — discover and book events</title>');
    expect(dataOf(missing.html)).toEqual({ me: null });
    const profile = await web.render('/profile', 'en');
    expect(profile.status).toBe(200);
    expect(profile.html).toContain('<title>Eventry — discover and book events</title>');
    expect(profile.html).toContain(
      '<meta name="description" content="Discover events near you and book tickets in seconds with Eventry." />',
    );
    expect(dataOf(profile.html)).toEqual({ me: null });
  });

  it('names the forms a visitor opens (sign-in, sign-up, reset, contact) in their head, as the pages do', async () => {
    const web = createWebHtml(ctx.test.app, ctx.dir);
    const login = await web.render('/login?redirect=%3C%2Fscript%3E', 'en');
    expect(login.status).toBe(200);
    expect(login.html).toContain('<title>Sign in to your account · Eventry</title>');
    expect(login.html).toContain('content="Discover events near you and book tickets in seconds with Eventry."');
    expect(dataOf(login.html)).toEqual({ me: null });
    expect((await web.render('/Signup/', 'en')).html).toContain('<title>Create a new account · Eventry</title>');
    expect((await web.render('/forgot-pass', 'en')).html).toContain('<title>Reset Password · Eventry</title>');
    const contact = await web.render('/contact', 'en');
    expect(contact.html).toContain('<title>Contact Us · Eventry</title>');
    expect(contact.html).toContain(
      '<meta name="description" content="Hosting an event? Tell the Eventry team about it." />',
    );
  });

  it('writes a page in its language: lang and dir, title, description and the site’s messages, and nothing else', async () => {
    const event = await insertEvent(ctx.test.app.database.db, { title: 'Oud Night', eventDate: '2031-12-05' });
    const web = createWebHtml(ctx.test.app, ctx.dir);
    const arabic = await web.render(`/event-details/${event.id}`, 'ar');
    expect(arabic.html).toContain('<html lang="ar" dir="rtl"');
    expect(arabic.html).toContain('<title>Oud Night · إيفنتري</title>');
    expect(arabic.html).toMatch(/<meta name="description" content="٥ ديسمبر ٢٠٣١ في /);
    const { messages } = await messagesOf(ctx.test.app, arabic.html);
    expect(messages.catalogue).toMatchObject({ bookATicket: 'احجز تذكرة' });
    // Only the site's namespaces, in Arabic only: no English text, no admin area's, no email's.
    expect(Object.keys(messages).sort()).toEqual([...SITE_NAMESPACES].sort());
    expect(JSON.stringify(messages)).not.toContain('Book a Ticket');
    expect(arabic.html).not.toContain('Book a Ticket');

    const english = await web.render(`/event-details/${event.id}`, 'en');
    expect(english.html).toContain('<html lang="en" dir="ltr"');
    expect((await messagesOf(ctx.test.app, english.html)).messages.catalogue).toMatchObject({
      bookATicket: 'Book a Ticket',
    });
    // Each language is cached apart: the English page right after the Arabic one is still English.
    expect(english.html).toContain('<title>Oud Night · Eventry</title>');
    expect((await web.render('/login', 'ar')).html).toContain(
      `<title>${i18nOf('ar').t('login.heading')} · إيفنتري</title>`,
    );
    expect((await web.render('/profile', 'ar')).html).toContain(
      '<title>إيفنتري — اكتشف الفعاليات واحجز تذاكرك</title>',
    );
  });

  it('draws those forms for visitors only, and the other pages without data not at all', async () => {
    // A renderer of its own beside a copy of the web folder (dist/web-ssr/ssr.js beside dist/web).
    const root = mkdtempSync(path.join(os.tmpdir(), 'eventry-web-ssr-'));
    try {
      const webDir = path.join(root, 'web');
      cpSync(ctx.dir, webDir, { recursive: true });
      mkdirSync(path.join(root, 'web-ssr'));
      writeFileSync(
        path.join(root, 'web-ssr', 'ssr.js'),
        'export async function renderPage(url, data) { return "<p>drawn " + url + " for " + JSON.stringify(data) + "</p>"; }\n',
      );
      const web = createWebHtml(ctx.test.app, webDir);
      for (const url of ['/login?redirect=%2Fprofile', '/signup', '/forgot-pass', '/contact']) {
        expect((await web.render(url, 'en')).html).toContain(
          `<div id="root"><p>drawn ${url} for {"me":null}</p></div>`,
        );
      }
      // With a session cookie the browser draws the page (and its header) once it knows who is there.
      const signedIn = await web.render('/contact', 'en', 'eventry.session_token=abc');
      expect(signedIn.html).toContain('<div id="root"></div>');
      expect(signedIn.html).not.toContain('id="initial-data"');
      expect((await web.render('/profile', 'en')).html).toContain('<div id="root"></div>');
      expect((await web.render('/reset-password?token=abc', 'en')).html).toContain('<div id="root"></div>');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('answers 404 for every address the app shows as not found, and 200 for the pages it has', async () => {
    const web = createWebHtml(ctx.test.app, ctx.dir);
    const event = await insertEvent(ctx.test.app.database.db, {});
    const statuses: Record<string, number> = {};
    for (const url of [
      '/',
      '/events-page/all',
      '/events-page/music?page=2',
      `/event-details/${event.id}`,
      `/event-details/${event.id}/get-ticket`,
      '/admin/event/new',
      '/reset-password?token=x',
      // React Router shows these pages too: case-insensitive fixed parts, a trailing slash.
      '/Contact/',
      `/event-details/${event.id}/`,
      '/events-page/all/',
      '/events-page/no-such-category',
      '/event-details/00000000-0000-4000-8000-000000000000',
      '/event-details/not-an-id',
      '/no/such/page',
      '/404',
      // Not a host name: the path is '//contact', which the router does not have.
      '//contact',
      '//[',
    ]) {
      statuses[url] = (await web.render(url, 'en')).status;
    }
    expect(statuses).toEqual({
      '/': 200,
      '/events-page/all': 200,
      '/events-page/music?page=2': 200,
      [`/event-details/${event.id}`]: 200,
      [`/event-details/${event.id}/get-ticket`]: 200,
      '/admin/event/new': 200,
      '/reset-password?token=x': 200,
      '/Contact/': 200,
      [`/event-details/${event.id}/`]: 200,
      '/events-page/all/': 200,
      '/events-page/no-such-category': 404,
      '/event-details/00000000-0000-4000-8000-000000000000': 404,
      '/event-details/not-an-id': 404,
      '/no/such/page': 404,
      '/404': 404,
      '//contact': 404,
      '//[': 404,
    });
    // The not-found pages are still the app: it shows its own 404 page.
    expect((await web.render('/no/such/page', 'en')).html).toContain('<div id="root">');
  });
});
