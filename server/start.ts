import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { connectionFromUrl, type Database, openDatabase } from './db/client';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded';
import { runMigrations } from './db/migrate';
import { ensureAdmin, seedCategories, seedDemoEvents } from './db/seed';
import type { AppConfig } from './env';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  embedded: EmbeddedDatabase | undefined;
  url: string;
  stop(): Promise<void>;
}

/** AUTH_SECRET, or one generated on first start and kept in DATA_DIR. */
async function resolveAuthSecret(config: AppConfig): Promise<string> {
  if (config.authSecret) return config.authSecret;
  const file = path.join(config.dataDir, '.auth-secret');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  await mkdir(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * Starts Eventry: the database (embedded unless DATABASE_URL is set), migrations, reference and demo
 * data, the HTTP server and its background jobs. stop() undoes all of it in reverse order.
 */
export async function startServer(config: AppConfig, options: { logger?: boolean } = {}): Promise<RunningServer> {
  await mkdir(config.dataDir, { recursive: true });
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.dataDir, database: 'eventry' });
  const database = openDatabase(embedded ? embedded.connection : connectionFromUrl(config.databaseUrl as string));
  let app: FastifyInstance | undefined;
  try {
    await runMigrations(database.pool);
    await seedCategories(database.db);
    const authSecret = await resolveAuthSecret(config);
    app = await buildApp({ config: { ...config, authSecret }, database, runJobs: true, logger: options.logger });
    await app.ready();
    if (config.seedDemo) {
      const seeded = await seedDemoEvents(database.db, app.storage, config.timeZone);
      if (seeded > 0) app.log.info(`seeded ${seeded} demo events`);
    }
    if (config.admin) await ensureAdmin(database.db, app.auth, config.admin);
    const address = await app.listen({ port: config.port, host: config.host });
    app.log.info(`Eventry is ready at ${config.port === 0 ? address : config.appUrl}`);
    const ready = app;
    return {
      app: ready,
      database,
      embedded,
      url: address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1'),
      async stop() {
        await ready.close();
        await database.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
}
