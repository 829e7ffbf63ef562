import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookingIdParamsSchema } from '../../../contracts/bookings';
import { eventIdParamsSchema } from '../../../contracts/catalogue';
import { problemSchema } from '../../../contracts/problem';
import { requestLang } from '../../plugins/i18n';
import type { TicketHolderService } from './holder-service';

/** A download's Content-Disposition: an ASCII name, and the exact one in RFC 5987 form. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The ticket holder's files: an event's calendar file, and a booking's tickets as a PDF. */
export const ticketHolderRoutes: FastifyPluginAsyncZod<{ service: TicketHolderService }> = async (app, { service }) => {
  app.get(
    '/api/events/:id/calendar.ics',
    {
      schema: {
        tags: ['tickets'],
        summary:
          'An event as an iCalendar file (text/calendar): its start and end in UTC, title, location, description and page',
        params: eventIdParamsSchema,
        produces: ['text/calendar'],
        response: { 200: z.string().describe('text/calendar'), 404: problemSchema },
      },
    },
    async (request, reply) => {
      const file = await service.calendar(request.params.id);
      reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', attachment(file.filename))
        .header('cache-control', 'public, max-age=300');
      return reply.send(file.content);
    },
  );

  app.get(
    '/api/bookings/:id/tickets.pdf',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['tickets'],
        summary:
          "The caller's paid booking as a PDF in the request's language: one page per ticket with its QR, short code, event, date and times",
        params: bookingIdParamsSchema,
        produces: ['application/pdf'],
        response: {
          200: z.any().describe('application/pdf'),
          401: problemSchema,
          404: problemSchema,
          409: problemSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      const file = await service.ticketsPdf(request.params.id, user.id, requestLang(request));
      reply
        .type('application/pdf')
        .header('content-disposition', attachment(file.filename))
        .header('cache-control', 'private, no-store');
      return reply.send(file.content);
    },
  );
};
