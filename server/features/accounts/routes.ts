import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { meSchema } from '../../../contracts/accounts';
import { problemSchema } from '../../../contracts/problem';

/** HTTP routes of the accounts feature. */
export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/me',
    {
      schema: {
        tags: ['accounts'],
        summary: "The signed-in user's profile",
        response: { 200: meSchema, 401: problemSchema },
      },
    },
    async (request) => {
      const user = await request.user();
      return {
        id: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        imageUrl: user.image,
        role: user.role,
        emailVerified: user.emailVerified,
      };
    },
  );
};
