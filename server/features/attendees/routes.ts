import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attendeesPageSchema, attendeesParamsSchema, attendeesQuerySchema } from '../../../contracts/attendees';
import { dashboardQuerySchema } from '../../../contracts/dashboard';
import { problemSchema } from '../../../contracts/problem';
import { csvResponses, sendCsv } from '../../domain/csv';
import { requestI18n } from '../../plugins/i18n';
import { createAttendeesService } from './service';

/**
 * The organiser's attendees list of an event and its CSV. Admins only: every /api/admin route is
 * (server/plugins/auth.ts).
 */
export const attendeesRoutes: FastifyPluginAsyncZod<{ timeZone: string }> = async (app, opts) => {
  const service = createAttendeesService({
    db: app.database.pool,
    timeZone: opts.timeZone,
    refundFailures: (eventId) => app.ticketing.refunds.refundFailures(eventId),
  });
  const tags = ['admin'];
  const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema };

  app.get(
    '/api/admin/events/:id/attendees',
    {
      schema: {
        tags,
        summary: "An event's tickets with their buyers and check-ins, 50 a page, searchable; with the event's counts",
        params: attendeesParamsSchema,
        querystring: attendeesQuerySchema,
        response: { 200: attendeesPageSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.list(request.params.id, request.query);
    },
  );

  app.get(
    '/api/admin/events/:id/attendees.csv',
    {
      schema: {
        tags,
        summary:
          "Every ticket of an event with its buyer and check-in, as CSV (UTF-8 with a BOM; the app's time zone; headings in the request's language)",
        params: attendeesParamsSchema,
        ...csvResponses({ 401: problemSchema, 403: problemSchema, 404: problemSchema }),
      },
    },
    async (request, reply) => {
      return sendCsv(reply, await service.csv(request.params.id, requestI18n(request)));
    },
  );

  app.get(
    '/api/admin/attendees.csv',
    {
      schema: {
        tags,
        summary:
          "The tickets of the orders paid in a range of days (the dashboard's query: from, to, eventId), as CSV with each ticket's event",
        querystring: dashboardQuerySchema,
        ...csvResponses(errors),
      },
    },
    async (request, reply) => {
      return sendCsv(reply, await service.rangeCsv(request.query, requestI18n(request)));
    },
  );
};
