import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bookingIdParamsSchema,
  bookingSchema,
  createBookingBodySchema,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeySchema,
  myBookingsSchema,
  myHoldParamsSchema,
  myHoldSchema,
} from '../../../contracts/bookings';
import { problemSchema } from '../../../contracts/problem';
import { ValidationError } from '../../plugins/errors';
import { createBookingsService } from './service';

/** 409 carries how many tickets are left. */
const conflictSchema = problemSchema.extend({ available: z.number().int().optional() });

const EXPIRE_JOB = 'expire-holds';
const EXPIRE_EVERY_MS = 2_000;

/**
 * HTTP routes of bookings: reserve, read one, the caller's hold on an event, the profile's lists; and the job
 * that releases lapsed holds.
 */
export const bookingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createBookingsService(
    app.database.db,
    app.database.pool,
    app.payments,
    app.log,
    app.database.reservationPool,
  );

  app.scheduler.every(EXPIRE_JOB, EXPIRE_EVERY_MS, async () => {
    const expired = await service.expireHolds();
    if (expired > 0) app.log.info({ count: expired }, 'released lapsed ticket holds');
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
        if (!parsed.success) throw new ValidationError({ [IDEMPOTENCY_KEY_HEADER]: 'must be 1 to 200 characters' });
        idempotencyKey = parsed.data;
      }
      const booking = await service.reserve({
        userId: user.id,
        eventId: request.body.eventId,
        quantity: request.body.quantity,
        idempotencyKey,
        buyer: { name: user.name, email: user.email },
      });
      // The on-sale's hottest answer: toBookingDto builds exactly the Booking type's fields, so it is written
      // as it is instead of being checked against bookingSchema again (~10 µs a request; the schema stays
      // for the API description and every other status).
      return reply.status(201).serializer(JSON.stringify).send(booking);
    },
  );

  app.get(
    '/api/bookings/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: "The caller's booking and its status (another user's id is not found)",
        params: bookingIdParamsSchema,
        response: { 200: bookingSchema, 401: problemSchema, 404: problemSchema },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      reply.header('cache-control', 'no-store');
      return service.getBooking(request.params.id, user.id);
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

  app.delete(
    '/api/bookings/:id/hold',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary:
          "Cancels the caller's pending reservation: its tickets go back on sale at once. Answers the booking (cancelled, or as it already ended); 409 once paid, or while a payment of it is being settled",
        params: bookingIdParamsSchema,
        response: { 200: bookingSchema, 401: problemSchema, 404: problemSchema, 409: problemSchema },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      reply.header('cache-control', 'no-store');
      return service.cancelHold(request.params.id, user.id);
    },
  );
};
