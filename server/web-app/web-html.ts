import type { FastifyInstance } from 'fastify';
import { i18nOf } from '../../contracts/i18n/all';
import type { I18n } from '../../contracts/i18n/i18n';
import { dirOf, type Lang } from '../../contracts/i18n/languages';
import { responsiveImage } from '../../contracts/images';
import { ADMIN_ROUTES_MODULE, isAdminAreaPath } from '../../contracts/pages';
import { messagesUrl } from '../plugins/i18n';
import { escapeHtml, jsonForHtml } from './html-encoding';
import { type PageHead, pageHeads } from './page-head';
import { matchPage, splitUrl } from './page-match';
import { reactRenderer } from './react-render';
import { hasSessionCookie } from './session-redirect';
import { criticalStyles, pageChunks, templateLoader } from './template';

/**
 * index.html for a page of the web app, with what the first paint needs already in it: the page's <title>
 * and meta description, the list of the page's chunks (from Vite's manifest), a high-priority preload of the
 * page's largest image, and the API answers the page would fetch first as a JSON data block
 * (web/src/app/initial-data.ts seeds the query cache with it). The public pages (home, events list, event
 * detail) and, for signed-out visitors, the sign-in, sign-up, reset and contact forms also come rendered, by
 * the same React components (react-render.ts), and the browser hydrates them. HTML → JS → /api/events →
 * image becomes HTML (painted at once) → (JS, image) in parallel.
 */

/** The meta element listing the chunks the page runs beyond index.html's entry (web/src/main.tsx reads it). */
const PAGE_CHUNKS_META = 'page-chunks';
/** The id of the data block (web/src/app/initial-data.ts reads it). */
const INITIAL_DATA_ELEMENT_ID = 'initial-data';
/** The meta element listing the addresses of the app's messages (web/src/main.tsx fetches them). */
const MESSAGES_META = 'messages';
/** Rendered pages are reused this long (the live stream corrects anything that changed since). */
const CACHE_TTL_MS = 1_000;
const CACHE_MAX_ENTRIES = 500;

/** The web app's own title format (web/src/components/ui/page.tsx useDocumentMeta). */
function documentTitle(title: string, i18n: I18n): string {
  return title ? `${title} · ${i18n.t('common.brand')}` : i18n.t('common.siteTitle');
}

/**
 * The addresses of the site's messages (and, on an admin area's page, of the admin area's) in the page's language.
 * Not the texts themselves: the HTML is already written in its language, and only the app needs them, after the
 * first paint. 7–9 KB compressed on every page, they would take it past the first round trip of a slow connection.
 */
function messagesMeta(lang: Lang, admin: boolean): string {
  const urls = admin ? [messagesUrl(lang, 'site'), messagesUrl(lang, 'admin')] : [messagesUrl(lang, 'site')];
  return `<meta name="${MESSAGES_META}" content="${escapeHtml(urls.join(' '))}" />`;
}

export interface RenderedPage {
  html: string;
  /** 200, or 404 for an address the app shows as not found (unknown path, event or category). */
  status: 200 | 404;
}

export interface WebHtml {
  /** index.html for this URL (path and query) in a language, with the page's head, texts and data. */
  render(url: string, lang: Lang, cookieHeader?: string): Promise<RenderedPage>;
}

export function createWebHtml(app: FastifyInstance, webDir: string): WebHtml {
  const loadTemplate = templateLoader(webDir);
  const pageHead = pageHeads(app);
  const renderReact = reactRenderer(app, webDir);
  const cache = new Map<string, { at: number; page: RenderedPage }>();

  async function renderNow(url: string, lang: Lang, visitor: boolean): Promise<RenderedPage> {
    const template = loadTemplate();
    const i18n = i18nOf(lang);
    const { pathname, search } = splitUrl(url);
    const match = matchPage(pathname);
    const isAdminArea = match ? isAdminAreaPath(match.page.path) : false;
    let head: PageHead = {};
    try {
      head = await pageHead(match, new URLSearchParams(search), i18n);
    } catch (error) {
      app.log.warn({ err: error, url }, 'page head not rendered');
    }
    // The page is in its language before any script runs: no flash of English, nor of a left-to-right layout.
    let html = template.html
      .replace(/<html lang="[^"]*"/, `<html lang="${lang}" dir="${dirOf(lang)}"`)
      .replace(/<noscript>[^<]*<\/noscript>/, `<noscript>${escapeHtml(i18n.t('common.noScript'))}</noscript>`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(documentTitle(head.title ?? '', i18n))}</title>`)
      .replace(
        /<meta name="description" content="[^"]*"\s*\/?>/,
        `<meta name="description" content="${escapeHtml(head.description ?? i18n.t('common.siteDescription'))}" />`,
      );
    const links: string[] = [messagesMeta(lang, isAdminArea)];
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
    // An admin area's page also needs the chunk of that area's route table (contracts/pages.ts ADMIN_AREA).
    const area = isAdminArea ? ADMIN_ROUTES_MODULE : undefined;
    const chunks = pageChunks(template, area, match?.page.module);
    if (chunks.length > 0) {
      links.push(`<meta name="${PAGE_CHUNKS_META}" content="${escapeHtml(chunks.map((f) => `/${f}`).join(' '))}" />`);
    }
    html = html.replace(/\s*<\/head>/, `\n    ${links.join('\n    ')}\n  </head>`);
    // Without a session cookie the visitor is signed out: say so, and the page need not ask /api/me.
    const data = visitor ? { ...head.data, me: null } : head.data;
    const blocks: string[] = [];
    let body = '';
    if (data) {
      const rendered = head.prerender === true || (head.prerender === 'visitors' && visitor);
      body = rendered ? ((await renderReact(`${pathname}${search}`, data, lang)) ?? '') : '';
      blocks.push(`<script type="application/json" id="${INITIAL_DATA_ELEMENT_ID}">${jsonForHtml(data)}</script>`);
    }
    html = html.replace(
      '<div id="root"></div>',
      `<div id="root">${body}</div>${blocks.map((b) => `\n    ${b}`).join('')}`,
    );
    return { html: criticalStyles(template, html), status: head.status ?? 200 };
  }

  return {
    async render(url, lang, cookieHeader) {
      // Signed-in visitors get the same page, minus the 'signed out' hint (the page asks /api/me).
      const visitor = !hasSessionCookie(cookieHeader);
      const key = `${lang} ${visitor ? 'v' : 's'} ${url}`;
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && now - hit.at < CACHE_TTL_MS) return hit.page;
      const page = await renderNow(url, lang, visitor);
      if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
      cache.set(key, { at: now, page });
      return page;
    },
  };
}
