import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  doorStaffEventParamsSchema,
  doorStaffListSchema,
  doorStaffMemberParamsSchema,
  grantDoorStaffBodySchema,
} from '../../../contracts/door-staff';
import { problemSchema } from '../../../contracts/problem';
import type { DoorStaffService } from './door-staff-service';

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema };

/** The admin's door staff routes: list, grant by email, revoke. Admins only. */
export const doorStaffRoutes: FastifyPluginAsyncZod<{ service: DoorStaffService }> = async (app, { service }) => {
  app.addHook('onRequest', app.requireAdmin);
  const tags = ['check-in'];

  app.get(
    '/api/admin/events/:id/door-staff',
    {
      schema: {
        tags,
        summary: 'Who may check tickets in at this event (besides admins)',
        params: doorStaffEventParamsSchema,
        response: { 200: doorStaffListSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { items: await service.list(request.params.id) };
    },
  );

  app.post(
    '/api/admin/events/:id/door-staff',
    {
      schema: {
        tags,
        summary: 'Gives an existing account the door of this event: it may check tickets in there, nothing else',
        params: doorStaffEventParamsSchema,
        body: grantDoorStaffBodySchema,
        response: { 200: doorStaffListSchema, ...errors },
      },
    },
    async (request) => ({ items: await service.grant(request.params.id, request.body.email) }),
  );

  app.delete(
    '/api/admin/events/:id/door-staff/:userId',
    {
      schema: {
        tags,
        summary: "Takes this event's door from the account",
        params: doorStaffMemberParamsSchema,
        response: { 204: z.null().describe('Removed'), ...errors },
      },
    },
    async (request, reply) => {
      await service.revoke(request.params.id, request.params.userId);
      return reply.status(204).send(null);
    },
  );
};
