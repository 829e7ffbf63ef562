import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** HTTP routes of the payments feature (filled in by its issue). */
export const paymentsRoutes: FastifyPluginAsyncZod = async (_app) => {};
