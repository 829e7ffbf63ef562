import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** HTTP routes of the contact feature (filled in by its issue). */
export const contactRoutes: FastifyPluginAsyncZod = async (_app) => {};
