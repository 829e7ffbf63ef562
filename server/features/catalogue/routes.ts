import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import {
  categoriesResponseSchema,
  eventIdParamsSchema,
  eventSchema,
  eventSearchQuerySchema,
  eventSearchResponseSchema,
  eventsPageSchema,
  eventsQuerySchema,
} from '../../../contracts/catalogue';
import { problemSchema } from '../../../contracts/problem';
import type { AppConfig } from '../../env';
import { answerForm, type CacheScope, cachedAnswer, ResponseCache, sendCached, uncachedEntry } from './response-cache';
import { createCatalogueService } from './service';

const ARCHIVE_JOB = 'archive-past-events';
const ARCHIVE_EVERY_MS = 60_000;
/**
 * Browsers revalidate every time (the ETag makes that a cheap 304): a stored copy served without asking
 * would hide a change from a page that refetches because the live stream announced it.
 */
const CACHE_CONTROL = 'no-cache';

export interface CatalogueRoutesOptions {
  config: Pick<AppConfig, 'timeZone' | 'nodeEnv'>;
  /**
   * Keep finished answers in memory, invalidated by the live-update notifications (default: on, except under
   * NODE_ENV=test, whose tests write straight to the database and read back at once, faster than a notification).
   */
  responseCache?: boolean;
}

/** HTTP routes of the catalogue: categories, events (list, detail, header search), live updates; the archive job. */
export const catalogueRoutes: FastifyPluginAsyncZod<CatalogueRoutesOptions> = async (app, opts) => {
  const catalogue = createCatalogueService({ db: app.database.db, timeZone: opts.config.timeZone });
  const cacheEnabled = opts.responseCache ?? opts.config.nodeEnv !== 'test';
  const cache = new ResponseCache({ maxEntries: 1000 });
  // Every change of the events table (from any process) reaches us here before it reaches the SSE clients.
  app.notifications.onEventChange((change) => (change ? cache.invalidateEvent(change.id) : cache.clear()));
  /** Only while LISTENing: without notifications a cached answer could stay stale. */
  const cacheUsable = () => cacheEnabled && app.notifications.listening;

  /** onRequest: a repeat of a cached URL is answered before parsing, validation or any database work. */
  function serveFromCache(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const entry = cacheUsable() ? cache.get(request.url) : undefined;
    if (entry === undefined) {
      done();
      return;
    }
    sendCached(request, reply, entry, CACHE_CONTROL);
  }

  // A repeat of a cached URL over HTTP does not even reach Fastify: the server's front door writes the same answer.
  app.frontDoor.serve((url, headers) => {
    const entry = cacheUsable() ? cache.get(url) : undefined;
    if (entry?.route === undefined) return undefined;
    const form = answerForm(entry, headers['if-none-match'], headers['accept-encoding']);
    return form === undefined ? undefined : cachedAnswer(entry, form, CACHE_CONTROL);
  });

  /** Answers from the cache or from `load` (validated against `schema`, exactly as the serializer would). */
  async function answer<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    scope: CacheScope,
    schema: ZodType<T>,
    load: () => Promise<T>,
  ): Promise<never> {
    // `never`: the reply is sent here (a pre-serialised string), so the route's serializer is not involved.
    const produce = async () => JSON.stringify(schema.parse(await load()));
    if (!cacheUsable()) {
      return sendCached(request, reply, uncachedEntry(await produce(), scope), CACHE_CONTROL) as never;
    }
    const entry = await cache.fill(key, scope, produce, request.routeOptions.url);
    cache.alias(request.url, entry);
    return sendCached(request, reply, entry, CACHE_CONTROL) as never;
  }

  app.scheduler.every(ARCHIVE_JOB, ARCHIVE_EVERY_MS, async () => {
    const archived = await catalogue.archivePastEvents();
    if (archived.length > 0) app.log.info({ count: archived.length }, 'archived past events');
  });

  app.get(
    '/api/categories',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'All categories',
        response: { 200: categoriesResponseSchema, 304: z.null() },
      },
      onRequest: serveFromCache,
    },
    (request, reply) =>
      answer(request, reply, 'categories', { kind: 'static' }, categoriesResponseSchema, () =>
        catalogue.getCategories(),
      ),
  );

  app.get(
    '/api/events',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Active events, 6 a page, by event date then start time',
        querystring: eventsQuerySchema,
        response: { 200: eventsPageSchema, 304: z.null() },
      },
      onRequest: serveFromCache,
    },
    (request, reply) =>
      answer(
        request,
        reply,
        `events:${catalogue.listEventsKey(request.query)}`,
        { kind: 'events' },
        eventsPageSchema,
        () => catalogue.listEvents(request.query),
      ),
  );

  app.get(
    '/api/events/search',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Header search: active events whose title starts with q',
        querystring: eventSearchQuerySchema,
        response: { 200: eventSearchResponseSchema, 304: z.null() },
      },
      onRequest: serveFromCache,
    },
    (request, reply) =>
      answer(
        request,
        reply,
        `search:${request.query.q.toLowerCase()}`,
        { kind: 'events' },
        eventSearchResponseSchema,
        async () => ({ items: await catalogue.searchEvents(request.query.q) }),
      ),
  );

  app.get(
    '/api/events/live',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Server-Sent Events: `change` {op,id,ticketsAvailable,isDeleted,version}, `resync`, `ready`',
      },
    },
    (request, reply) => {
      app.notifications.stream(request, reply);
    },
  );

  app.get(
    '/api/events/:id',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'One active event',
        params: eventIdParamsSchema,
        response: { 200: eventSchema, 304: z.null(), 404: problemSchema },
      },
      onRequest: serveFromCache,
    },
    (request, reply) =>
      answer(
        request,
        reply,
        `event:${request.params.id.toLowerCase()}`,
        eventScope(request.params.id),
        eventSchema,
        () => catalogue.getEvent(request.params.id),
      ),
  );
};

function eventScope(id: string): CacheScope {
  return { kind: 'event', id: id.toLowerCase() };
}
