import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type Booking,
  bookingIdParamsSchema,
  bookingSchema,
  createBookingBodySchema,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeySchema,
  myBookingsSchema,
  myHoldParamsSchema,
  myHoldSchema,
} from '../../../contracts/bookings';
import { msg } from '../../../contracts/i18n/text';
import { problemSchema } from '../../../contracts/problem';
import {
  cancelBookingAnswerSchema,
  cancelBookingBodySchema,
  refundQuoteQuerySchema,
  refundQuoteSchema,
} from '../../../contracts/refunds';
import type { PaymentProviders } from '../../domain/payments';
import type { AppConfig } from '../../env';
import { ValidationError } from '../../plugins/errors';
import { createTicketingService, type TicketingService } from './service';
import { writeBookingSettings } from './waitlist-repository';
import { waitlistRoutes } from './waitlist-routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** The booking module: every change of a booking's state goes through it. */
    ticketing: TicketingService;
  }
}

/** 409 carries how many tickets are left. */
const conflictSchema = problemSchema.extend({ available: z.number().int().optional() });

const EXPIRE_JOB = 'expire-holds';
const EXPIRE_EVERY_MS = 2_000;
const REFUNDS_JOB = 'finish-refunds';
const REFUNDS_EVERY_MS = 30_000;
const RECONCILE_JOB = 'reconcile-payments';
const RECONCILE_EVERY_MS = 60_000;

/**
 * The booking module as a plugin: its service for the other features (app.ticketing), its HTTP routes
 * (reserve, read one, start or bring up to date its payment, the caller's hold on an event, the profile's
 * lists, cancel a hold) and the job that releases lapsed holds.
 */
export const ticketingPlugin = fp(
  async function ticketing(
    app: FastifyInstance,
    opts: {
      providers: PaymentProviders;
      config: Pick<AppConfig, 'holdMinutes' | 'timeZone' | 'waitlistOfferHours' | 'appUrl'>;
    },
  ) {
    // What the waitlist's trigger needs to make an offer (sql/eventry_waitlist.sql): written once the app is ready,
    // or, when the database is down then (the app starts and answers 503 meanwhile), by the expiry job once it is up.
    let settingsWritten = false;
    const writeSettings = async () => {
      if (settingsWritten) return;
      await writeBookingSettings(app.database.pool, {
        waitlistOfferHours: opts.config.waitlistOfferHours,
        timeZone: opts.config.timeZone,
        paymentProvider: opts.providers.primary?.name ?? null,
        appUrl: opts.config.appUrl,
      });
      settingsWritten = true;
    };
    app.addHook('onReady', async () => {
      await writeSettings().catch((err: unknown) =>
        app.log.warn({ err }, 'the booking settings were not written at start; the expiry job will'),
      );
    });
    const service = createTicketingService({
      db: app.database.db,
      pool: app.database.pool,
      reservationPool: app.database.reservationPool,
      providers: opts.providers,
      holdMinutes: opts.config.holdMinutes,
      timeZone: opts.config.timeZone,
      log: app.log,
    });
    app.decorate('ticketing', service);
    await app.register(bookingsRoutes, { service, writeSettings });
    await app.register(waitlistRoutes, { waitlist: service.waitlist });
  },
  { name: 'ticketing', dependencies: ['database', 'scheduler', 'auth'] },
);

const bookingsRoutes: FastifyPluginAsyncZod<{ service: TicketingService; writeSettings: () => Promise<void> }> = async (
  app,
  { service, writeSettings },
) => {
  app.scheduler.every(EXPIRE_JOB, EXPIRE_EVERY_MS, async () => {
    await writeSettings();
    const expired = await service.expireHolds();
    if (expired > 0) app.log.info({ count: expired }, 'released lapsed ticket holds');
  });
  // Refunds a crash or a silent provider left unfinished, and a cancelled event's bookings not refunded yet.
  app.scheduler.every(REFUNDS_JOB, REFUNDS_EVERY_MS, async () => {
    const done = await service.refunds.finishRefunds();
    if (done > 0) app.log.info({ count: done }, 'finished refunds');
  });
  // Payments whose callback never came (Paymob's): read back from the provider and settled.
  app.scheduler.every(RECONCILE_JOB, RECONCILE_EVERY_MS, async () => {
    await service.reconcileQuiet();
  });

  app.post(
    '/api/bookings',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: 'Reserve tickets: holds them for HOLD_MINUTES and starts the payment',
        body: createBookingBodySchema,
        response: {
          201: bookingSchema,
          400: problemSchema,
          401: problemSchema,
          404: problemSchema,
          409: conflictSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      const rawKey = request.headers[IDEMPOTENCY_KEY_HEADER];
      let idempotencyKey: string | undefined;
      if (rawKey !== undefined) {
        const parsed = idempotencyKeySchema.safeParse(rawKey);
        if (!parsed.success)
          throw new ValidationError({ [IDEMPOTENCY_KEY_HEADER]: msg('payment.idempotencyKeyLength') });
        idempotencyKey = parsed.data;
      }
      const booking = await service.reserve({
        userId: user.id,
        eventId: request.body.eventId,
        quantity: request.body.quantity,
        idempotencyKey,
        buyer: {
          name: user.name,
          email: user.email,
          language: (user as { language?: string | null }).language ?? null,
        },
      });
      // The on-sale's hottest answer: toBookingDto builds exactly the Booking type's fields, so it is written
      // as it is instead of being checked against bookingSchema again (~10 µs a request; the schema stays
      // for the API description and every other status).
      return reply.status(201).serializer(JSON.stringify).send(booking);
    },
  );

  /** A route on one of the caller's bookings (another user's id is not found), answering the booking, uncached. */
  const ownBooking = (
    method: 'GET' | 'DELETE',
    url: string,
    summary: string,
    answer: (bookingId: string, userId: string) => Promise<Booking>,
  ) =>
    app.route({
      method,
      url,
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary,
        params: bookingIdParamsSchema,
        response: { 200: bookingSchema, 401: problemSchema, 404: problemSchema, 409: problemSchema },
      },
      handler: async (request, reply) => {
        const user = await request.user();
        reply.header('cache-control', 'no-store');
        return answer(request.params.id, user.id);
      },
    });

  ownBooking(
    'GET',
    '/api/bookings/:id',
    "The caller's booking and its status, as it is (reading it changes nothing)",
    service.getBooking,
  );
  app.post(
    '/api/bookings/:id/payment',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary:
          "Starts the booking's payment with the provider, or brings it up to date (settles money the provider already took); answers the booking. ?restart=stripe goes back to Stripe from another provider's payment",
        params: bookingIdParamsSchema,
        querystring: z.object({ restart: z.enum(['stripe']).optional() }),
        response: {
          200: bookingSchema,
          400: problemSchema,
          401: problemSchema,
          404: problemSchema,
          409: problemSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      reply.header('cache-control', 'no-store');
      return service.syncPayment(request.params.id, user.id, request.query.restart);
    },
  );
  ownBooking(
    'DELETE',
    '/api/bookings/:id/hold',
    "Cancels the caller's pending reservation: its tickets go back on sale at once. Answers the booking (cancelled, or as it already ended); 409 once paid, or while a payment of it is being settled",
    service.cancelHold,
  );

  app.get(
    '/api/bookings/:id/refund-quote',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary:
          "What cancelling `quantity` of the caller's tickets (all that are left by default) gives back, and until when it may",
        params: bookingIdParamsSchema,
        querystring: refundQuoteQuerySchema,
        response: { 200: refundQuoteSchema, 400: problemSchema, 401: problemSchema, 404: problemSchema },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      reply.header('cache-control', 'no-store');
      return service.refunds.quote(request.params.id, user.id, request.query.quantity);
    },
  );

  app.post(
    '/api/bookings/:id/cancel',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary:
          "The buyer cancels some or all of their paid tickets while the event's refund policy allows: refunded (less the fee) through the provider that took the money; the tickets return to sale",
        params: bookingIdParamsSchema,
        body: cancelBookingBodySchema,
        response: {
          200: cancelBookingAnswerSchema,
          400: problemSchema,
          401: problemSchema,
          404: problemSchema,
          409: problemSchema,
          502: problemSchema,
        },
      },
    },
    async (request) => {
      const user = await request.user();
      const refundPiasters = await service.refunds.cancelByBuyer(request.params.id, user.id, request.body.quantity);
      return { refundPiasters, booking: await service.getBooking(request.params.id, user.id) };
    },
  );

  app.get(
    '/api/me/bookings',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: 'Paid bookings: tickets of active events, and history of deleted or past ones',
        response: { 200: myBookingsSchema, 401: problemSchema },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      reply.header('cache-control', 'no-store');
      return service.myBookings(user.id);
    },
  );

  app.get(
    '/api/me/holds/:eventId',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary:
          "The caller's unexpired pending hold on an event, or null: reserving again replaces it and counts its tickets",
        params: myHoldParamsSchema,
        response: { 200: myHoldSchema, 401: problemSchema, 404: problemSchema },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      reply.header('cache-control', 'no-store');
      return service.myHold(user.id, request.params.eventId);
    },
  );
};
