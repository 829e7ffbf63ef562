import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

/** Makes the (already migrated) database available as app.database. Its lifetime belongs to the caller. */
export const databasePlugin = fp(
  async function database(app: FastifyInstance, opts: { database: Database }) {
    app.decorate('database', opts.database);
  },
  { name: 'database', dependencies: [] },
);
