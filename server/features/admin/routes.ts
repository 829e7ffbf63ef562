import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** HTTP routes of the admin feature (filled in by its issue). */
export const adminRoutes: FastifyPluginAsyncZod = async (_app) => {};
