import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** HTTP routes of the bookings feature (filled in by its issue). */
export const bookingsRoutes: FastifyPluginAsyncZod = async (_app) => {};
