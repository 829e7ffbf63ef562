import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { bundleMessages, i18nOf } from '../../contracts/i18n/all';
import { BUNDLES, type Bundle } from '../../contracts/i18n/bundles';
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

/**
 * GET /api/language/:lang?to=/path: the language switch (a plain link, so it works before the app has taken the
 * page over). Keeps the choice in a cookie (and through the listeners, in a signed-in user's profile) and sends the
 * browser back to the same page, now drawn in that language.
 *
 * GET /api/messages/:lang/:bundle: a bundle of messages the page was not sent with (the admin area's, fetched
 * with its chunk: web/src/lib/i18n.tsx). The same for everyone, so shared caches may keep it; the ETag changes
 * with the text.
 */
async function i18n(app: FastifyInstance) {
  const listeners: LanguageChosen[] = [];
  app.decorate('onLanguageChosen', (listener: LanguageChosen) => {
    listeners.push(listener);
  });

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

  const bodies = new Map<string, { body: string; etag: string }>();
  for (const lang of LANGUAGES) {
    for (const bundle of Object.keys(BUNDLES) as Bundle[]) {
      const body = JSON.stringify(bundleMessages(lang, bundle));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      bodies.set(`${lang}/${bundle}`, { body, etag });
    }
  }
  app.get(
    '/api/messages/:lang/:bundle',
    {
      schema: {
        hide: true,
        params: z.strictObject({ lang: z.enum(LANGUAGES), bundle: z.enum(['site', 'admin']) }),
      },
    },
    async (request, reply) => {
      const { lang, bundle } = request.params as { lang: Lang; bundle: Bundle };
      const entry = bodies.get(`${lang}/${bundle}`);
      if (!entry) return reply.code(404).send();
      reply.header('cache-control', 'public, max-age=300, must-revalidate').header('etag', entry.etag);
      if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(entry.body);
    },
  );
}

export const i18nPlugin = fp(i18n, { name: 'i18n', dependencies: [] });
