import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Category, EventDto, EventsPage } from '../contracts/catalogue';
import { categoryDescription, categoryView } from '../contracts/category-heading';
import { ALL_CATEGORIES, SEARCH_QUERY_MAX_LENGTH } from '../contracts/constants';
import { formatDate } from '../contracts/dates';
import { isUuid } from '../contracts/ids';
import { EVENT_CARD_SIZES, EVENT_HERO_SIZES, responsiveImage } from '../contracts/images';
import { contactMessages } from '../contracts/messages/contact';
import { loginMessages } from '../contracts/messages/login';
import { resetPasswordMessages } from '../contracts/messages/reset-password';
import { signupMessages } from '../contracts/messages/signup';
import { signedInDestination } from '../contracts/redirect';

/**
 * index.html for a page of the web app, with what the first paint needs already in it: the page's <title>
 * and meta description, <link rel="modulepreload"> for the route's chunks (from Vite's manifest), a
 * high-priority preload of the page's largest image, and the API answers the page would fetch first as a
 * JSON data block (web/src/app/initial-data.ts seeds the query cache with it). The public pages (home,
 * events list, event detail) and, for signed-out visitors, the sign-in, sign-up, reset and contact forms also
 * come rendered, by the same React components (dist/web-ssr, built from web/src/app/ssr.tsx), and the browser
 * hydrates them. HTML → JS → /api/events → image becomes HTML
 * (painted at once) → (JS, image) in parallel.
 */

/** The meta element listing the chunks the page runs beyond index.html's entry (web/src/main.tsx reads it). */
const PAGE_CHUNKS_META = 'page-chunks';
/** The id of the data block (web/src/app/initial-data.ts reads it). */
const INITIAL_DATA_ELEMENT_ID = 'initial-data';
const DEFAULT_TITLE = 'Eventry — discover and book events';
/** An API answer that takes longer than this is left out: the page then fetches it itself. */
const DATA_TIMEOUT_MS = 500;
/** A render that takes longer is abandoned: the browser then renders the page itself. */
const RENDER_TIMEOUT_MS = 1_000;
/** Rendered pages are reused this long (the live stream corrects anything that changed since). */
const CACHE_TTL_MS = 1_000;
const CACHE_MAX_ENTRIES = 500;

/** The app's start module (a key of Vite's manifest), imported by the small entry after the first paint. */
const APP_MODULE = 'src/app/boot.tsx';
/**
 * Who React Router's guards (web/src/app/router.tsx) send on from a page: 'public', SPEC §2's public pages
 * (NotForAdmins: admins go to /admin); 'signed-out', login, signup and forgot-pass (SignedOutOnly: a
 * signed-in user goes to / or back where they came from, an admin to /admin).
 */
type Guard = 'public' | 'signed-out';
/**
 * Route patterns of web/src/app/router.tsx → the module of their lazy page (a key of Vite's manifest), and
 * the guard that sends some visitors on from it. React Router ignores the case of an address's fixed parts
 * and a trailing slash, so these do too (`/Contact/` is the contact page, answered 200, not a 404).
 */
const ROUTES: Array<[RegExp, string, guard?: Guard]> = [
  [/^\/$/, 'src/features/catalogue/routes/home.tsx', 'public'],
  [/^\/events-page\/[^/]+\/?$/i, 'src/features/catalogue/routes/events-page.tsx', 'public'],
  [/^\/event-details\/[^/]+\/?$/i, 'src/features/catalogue/routes/event-details.tsx', 'public'],
  [/^\/event-details\/[^/]+\/get-ticket\/?$/i, 'src/features/bookings/routes/get-ticket.tsx'],
  [/^\/payment\/?$/i, 'src/features/bookings/routes/payment.tsx'],
  [/^\/payment-success\/?$/i, 'src/features/bookings/routes/payment-success.tsx'],
  [/^\/payment-failed\/?$/i, 'src/features/bookings/routes/payment-failed.tsx'],
  [/^\/success-email\/?$/i, 'src/features/contact/routes/success-email.tsx'],
  [/^\/contact\/?$/i, 'src/features/contact/routes/contact.tsx', 'public'],
  [/^\/login\/?$/i, 'src/features/accounts/routes/login.tsx', 'signed-out'],
  [/^\/signup\/?$/i, 'src/features/accounts/routes/signup.tsx', 'signed-out'],
  [/^\/forgot-pass\/?$/i, 'src/features/accounts/routes/forgot-pass.tsx', 'signed-out'],
  [/^\/reset-password\/?$/i, 'src/features/accounts/routes/reset-password.tsx'],
  [/^\/profile\/?$/i, 'src/features/bookings/routes/profile.tsx'],
  [/^\/edit-profile\/?$/i, 'src/features/accounts/routes/edit-profile.tsx'],
  [/^\/admin\/?$/i, 'src/features/admin/routes/admin-events.tsx'],
  [/^\/admin\/event\/[^/]+\/?$/i, 'src/features/admin/routes/admin-event-form.tsx'],
  [/^\/admin\/mailbox\/?$/i, 'src/features/admin/routes/admin-mailbox.tsx'],
];

/**
 * The forms a visitor opens without data of their own: the server draws them too, so they show at once instead
 * of after the app's code (their titles and descriptions are the pages' own, web/src/features/…/routes).
 * Only for requests without a session cookie, whose header and guards are known without reading a session: a
 * signed-in user is sent on from the first three (sessionRedirect), and their contact page draws in the browser.
 */
const VISITOR_FORMS: Array<[RegExp, { title: string; description?: string }]> = [
  [/^\/login\/?$/i, { title: loginMessages.heading }],
  [/^\/signup\/?$/i, { title: signupMessages.heading }],
  [/^\/forgot-pass\/?$/i, { title: resetPasswordMessages.heading }],
  [/^\/contact\/?$/i, { title: contactMessages.heading, description: contactMessages.description }],
];

/** better-auth's session cookie (server/plugins/auth.ts: prefix 'eventry', __Secure- over https). */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?eventry\.session_token=/;

/**
 * A request's path and query as the browser's router reads them. Not `new URL(url, base)`: that reads
 * `//contact` as a host name with the path `/`, and throws on `//[`.
 */
export function splitUrl(url: string): { pathname: string; search: string } {
  const q = url.indexOf('?');
  return q < 0 ? { pathname: url, search: '' } : { pathname: url.slice(0, q), search: url.slice(q) };
}

function routeOf(pathname: string) {
  return ROUTES.find(([pattern]) => pattern.test(pathname));
}

/** The lazy module of every page in the list. */
export function pageModules(): string[] {
  return ROUTES.map(([, module]) => module);
}

/** The page the web app shows at `pathname` (its lazy module) and its guard; undefined for its 404 page. */
export function pageAt(pathname: string): { module: string; guard: Guard | undefined } | undefined {
  const route = routeOf(pathname);
  return route && { module: route[1], guard: route[2] };
}

/** Where an emailed verification link lands (web/src/app/layout/root-layout.tsx shows how it went). */
const VERIFICATION_LANDING = /[?&](verified|error)=/;

/**
 * SPEC §2: "Admins are redirected from the public pages to /admin", and "A signed-in user reaching login,
 * signup or forgot-pass is sent to / (role user) or /admin (role admin)." The browser's guards do it only
 * once the app has loaded and /api/me has answered, so the page (or a placeholder) showed first; the server
 * sends them on before any of it is drawn. Only requests with a session cookie are looked up: a signed-out
 * visitor costs nothing more. The verification landing (/?verified=1) is left to the browser, which says
 * how the link went before the guard moves on.
 */
export async function sessionRedirect(request: FastifyRequest): Promise<string | undefined> {
  if (!SESSION_COOKIE.test(request.headers.cookie ?? '')) return undefined;
  const { pathname, search } = splitUrl(request.url);
  const guard = routeOf(pathname)?.[2];
  if (!guard || (pathname === '/' && VERIFICATION_LANDING.test(search))) return undefined;
  let user: Awaited<ReturnType<FastifyRequest['currentUser']>>;
  try {
    user = await request.currentUser();
  } catch (error) {
    // The database is unreachable: the page itself still works, and the browser's guards still apply.
    request.log.warn({ err: error }, 'session not read for the redirect');
    return undefined;
  }
  if (!user) return undefined;
  if (guard === 'signed-out') return signedInDestination(user.role, new URLSearchParams(search).get('redirect'));
  return user.role === 'admin' ? '/admin' : undefined;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface PageHead {
  title?: string;
  description?: string;
  image?: string;
  /** How wide the page draws that image (its `sizes`), when it offers the 800 px copy too. */
  imageSizes?: string;
  data?: Record<string, unknown>;
  /**
   * Render the page's HTML on the server: true for public pages whose data is in `data`; 'visitors' for the
   * forms only a signed-out visitor sees as they are (sign-in, sign-up, reset, contact), rendered for requests
   * without a session cookie.
   */
  prerender?: boolean | 'visitors';
  /** 404: the app shows this address as not found (crawlers and monitors then see it too). */
  status?: 404;
}

type RenderPage = (url: string, data: Record<string, unknown>, signal?: AbortSignal) => Promise<string>;

interface Template {
  mtimeMs: number;
  html: string;
  manifest: Manifest;
  /** Files index.html already loads or preloads. */
  referenced: Set<string>;
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** JSON that can sit inside <script type="application/json"> (no '</script>', no '<!--'). */
function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** The web app's own title format (web/src/components/ui/page.tsx useDocumentMeta). */
function documentTitle(title: string): string {
  return title ? `${title} · Eventry` : DEFAULT_TITLE;
}

/** Same text as the event page's own meta description (web/src/features/catalogue/routes/event-details.tsx). */
function eventDescription(event: EventDto): string {
  const text = `${formatDate(event.eventDate)} at ${event.location}, hosted by ${event.host}. ${event.description}`;
  return text.length > 160 ? `${text.slice(0, 157).trimEnd()}...` : text;
}

/**
 * index.html's own stylesheet written into the page (about 9 KB compressed): the first paint then waits for
 * no request after the HTML, one round trip sooner on a slow mobile connection. A disabled link to the
 * file stays beside it. The browser never fetches a disabled stylesheet, and Vite's preload helper takes
 * it as already on the page: a lazy chunk that imports the entry chunk (the toaster, every route) lists
 * the entry's stylesheet among its dependencies, and without the link the first of them fetched the file
 * again and restyled the whole page.
 */
function inlineStylesheets(html: string, webDir: string): string {
  return html.replace(/<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[^"]+\.css)"\s*\/?>/g, (tag, file) => {
    try {
      const css = readFileSync(path.join(webDir, file), 'utf8');
      return css.includes('</') ? tag : `<style>${css}</style>\n    <link rel="stylesheet" href="/${file}" disabled />`;
    } catch {
      return tag;
    }
  });
}

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

export interface RenderedPage {
  html: string;
  /** 200, or 404 for an address the app shows as not found (unknown path, event or category). */
  status: 200 | 404;
}

export interface WebHtml {
  /** index.html for this URL (path and query), with the page's head and data. */
  render(url: string, cookieHeader?: string): Promise<RenderedPage>;
}

/**
 * The HTML in the best encoding the client accepts (the not-found handler that serves it is not a route,
 * so @fastify/compress does not see it).
 */
export function encodeHtml(
  html: string,
  acceptEncoding: string | undefined,
): { body: Buffer | string; encoding?: 'br' | 'gzip' } {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (html.length < 1024) return { body: html };
  if (/\bbr\b/.test(accepted)) {
    return { body: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), encoding: 'br' };
  }
  if (/\bgzip\b/.test(accepted)) return { body: gzipSync(html, { level: 6 }), encoding: 'gzip' };
  return { body: html };
}

export function createWebHtml(app: FastifyInstance, webDir: string): WebHtml {
  const indexPath = path.join(webDir, 'index.html');
  const manifestPath = path.join(webDir, '.vite', 'manifest.json');
  const ssrPath = path.join(webDir, '..', 'web-ssr', 'ssr.js');
  let template: Template | undefined;
  let renderer: { mtimeMs: number; render: Promise<RenderPage | undefined> } | undefined;
  const cache = new Map<string, { at: number; page: RenderedPage }>();

  /** The server-side renderer, if it was built (re-imported when dist/ is rebuilt). */
  function loadRenderer(): Promise<RenderPage | undefined> {
    if (!existsSync(ssrPath)) return Promise.resolve(undefined);
    const mtimeMs = statSync(ssrPath).mtimeMs;
    if (renderer?.mtimeMs !== mtimeMs) {
      const url = `${pathToFileURL(ssrPath).href}?v=${mtimeMs}`;
      const render = import(url).then(
        (module: { renderPage?: RenderPage }) => module.renderPage,
        (error: unknown) => {
          app.log.warn({ err: error }, 'server-side renderer not loaded');
          return undefined;
        },
      );
      renderer = { mtimeMs, render };
    }
    return renderer.render;
  }

  /** The page's HTML from the React components, or undefined (the browser then renders it). */
  async function prerender(url: string, data: Record<string, unknown>): Promise<string | undefined> {
    const render = await loadRenderer();
    if (!render) return undefined;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), RENDER_TIMEOUT_MS);
    try {
      return await render(url, data, abort.signal);
    } catch (error) {
      app.log.warn({ err: error, url }, 'page not rendered on the server');
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Re-read when dist/ is rebuilt under a running server (development, tests). */
  function loadTemplate(): Template {
    const mtimeMs = statSync(indexPath).mtimeMs;
    if (template?.mtimeMs === mtimeMs) return template;
    const html = inlineStylesheets(readFileSync(indexPath, 'utf8'), webDir);
    let manifest: Manifest = {};
    try {
      manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    } catch {
      // No manifest (an older build): pages still work, without per-route preloads.
    }
    const referenced = new Set([...html.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((m) => m[1] ?? ''));
    template = { mtimeMs, html, manifest, referenced };
    return template;
  }

  /**
   * What the page runs beyond index.html's own entry: the app's start module and its imports, then the
   * route's chunk and its imports. web/src/main.tsx asks for all of them at once after the first paint; it
   * then evaluates the libraries and the app in separate tasks, and neither step waits on the network.
   */
  function pageChunks(t: Template, pathname: string): string[] {
    const key = routeOf(pathname)?.[1];
    const files: string[] = [];
    const seen = new Set<string>();
    const visit = (name: string) => {
      const chunk = t.manifest[name];
      if (!chunk || seen.has(name)) return;
      seen.add(name);
      if (!t.referenced.has(chunk.file)) files.push(chunk.file);
      for (const child of chunk.imports ?? []) visit(child);
    };
    visit(APP_MODULE);
    if (key) visit(key);
    return files;
  }

  async function getJson<T>(url: string): Promise<T | undefined> {
    return (await getApi<T>(url)).data;
  }

  /** The API's answer to `url`: its data when 200; status 0 when it failed or took too long. */
  async function getApi<T>(url: string): Promise<{ status: number; data?: T }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), DATA_TIMEOUT_MS);
    });
    try {
      const response = await Promise.race([app.inject({ method: 'GET', url }), timeout]);
      if (response?.statusCode !== 200) return { status: response?.statusCode ?? 0 };
      return { status: 200, data: JSON.parse(response.body) as T };
    } catch {
      return { status: 0 };
    } finally {
      clearTimeout(timer);
    }
  }

  /** What the page at `pathname` needs first; nothing for pages without public data. */
  async function pageHead(pathname: string, search: URLSearchParams): Promise<PageHead> {
    if (pathname === '/') {
      const params = { category: ALL_CATEGORIES, q: '', page: 1 };
      const page = await getJson<EventsPage>('/api/events');
      return {
        title: '',
        description:
          'Discover concerts, sports, tech meetups, art and food events near you, and book your tickets in seconds.',
        image: page?.items[0]?.imageUrl,
        data: page ? { events: { params, data: page } } : undefined,
        prerender: page !== undefined,
      };
    }
    const list = /^\/events-page\/([^/]+)\/?$/i.exec(pathname);
    if (list) {
      const category = safeDecode(list[1] ?? '');
      if (category === undefined) return {};
      // The same parameters as the page's own request (web/src/features/catalogue/routes/events-page.tsx).
      const q = (search.get('q') ?? '').slice(0, SEARCH_QUERY_MAX_LENGTH).trim();
      const pageNumber = parsePage(search.get('page'));
      const query = new URLSearchParams();
      if (category !== ALL_CATEGORIES) query.set('category', category);
      if (q) query.set('q', q);
      if (pageNumber > 1) query.set('page', String(pageNumber));
      const [page, categories] = await Promise.all([
        getJson<EventsPage>(`/api/events${query.size > 0 ? `?${query}` : ''}`),
        getJson<Category[]>('/api/categories'),
      ]);
      const view = categoryView(category, categories);
      return {
        title: view.heading,
        description: categoryDescription(view),
        image: page?.items[0]?.imageUrl,
        imageSizes: EVENT_CARD_SIZES,
        data:
          page && categories
            ? { events: { params: { category, q, page: pageNumber }, data: page }, categories }
            : undefined,
        prerender: page !== undefined && categories !== undefined,
        ...(view.unknown ? { status: 404 as const } : {}),
      };
    }
    const detail = /^\/event-details\/([^/]+)\/?$/i.exec(pathname);
    if (detail) {
      const id = safeDecode(detail[1] ?? '') ?? '';
      // The page sends both to /404: an id that cannot be one, and one the API does not know.
      if (!isUuid(id)) return { status: 404 };
      const { status, data: event } = await getApi<EventDto>(`/api/events/${encodeURIComponent(id)}`);
      if (status === 404) return { status: 404 };
      if (!event) return {};
      return {
        title: event.title,
        description: eventDescription(event),
        image: event.imageUrl,
        imageSizes: EVENT_HERO_SIZES,
        data: { event: { id, data: event } },
        prerender: true,
      };
    }
    const form = VISITOR_FORMS.find(([pattern]) => pattern.test(pathname));
    if (form) return { ...form[1], prerender: 'visitors' };
    // web/src/app/router.tsx sends every other address to /404 (and /404 is not found either).
    return routeOf(pathname) ? {} : { status: 404 };
  }

  async function renderNow(url: string, visitor: boolean): Promise<RenderedPage> {
    const t = loadTemplate();
    const { pathname, search } = splitUrl(url);
    let head: PageHead = {};
    try {
      head = await pageHead(pathname, new URLSearchParams(search));
    } catch (error) {
      app.log.warn({ err: error, url }, 'page head not rendered');
    }
    let html = t.html;
    if (head.title !== undefined) {
      html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(documentTitle(head.title))}</title>`);
    }
    if (head.description !== undefined) {
      html = html.replace(
        /<meta name="description" content="[^"]*"\s*\/?>/,
        `<meta name="description" content="${escapeHtml(head.description)}" />`,
      );
    }
    const links: string[] = [];
    if (head.image) {
      // The same choice as the page's <img> (contracts/images.ts), so the browser fetches one file, once.
      const srcSet = head.imageSizes ? responsiveImage(head.image, head.imageSizes).srcSet : undefined;
      const choice = srcSet
        ? ` imagesrcset="${escapeHtml(srcSet)}" imagesizes="${escapeHtml(head.imageSizes ?? '')}"`
        : '';
      links.push(`<link rel="preload" as="image" href="${escapeHtml(head.image)}"${choice} fetchpriority="high" />`);
    }
    // Not <link rel="modulepreload">: the page paints before any JavaScript is fetched; web/src/main.tsx then
    // fetches these beside the app itself, so the page's chunk does not wait for the router to ask for it.
    const chunks = pageChunks(t, pathname);
    if (chunks.length > 0) {
      links.push(`<meta name="${PAGE_CHUNKS_META}" content="${escapeHtml(chunks.map((f) => `/${f}`).join(' '))}" />`);
    }
    if (links.length > 0) html = html.replace(/\s*<\/head>/, `\n    ${links.join('\n    ')}\n  </head>`);
    // Without a session cookie the visitor is signed out: say so, and the page need not ask /api/me.
    const data = visitor ? { ...head.data, me: null } : head.data;
    if (data) {
      const rendered = head.prerender === true || (head.prerender === 'visitors' && visitor);
      const body = rendered ? ((await prerender(`${pathname}${search}`, data)) ?? '') : '';
      html = html.replace(
        '<div id="root"></div>',
        `<div id="root">${body}</div>\n    <script type="application/json" id="${INITIAL_DATA_ELEMENT_ID}">${jsonForHtml(data)}</script>`,
      );
    }
    return { html, status: head.status ?? 200 };
  }

  return {
    async render(url, cookieHeader) {
      // Signed-in visitors get the same page, minus the 'signed out' hint (the page asks /api/me).
      const visitor = !SESSION_COOKIE.test(cookieHeader ?? '');
      const key = `${visitor ? 'v' : 's'} ${url}`;
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && now - hit.at < CACHE_TTL_MS) return hit.page;
      const page = await renderNow(url, visitor);
      if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
      cache.set(key, { at: now, page });
      return page;
    },
  };
}
