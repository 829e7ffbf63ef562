import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertEvent } from './features/catalogue/test-events';
import { setupTestApp, type TestUser } from './test/helpers';
import { createWebHtml, encodeHtml } from './web-html';

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="Default description" />
    <title>Eventry — discover and book events</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

const MANIFEST = {
  'index.html': { file: 'assets/index-abc.js', isEntry: true },
  'src/app/boot.tsx': { file: 'assets/boot-abc.js', imports: ['_framework.js'] },
  '_framework.js': { file: 'assets/framework-abc.js' },
  'src/features/catalogue/routes/event-details.tsx': {
    file: 'assets/event-details-abc.js',
    imports: ['_framework.js', '_dates.js'],
  },
  '_dates.js': { file: 'assets/dates-abc.js' },
};

/** The JSON data block of a page. */
function dataOf(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="initial-data">([^<]*)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no data block');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

describe('server-side HTML of the web app', () => {
  const ctx = { dir: '' };
  let test: Awaited<ReturnType<typeof setupTestApp>>;

  beforeAll(async () => {
    ctx.dir = mkdtempSync(path.join(os.tmpdir(), 'eventry-web-html-'));
    mkdirSync(path.join(ctx.dir, '.vite'));
    writeFileSync(path.join(ctx.dir, 'index.html'), TEMPLATE);
    writeFileSync(path.join(ctx.dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    mkdirSync(path.join(ctx.dir, 'assets'));
    writeFileSync(path.join(ctx.dir, 'assets', 'index-abc.css'), 'body{color:red}');
    // The app serves the pages from that folder too (the admin redirect is the server's, before any HTML).
    test = await setupTestApp({ webDir: ctx.dir });
  });
  afterAll(async () => {
    rmSync(ctx.dir, { recursive: true, force: true });
    await test.close();
  });

  it('preloads the same file the page picks from an uploaded picture and its 800 px copy', async () => {
    const file = `${randomUUID()}.webp`;
    const event = await insertEvent(test.app.database.db, { imageUrl: `/uploads/eventImg/${file}` });
    const { html } = await createWebHtml(test.app, ctx.dir).render(`/event-details/${event.id}`);
    expect(html).toContain(
      `<link rel="preload" as="image" href="/uploads/eventImg/${file}" imagesrcset="/uploads/w800/eventImg/${file} 800w, /uploads/eventImg/${file} 1600w" imagesizes="100vw" fetchpriority="high" />`,
    );
  });

  it('puts an event page’s escaped title, description, image preload, chunks and data into the page', async () => {
    const event = await insertEvent(test.app.database.db, {
      title: 'Jazz </script><script>alert(1)</script> & "friends"',
      description: 'Bring <b>everyone</b>',
    });
    const { html } = await createWebHtml(test.app, ctx.dir).render(`/event-details/${event.id}`);

    expect(html).toContain(
      '<title>Jazz &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot; · Eventry</title>',
    );
    expect(html).toMatch(/<meta name="description" content="[^"<>]*Bring &lt;b&gt;everyone&lt;\/b&gt;" \/>/);
    expect(html).toContain(`<link rel="preload" as="image" href="${event.imageUrl}" fetchpriority="high" />`);
    // The app's chunks and the page's own, each once; the entry is in the template.
    expect(html).toContain(
      '<meta name="page-chunks" content="/assets/boot-abc.js /assets/framework-abc.js /assets/event-details-abc.js /assets/dates-abc.js" />',
    );
    expect(html.match(/<script/g)).toHaveLength(2);
    const data = dataOf(html);
    expect(data).toMatchObject({ event: { id: event.id, data: { id: event.id, title: event.title } }, me: null });
  });

  it('writes the stylesheet into the page, so the first paint waits for no other request', async () => {
    const { html } = await createWebHtml(test.app, ctx.dir).render('/contact');
    expect(html).toContain('<style>body{color:red}</style>');
    // Only a disabled link stays (never fetched; it tells Vite's preload helper the stylesheet is there).
    expect(html).toContain('<link rel="stylesheet" href="/assets/index-abc.css" disabled />');
    expect(html.match(/rel="stylesheet"/g)).toHaveLength(1);
  });

  it('leaves out the signed-out hint when the request has a session cookie', async () => {
    const web = createWebHtml(test.app, ctx.dir);
    const { html } = await web.render('/', 'theme=dark; eventry.session_token=abc');
    expect(dataOf(html)).not.toHaveProperty('me');
    expect(dataOf((await web.render('/', 'theme=dark')).html)).toMatchObject({ me: null });
  });

  it('gives an unknown event and other pages the template’s head, with only the signed-out hint', async () => {
    const web = createWebHtml(test.app, ctx.dir);
    const missing = await web.render('/event-details/00000000-0000-4000-8000-000000000000');
    expect(missing.html).toContain('<title>Eventry — discover and book events</title>');
    expect(dataOf(missing.html)).toEqual({ me: null });
    const profile = await web.render('/profile');
    expect(profile.status).toBe(200);
    expect(profile.html).toContain('<title>Eventry — discover and book events</title>');
    expect(profile.html).toContain('content="Default description"');
    expect(dataOf(profile.html)).toEqual({ me: null });
  });

  it('names the forms a visitor opens (sign-in, sign-up, reset, contact) in their head, as the pages do', async () => {
    const web = createWebHtml(test.app, ctx.dir);
    const login = await web.render('/login?redirect=%3C%2Fscript%3E');
    expect(login.status).toBe(200);
    expect(login.html).toContain('<title>Sign in to your account · Eventry</title>');
    expect(login.html).toContain('content="Default description"');
    expect(dataOf(login.html)).toEqual({ me: null });
    expect((await web.render('/Signup/')).html).toContain('<title>Create a new account · Eventry</title>');
    expect((await web.render('/forgot-pass')).html).toContain('<title>Reset Password · Eventry</title>');
    const contact = await web.render('/contact');
    expect(contact.html).toContain('<title>Contact Us · Eventry</title>');
    expect(contact.html).toContain(
      '<meta name="description" content="Hosting an event? Tell the Eventry team about it." />',
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
      const web = createWebHtml(test.app, webDir);
      for (const url of ['/login?redirect=%2Fprofile', '/signup', '/forgot-pass', '/contact']) {
        expect((await web.render(url)).html).toContain(`<div id="root"><p>drawn ${url} for {"me":null}</p></div>`);
      }
      // With a session cookie the browser draws the page (and its header) once it knows who is there.
      const signedIn = await web.render('/contact', 'eventry.session_token=abc');
      expect(signedIn.html).toContain('<div id="root"></div>');
      expect(signedIn.html).not.toContain('id="initial-data"');
      expect((await web.render('/profile')).html).toContain('<div id="root"></div>');
      expect((await web.render('/reset-password?token=abc')).html).toContain('<div id="root"></div>');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('loads a page again when its bare form was sent before the app took it over, reading none of it', async () => {
    const sent = await test.app.inject({
      method: 'POST',
      url: '/login?redirect=%2Fprofile',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40example.com&password=Secret123',
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe('/login?redirect=%2Fprofile');
    expect(sent.body).not.toContain('Secret123');
    // Not an address of the web app: still not found.
    expect((await test.app.inject({ method: 'POST', url: '/no-such-page' })).statusCode).toBe(404);
  });

  it('answers 404 for every address the app shows as not found, and 200 for the pages it has', async () => {
    const web = createWebHtml(test.app, ctx.dir);
    const event = await insertEvent(test.app.database.db, {});
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
      statuses[url] = (await web.render(url)).status;
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
    expect((await web.render('/no/such/page')).html).toContain('<div id="root">');
  });

  /** Every address of a public page (SPEC §2), as React Router matches them. */
  async function publicPages(): Promise<string[]> {
    const event = await insertEvent(test.app.database.db, {});
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
      const res = await test.request(user, { method, url });
      found[url] = `${res.statusCode}${res.headers.location ? ` ${res.headers.location}` : ''}`;
    }
    return found;
  }

  it('sends a signed-in admin from every public page to /admin before any of it is sent', async () => {
    const admin = await test.createUser({ role: 'admin' });
    const urls = await publicPages();
    const redirected = Object.fromEntries(urls.map((url) => [url, '302 /admin']));
    expect(await answers(admin, urls)).toEqual(redirected);
    expect(await answers(admin, urls, 'HEAD')).toEqual(redirected);
    // One session's answer: no cache keeps it, and any cache that keeps the page keeps one per cookie.
    const res = await test.request(admin, { method: 'GET', url: '/events-page/all' });
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toMatch(/\bcookie\b/i);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('serves the public pages to users and signed-out visitors, varying by cookie', async () => {
    const user = await test.createUser();
    const urls = (await publicPages()).filter((url) => !/no-such-category|not-an-id/.test(url));
    const served = Object.fromEntries(urls.map((url) => [url, '200']));
    expect(await answers(user, urls)).toEqual(served);
    expect(await answers(undefined, urls)).toEqual(served);
    const res = await test.request(undefined, { method: 'GET', url: '/' });
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/\bcookie\b/i);
  });

  it('answers an address that is not a URL path with the 404 page, whoever asks (it was a 500)', async () => {
    const admin = await test.createUser({ role: 'admin' });
    for (const user of [admin, undefined]) {
      expect(await answers(user, ['//[', '//contact', '//[?page=2'])).toEqual({
        '//[': '404',
        '//contact': '404',
        '//[?page=2': '404',
      });
    }
  });

  it('serves an admin the admin pages, the 404 page and the pages that are not public ones', async () => {
    const admin = await test.createUser({ role: 'admin' });
    expect(
      await answers(admin, [
        '/admin',
        '/admin/event/new',
        '/admin/mailbox',
        // SPEC §2: the 404 page offers admins their 'DashBoard' button.
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
    const user = await test.createUser();
    const admin = await test.createUser({ role: 'admin' });
    const pages = ['/login', '/signup', '/forgot-pass', '/Login/'];
    const everywhere = (target: string) => Object.fromEntries(pages.map((url) => [url, `302 ${target}`]));
    // SPEC §2: users to /, admins to /admin.
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
    const query = vi.spyOn(test.app.database.pool, 'query');
    try {
      for (const cookie of [undefined, 'theme=dark']) {
        const res = await test.app.inject({ method: 'GET', url: '/', headers: cookie ? { cookie } : {} });
        expect(res.statusCode).toBe(200);
      }
      const sql = query.mock.calls.map((call) => JSON.stringify(call[0]));
      expect(sql.filter((text) => /\bsessions\b/.test(text))).toEqual([]);
    } finally {
      query.mockRestore();
    }
  });

  it('serves the page when the session cannot be read (the browser’s guard still sends an admin on)', async () => {
    const admin = await test.createUser({ role: 'admin' });
    const query = vi.spyOn(test.app.database.pool, 'query').mockRejectedValueOnce(new Error('connection refused'));
    try {
      const res = await test.request(admin, { method: 'GET', url: '/contact' });
      expect(res.statusCode).toBe(200);
    } finally {
      query.mockRestore();
    }
  });

  it('compresses the page for clients that accept it', () => {
    const html = `<p>${'Eventry '.repeat(400)}</p>`;
    expect(encodeHtml(html, 'gzip, deflate, br').encoding).toBe('br');
    expect(encodeHtml(html, 'gzip').encoding).toBe('gzip');
    expect(encodeHtml(html, undefined)).toEqual({ body: html });
  });
});
