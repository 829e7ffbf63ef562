import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminEventIdParamsSchema,
  adminEventsPageSchema,
  adminEventsQuerySchema,
  adminFormMetaSchema,
  uploadResultSchema,
} from '../../../contracts/admin';
import { eventSchema } from '../../../contracts/catalogue';
import { MAX_UPLOAD_BYTES } from '../../../contracts/constants';
import { adminRefundAnswerSchema, cancelEventAnswerSchema } from '../../../contracts/refunds';
import type { AppConfig } from '../../env';
import { AppError } from '../../plugins/errors';
import { readSingleUpload, type UploadFailure, UploadRefused } from '../../plugins/single-upload';
import { InvalidImageError } from '../../plugins/storage';
import { createAdminService } from './service';

const eventBodySchema = z
  .record(z.string(), z.unknown())
  .describe('The event form: see contracts/admin.ts (eventInputSchema). price is EGP with at most 2 decimals.');

/** `If-Match: "3"` → 3 (optimistic concurrency on the event's version); absent → undefined. */
function expectedVersion(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw new AppError(400, 'BAD_IF_MATCH', 'admin.badIfMatch');
  return Number(match[1]);
}

/** The problem answered for each way an event-image upload can be refused (details are message keys). */
const UPLOAD_PROBLEMS: Record<UploadFailure, () => AppError> = {
  'not-multipart': () => new AppError(400, 'UPLOAD_MISSING', 'admin.uploadMissing'),
  missing: () => new AppError(400, 'UPLOAD_MISSING', 'admin.uploadMissing'),
  'too-large': () => new AppError(400, 'UPLOAD_TOO_LARGE', 'admin.uploadTooLarge'),
  'bad-name': () => new AppError(400, 'UPLOAD_BAD_NAME', 'admin.uploadBadName'),
  invalid: () => new AppError(400, 'UPLOAD_INVALID', 'admin.uploadOneFile'),
};

/** HTTP routes of the admin area: event list, form, soft delete and image upload. Admins only. */
export const adminRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app, opts) => {
  const service = createAdminService({ db: app.database.db, uploads: app.uploads, timeZone: opts.config.timeZone });

  // Every route of this plugin, before any body is read: 401 when signed out, 403 for non-admins.
  app.addHook('onRequest', app.requireAdmin);

  await app.register(multipart, {
    // preservePath: see the name as sent (busboy would strip '../'), so that path tricks are refused, not hidden.
    preservePath: true,
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 2, fieldNameSize: 100, headerPairs: 100 },
  });

  const tags = ['admin'];

  app.get(
    '/api/admin/events',
    {
      schema: { tags, querystring: adminEventsQuerySchema, response: { 200: adminEventsPageSchema } },
    },
    async (request) => service.listEvents(request.query),
  );

  app.get('/api/admin/form-meta', { schema: { tags, response: { 200: adminFormMetaSchema } } }, async () =>
    service.getFormMeta(),
  );

  app.get(
    '/api/admin/events/:id',
    { schema: { tags, params: adminEventIdParamsSchema, response: { 200: eventSchema } } },
    async (request, reply) => {
      const event = await service.getEvent(request.params.id);
      reply.header('etag', `"${event.version}"`).header('cache-control', 'no-store');
      return event;
    },
  );

  app.post(
    '/api/admin/events',
    { schema: { tags, body: eventBodySchema, response: { 201: eventSchema } } },
    async (request, reply) => {
      const event = await service.createEvent(request.body);
      return reply.status(201).header('etag', `"${event.version}"`).send(event);
    },
  );

  app.put(
    '/api/admin/events/:id',
    { schema: { tags, params: adminEventIdParamsSchema, body: eventBodySchema, response: { 200: eventSchema } } },
    async (request, reply) => {
      const version = expectedVersion(request.headers['if-match']);
      const event = await service.updateEvent(request.params.id, request.body, version);
      return reply.header('etag', `"${event.version}"`).send(event);
    },
  );

  app.delete(
    '/api/admin/events/:id',
    { schema: { tags, params: adminEventIdParamsSchema } },
    async (request, reply) => {
      await service.deleteEvent(request.params.id);
      // Its holds end at once (their tickets go back, the payment page is told by the live stream, a provider's
      // payment is cancelled): best effort after the delete has committed (app.ticketing says what is left).
      await app.ticketing.endHoldsOfDeletedEvent(request.params.id, request.log);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/admin/events/:id/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancel the event (not the same as deleting it): nothing more is sold, its holds end, every paid booking is refunded in full and its buyer emailed',
        params: adminEventIdParamsSchema,
        response: { 200: cancelEventAnswerSchema },
      },
    },
    async (request) => app.ticketing.refunds.cancelEvent(request.params.id, (await request.user()).id),
  );

  app.post(
    '/api/admin/bookings/:id/refund',
    {
      schema: {
        tags,
        summary: "Refund what is left of a paid booking in full, whatever the event's policy",
        params: adminEventIdParamsSchema,
        response: { 200: adminRefundAnswerSchema },
      },
    },
    async (request) => {
      const { refundPiasters, status } = await app.ticketing.refunds.refundByOrganiser(
        request.params.id,
        (await request.user()).id,
      );
      return { refundPiasters, bookingId: request.params.id, status };
    },
  );

  // One image in the field 'file'. Its name and declared type are ignored: sharp decides what it is.
  app.post(
    '/api/admin/uploads',
    {
      schema: {
        tags,
        summary: 'Upload an event image (multipart field "file": one JPEG, PNG or WebP of at most 5 MB)',
        consumes: ['multipart/form-data'],
        response: { 201: uploadResultSchema },
      },
    },
    async (request, reply) => {
      let data: Buffer;
      try {
        data = await readSingleUpload(request);
      } catch (error) {
        if (!(error instanceof UploadRefused)) throw error;
        throw UPLOAD_PROBLEMS[error.reason]();
      }
      try {
        return reply.status(201).send({ url: await service.uploadImage(data) });
      } catch (error) {
        // Not a picture sharp can read: the same problem, its words in the request's language.
        if (error instanceof InvalidImageError) throw new AppError(400, error.code, 'admin.uploadNotImage');
        throw error;
      }
    },
  );
};
