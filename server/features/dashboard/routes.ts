import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eventIdParamsSchema } from '../../../contracts/catalogue';
import { dashboardQuerySchema, dashboardSchema } from '../../../contracts/dashboard';
import { isUuid } from '../../../contracts/ids';
import { problemSchema } from '../../../contracts/problem';
import { csvResponses, sendCsv } from '../../domain/csv';
import { NotFoundError } from '../../plugins/errors';
import { requestI18n } from '../../plugins/i18n';
import { createDashboardService } from './service';
import { createViewCounter, VIEWS_FLUSH_MS } from './views';

const CLOSE_DAYS_JOB = 'close-dashboard-days';
/** A day is closed within this long of its end (unless a transaction that began in it runs longer). */
const CLOSE_DAYS_EVERY_MS = 10 * 60_000;

/**
 * The organiser's dashboard (contracts/dashboard.ts): its figures, the orders CSV, the admins' live stream, and the
 * public count of event pages opened. Every /api/admin route is admins only (server/plugins/auth.ts).
 */
export const dashboardRoutes: FastifyPluginAsyncZod<{ timeZone: string }> = async (app, opts) => {
  const service = createDashboardService({ db: app.database.pool, timeZone: opts.timeZone });
  const views = createViewCounter({ db: app.database.pool, timeZone: opts.timeZone });
  const tags = ['admin'];
  const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema };

  // Sums of the days that are over (decision 025), once per period whatever the number of processes.
  app.scheduler.every(CLOSE_DAYS_JOB, CLOSE_DAYS_EVERY_MS, async () => {
    const last = await service.closeDays();
    app.log.debug({ last }, 'dashboard days closed');
  });

  const flushViews = () =>
    views.flush().catch((err: unknown) => app.log.warn({ err }, 'page views not written; kept for the next try'));
  const timer = setInterval(flushViews, VIEWS_FLUSH_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await flushViews();
  });

  app.get(
    '/api/admin/dashboard',
    {
      schema: {
        tags,
        summary:
          'Sales, revenue, refunds, check-ins, payment methods and the funnel over a range of days (APP_TIMEZONE), for every event or one',
        querystring: dashboardQuerySchema,
        response: { 200: dashboardSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.dashboard(request.query);
    },
  );

  app.get(
    '/api/admin/orders.csv',
    {
      schema: {
        tags,
        summary:
          'The orders the dashboard sums for the same query, as CSV: paid in the range, or given back in it (UTF-8 with a BOM)',
        querystring: dashboardQuerySchema,
        ...csvResponses(errors),
      },
    },
    async (request, reply) => {
      return sendCsv(reply, await service.ordersCsv(request.query, requestI18n(request)));
    },
  );

  app.get(
    '/api/admin/live',
    {
      schema: {
        tags,
        summary:
          'Server-Sent Events for admins: the catalogue stream’s messages and `sales` {eventId} when an event’s sales, refunds or check-ins move',
      },
    },
    (request, reply) => {
      app.notifications.stream(request, reply, { sales: true });
    },
  );

  app.post(
    '/api/events/:id/view',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Counts one opening of an event page (the dashboard’s funnel); no cookie is read or set',
        params: eventIdParamsSchema,
        response: { 204: z.null(), 404: problemSchema },
      },
    },
    async (request, reply) => {
      const id = request.params.id.toLowerCase();
      if (!isUuid(id) || !(await views.exists(id)))
        throw new NotFoundError('dashboard.eventNotFound', 'EVENT_NOT_FOUND');
      views.count(id);
      return reply.code(204).send(null);
    },
  );
};
