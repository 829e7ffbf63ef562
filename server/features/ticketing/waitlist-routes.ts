import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { myHoldParamsSchema } from '../../../contracts/bookings';
import { eventIdParamsSchema } from '../../../contracts/catalogue';
import { problemSchema } from '../../../contracts/problem';
import {
  joinWaitlistBodySchema,
  leaveWaitlistAnswerSchema,
  waitlistItemSchema,
  waitlistListSchema,
} from '../../../contracts/waitlist';
import type { Waitlist } from './waitlist';

/** The waitlist's routes (contracts/waitlist.ts): join, leave, decline an offer, the caller's entries. */
export const waitlistRoutes: FastifyPluginAsyncZod<{ waitlist: Waitlist }> = async (app, { waitlist }) => {
  app.post(
    '/api/events/:id/waitlist',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary:
          'Join the waitlist of a sold-out event: tickets that come back are offered in join order, held for WAITLIST_OFFER_HOURS',
        params: eventIdParamsSchema,
        body: joinWaitlistBodySchema,
        response: {
          201: waitlistItemSchema,
          400: problemSchema,
          401: problemSchema,
          404: problemSchema,
          409: problemSchema.extend({ available: waitlistItemSchema.shape.quantity.optional() }),
        },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      const item = await waitlist.join(user.id, request.params.id, request.body);
      return reply.code(201).send(item);
    },
  );

  app.delete(
    '/api/events/:id/waitlist',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: "Leave the event's waitlist; tickets offered and not yet paid are declined",
        params: eventIdParamsSchema,
        response: { 200: leaveWaitlistAnswerSchema, 401: problemSchema, 404: problemSchema, 409: problemSchema },
      },
    },
    async (request) => {
      const user = await request.user();
      await waitlist.leave(user.id, request.params.id);
      return { left: true as const };
    },
  );

  app.get(
    '/api/me/waitlist',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: "The caller's waitlist entries (the latest of each event): place in line, or the tickets offered",
        response: { 200: waitlistListSchema, 401: problemSchema },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      reply.header('cache-control', 'no-store');
      return { items: await waitlist.mine(user.id) };
    },
  );

  app.post(
    '/api/me/waitlist/:eventId/decline',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: 'Decline the tickets offered from the waitlist: they go on to the next in line at once',
        params: myHoldParamsSchema,
        response: { 200: waitlistItemSchema, 401: problemSchema, 404: problemSchema, 409: problemSchema },
      },
    },
    async (request) => {
      const user = await request.user();
      return waitlist.decline(user.id, request.params.eventId);
    },
  );
};
