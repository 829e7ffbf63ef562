import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { bundleMessages, i18nOf } from '../../contracts/i18n/all';
import { BUNDLES, type Bundle } from '../../contracts/i18n/bundles';
import type { I18n } from '../../contracts/i18n/i18n';
import { LANGUAGES, type Lang, langOfRequest } from '../../contracts/i18n/languages';

/** A request's language: its `lang` cookie, else its Accept-Language (contracts/i18n/languages.ts). */
export function requestLang(request: Pick<FastifyRequest, 'headers'>): Lang {
  return langOfRequest(request.headers.cookie, request.headers['accept-language']);
}

/** A request's texts and formats. */
export function requestI18n(request: Pick<FastifyRequest, 'headers'>): I18n {
  return i18nOf(requestLang(request));
}

/**
 * GET /api/messages/:lang/:bundle: a bundle of messages the page was not sent with (the admin area's, fetched
 * with its chunk: web/src/lib/i18n.tsx). The same for everyone, so shared caches may keep it; the ETag changes
 * with the text.
 */
async function i18n(app: FastifyInstance) {
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
