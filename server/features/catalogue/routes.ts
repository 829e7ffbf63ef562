import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import { archivePastEvents, getCategories, getEvent, listEvents, searchEvents } from './service';

const ARCHIVE_JOB = 'archive-past-events';
const ARCHIVE_EVERY_MS = 60_000;

/**
 * A weak ETag over the body: cheap revalidation for lists that the live stream keeps fresh anyway.
 * Answers 304 (and returns undefined) when the client already has it.
 */
function withEtag<T>(request: FastifyRequest, reply: FastifyReply, body: T): T | undefined {
  const etag = `W/"${createHash('sha1').update(JSON.stringify(body)).digest('base64url')}"`;
  reply.header('etag', etag).header('cache-control', 'no-cache');
  const match = request.headers['if-none-match'];
  if (match?.split(',').some((tag) => tag.trim() === etag)) {
    reply.code(304);
    return undefined;
  }
  return body;
}

/** HTTP routes of the catalogue: categories, events (list, detail, header search), live updates; the archive job. */
export const catalogueRoutes: FastifyPluginAsyncZod<{ config: Pick<AppConfig, 'timeZone'> }> = async (app, opts) => {
  const db = app.database.db;
  const timeZone = opts.config.timeZone;

  app.scheduler.every(ARCHIVE_JOB, ARCHIVE_EVERY_MS, async () => {
    const archived = await archivePastEvents(db, timeZone);
    if (archived.length > 0) app.log.info({ count: archived.length }, 'archived past events');
  });

  app.get(
    '/api/categories',
    {
      schema: { tags: ['catalogue'], summary: 'All categories', response: { 200: categoriesResponseSchema } },
    },
    async (request, reply) => withEtag(request, reply, await getCategories(db)) as never,
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
    },
    async (request, reply) => withEtag(request, reply, await listEvents(db, request.query)) as never,
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
    },
    async (request, reply) => withEtag(request, reply, { items: await searchEvents(db, request.query.q) }) as never,
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
      app.live.stream(request, reply);
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
    },
    async (request, reply) => withEtag(request, reply, await getEvent(db, request.params.id)) as never,
  );
};
