import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problemSchema } from '../../../contracts/problem';
import {
  checkInBodySchema,
  checkInBundleSchema,
  checkInEventParamsSchema,
  checkInEventsSchema,
  checkInResultSchema,
  checkInSyncBodySchema,
  checkInSyncResultSchema,
  myTicketsSchema,
} from '../../../contracts/tickets';
import { sharedSecret } from '../../db/shared-secret';
import { doorStaffRoutes } from './door-staff-routes';
import { createDoorStaffService, type DoorStaffService } from './door-staff-service';
import { ticketHolderRoutes } from './holder-routes';
import { createTicketHolderService } from './holder-service';
import { createTicketsService, type TicketsService } from './service';
import { createTicketSigner, newTicketSigningSeed, parseTicketSigningKey, type TicketSigner } from './signing';

/** Where the signing key is kept when TICKET_SIGNING_KEY does not give one. */
const SIGNING_KEY_SECRET = 'ticket-signing-key';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tickets: their QR texts, and admissions at the door. */
    tickets: TicketsService;
    /** Door staff: who keeps which event's door (GET /api/me says whether the user keeps any). */
    doorStaff: DoorStaffService;
  }
}

/**
 * Tickets as a plugin: its service for the other features (app.tickets: a booking's tickets for the
 * confirmation email and the PDF), the holder's list, and the door's routes (check in, the offline bundle,
 * syncing offline scans). The door's routes are for admins and the event's door staff.
 */
export const ticketsPlugin = fp(
  async function tickets(
    app: FastifyInstance,
    opts: { signingKey: string | undefined; timeZone: string; appUrl: string },
  ) {
    // A key given in the environment is checked now (a wrong one stops the start); one kept in the database is
    // read when first needed, so that the app starts, and answers 503, while the database is unreachable.
    const given = opts.signingKey ? createTicketSigner(parseTicketSigningKey(opts.signingKey)) : undefined;
    let kept: Promise<TicketSigner> | undefined;
    const signer = (): Promise<TicketSigner> => {
      if (given) return Promise.resolve(given);
      kept ??= sharedSecret(app.database.pool, SIGNING_KEY_SECRET, newTicketSigningSeed).then(
        (key) => createTicketSigner(parseTicketSigningKey(key)),
        (error: unknown) => {
          kept = undefined; // asked again next time
          throw error;
        },
      );
      return kept;
    };
    void signer().catch(() => {});
    const service = createTicketsService({
      db: app.database.pool,
      pool: app.database.pool,
      signer,
      timeZone: opts.timeZone,
    });
    app.decorate('tickets', service);
    await app.register(ticketsRoutes, { service, timeZone: opts.timeZone });
    // The holder's side: the calendar file, the PDF, and the tickets in the booking confirmation.
    const holder = createTicketHolderService({
      db: app.database.pool,
      ticketsOfBooking: service.ticketsOfBooking,
      timeZone: opts.timeZone,
      appUrl: opts.appUrl,
    });
    app.mailer.onRender('booking-confirmation', (data, { lang }) => holder.confirmationExtras(data, lang));
    await app.register(ticketHolderRoutes, { service: holder });
    const doorStaff = createDoorStaffService({ db: app.database.pool });
    app.decorate('doorStaff', doorStaff);
    await app.register(doorStaffRoutes, { service: doorStaff });
  },
  { name: 'tickets', dependencies: ['database', 'auth', 'mail-worker'] },
);

const doorErrors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema };

const ticketsRoutes: FastifyPluginAsyncZod<{ service: TicketsService; timeZone: string }> = async (
  app,
  { service, timeZone },
) => {
  app.get(
    '/api/me/tickets',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['tickets'],
        summary: "The caller's tickets, one per seat of each paid booking, with their QR texts and short codes",
        response: { 200: myTicketsSchema, 401: problemSchema },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      reply.header('cache-control', 'no-store');
      return { items: await service.myTickets(user.id), timeZone };
    },
  );

  app.get(
    '/api/check-in/events',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['check-in'],
        summary: 'Events whose door the caller may keep (admins: every event from today on; door staff: theirs)',
        response: { 200: checkInEventsSchema, 401: problemSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.checkInEvents(await request.user());
    },
  );

  app.post(
    '/api/check-in',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['check-in'],
        summary:
          'Checks a ticket in by its QR text or short code: admitted once, however many gates scan it at the same time',
        body: checkInBodySchema,
        response: { 200: checkInResultSchema, ...doorErrors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.checkIn(await request.user(), request.body.eventId, request.body.code);
    },
  );

  app.get(
    '/api/check-in/:eventId/bundle',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['check-in'],
        summary: "What a scanner needs offline: the signing key, the event's valid and voided tickets (ETag)",
        params: checkInEventParamsSchema,
        response: { 200: checkInBundleSchema, 304: z.null(), ...doorErrors },
      },
    },
    async (request, reply) => {
      const { bundle, etag } = await service.bundle(await request.user(), request.params.eventId);
      reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send(null);
      return bundle;
    },
  );

  app.post(
    '/api/check-in/:eventId/sync',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['check-in'],
        summary: 'Records scans a device made offline, each once (by its nonce); a ticket admitted twice is flagged',
        params: checkInEventParamsSchema,
        body: checkInSyncBodySchema,
        response: { 200: checkInSyncResultSchema, ...doorErrors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.sync(await request.user(), request.params.eventId, request.body.scans);
    },
  );
};
