import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** HTTP routes of the catalogue feature (filled in by its issue). */
export const catalogueRoutes: FastifyPluginAsyncZod = async (_app) => {};
