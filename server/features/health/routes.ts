import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendProblem } from '../../plugins/errors';
import { createHealthService } from './service';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const health = createHealthService({ pool: app.database.pool });

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check',
        response: { 200: z.object({ status: z.literal('ok'), database: z.literal('ok') }) },
      },
    },
    async (_request, reply) => {
      if (!(await health.databaseReachable())) {
        return sendProblem(reply, 503, 'DATABASE_UNAVAILABLE', 'The database is not reachable');
      }
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        summary:
          'Readiness, for load balancers: 200 when this process can serve (database reachable, migrations applied), else 503; 503 while it shuts down',
        response: { 200: z.object({ status: z.literal('ready') }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const readiness = await health.readiness();
      if (!readiness.ready) {
        return readiness.reason === 'database'
          ? sendProblem(reply, 503, 'DATABASE_UNAVAILABLE', 'The database is not reachable')
          : sendProblem(reply, 503, 'MIGRATIONS_PENDING', 'The database lacks migrations of this version');
      }
      return { status: 'ready' as const };
    },
  );
};
