import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { bundleMessages, i18nOf } from '../../contracts/i18n/all';
import type { Bundle } from '../../contracts/i18n/bundles';
import type { I18n } from '../../contracts/i18n/i18n';
import {
  LANG_COOKIE,
  LANG_COOKIE_MAX_AGE_S,
  LANGUAGES,
  type Lang,
  langOfRequest,
} from '../../contracts/i18n/languages';
import { safeRedirectPath } from '../../contracts/redirect';

/** A request's language: its `lang` cookie, else its Accept-Language (contracts/i18n/languages.ts). */
export function requestLang(request: Pick<FastifyRequest, 'headers'>): Lang {
  return langOfRequest(request.headers.cookie, request.headers['accept-language']);
}

/** A request's texts and formats. */
export function requestI18n(request: Pick<FastifyRequest, 'headers'>): I18n {
  return i18nOf(requestLang(request));
}

/** What else remembers a visitor's choice of language (the accounts feature: a signed-in user's profile). */
export type LanguageChosen = (request: FastifyRequest, lang: Lang) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Adds what happens when a visitor chooses a language (GET /api/language/:lang). */
    onLanguageChosen(listener: LanguageChosen): void;
  }
}

/** The Set-Cookie of a language choice: a year, every page, sent on top-level navigations from other sites. */
export function languageCookie(lang: Lang): string {
  return `${LANG_COOKIE}=${lang}; Path=/; Max-Age=${LANG_COOKIE_MAX_AGE_S}; SameSite=Lax`;
}

const bundleBodies = new Map<string, { body: string; etag: string; version: string }>();

/** A bundle of messages as GET /api/messages/:lang/:bundle sends it, with its ETag (made once, kept). */
function bundleBody(lang: Lang, bundle: Bundle): { body: string; etag: string; version: string } {
  const key = `${lang}/${bundle}`;
  let entry = bundleBodies.get(key);
  if (!entry) {
    const body = JSON.stringify(bundleMessages(lang, bundle));
    const version = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    entry = { body, etag: `"${version}"`, version };
    bundleBodies.set(key, entry);
  }
  return entry;
}

/**
 * The address of a bundle of messages in this version of its texts: a browser keeps it for a year, and the next
 * version of the texts has another address.
 */
export function messagesUrl(lang: Lang, bundle: Bundle): string {
  return `/api/messages/${lang}/${bundle}?v=${bundleBody(lang, bundle).version}`;
}

/**
 * GET /api/language/:lang?to=/path: the language switch (a plain link, so it works before the app has taken the
 * page over). Keeps the choice in a cookie (and through the listeners, in a signed-in user's profile) and sends the
 * browser back to the same page, now drawn in that language.
 *
 * GET /api/messages/:lang/:bundle: a bundle of messages. A page's HTML names those its app needs (messagesUrl,
 * web/src/main.tsx fetches them after the first paint); the admin area's chunk asks for the area's when it comes
 * from a public page (web/src/lib/load-messages.ts). The same for everyone, so shared caches may keep it; the
 * ETag changes with the text, and an address with the current version (?v=) is kept for a year.
 */
async function i18nRoutes(app: FastifyInstance) {
  const listeners = languageListeners.get(app) ?? [];

  app.get(
    '/api/language/:lang',
    {
      schema: {
        hide: true,
        params: z.strictObject({ lang: z.enum(LANGUAGES) }),
        querystring: z.object({ to: z.string().max(2048).optional() }),
      },
    },
    async (request, reply) => {
      const { lang } = request.params as { lang: Lang };
      const { to } = request.query as { to?: string };
      for (const listener of listeners) await listener(request, lang);
      return reply
        .header('set-cookie', languageCookie(lang))
        .header('cache-control', 'no-store')
        .redirect(safeRedirectPath(to), 303);
    },
  );

  app.get(
    '/api/messages/:lang/:bundle',
    {
      schema: {
        hide: true,
        params: z.strictObject({ lang: z.enum(LANGUAGES), bundle: z.enum(['site', 'admin']) }),
        querystring: z.object({ v: z.string().max(64).optional() }),
      },
    },
    async (request, reply) => {
      const { lang, bundle } = request.params as { lang: Lang; bundle: Bundle };
      const { v } = request.query as { v?: string };
      const entry = bundleBody(lang, bundle);
      reply
        .header(
          'cache-control',
          v === entry.version ? 'public, max-age=31536000, immutable' : 'public, max-age=300, must-revalidate',
        )
        .header('etag', entry.etag);
      if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(entry.body);
    },
  );
}

/** What each app does when a visitor chooses a language (onLanguageChosen adds to it). */
const languageListeners = new WeakMap<FastifyInstance, LanguageChosen[]>();

/** app.onLanguageChosen, for the features registered after it. */
async function i18n(app: FastifyInstance) {
  const listeners: LanguageChosen[] = [];
  languageListeners.set(app, listeners);
  app.decorate('onLanguageChosen', (listener: LanguageChosen) => {
    listeners.push(listener);
  });
}

export const i18nPlugin = fp(i18n, { name: 'i18n', dependencies: [] });
/** The routes, registered with the others: after the security headers and compression (server/app.ts). */
export const i18nRoutesPlugin = fp(i18nRoutes, { name: 'i18n-routes', dependencies: ['i18n'] });
