import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from './db/client';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded';
import type { AppConfig } from './env';

type ServerModules = Awaited<ReturnType<typeof loadServerModules>>;

async function loadServerModules() {
  const [app, client, migrate, seed] = await Promise.all([
    import('./app'),
    import('./db/client'),
    import('./db/migrate'),
    import('./db/seed'),
  ]);
  return {
    buildApp: app.buildApp,
    connectionFromUrl: client.connectionFromUrl,
    openDatabase: client.openDatabase,
    runMigrations: migrate.runMigrations,
    seed,
  };
}

/** How long a stop waits for start-up's background work before interrupting it. */
const STOP_WAIT_MS = 5_000;

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  embedded: EmbeddedDatabase | undefined;
  url: string;
  backgroundWork: Promise<void>;
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
  // The rest of the server (Fastify, better-auth, Drizzle, Stripe…: ~0.4 s of module loading on a slow
  // machine, bundled; ~0.9 s from node_modules) loads while the embedded database starts in its own process,
  // instead of before it. It starts loading once the postgres process is spawned: evaluating the modules
  // holds this thread, and started earlier it would hold up the steps that spawn the database.
  let loading: Promise<ServerModules> | undefined;
  const load = () => {
    loading = loadServerModules();
    loading.catch(() => {}); // awaited below; a failure to start the database must not leave it unhandled
  };
  await mkdir(config.dataDir, { recursive: true });
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.dataDir, database: 'eventry', whileStarting: load });
  if (!loading) load();
  let modules: ServerModules;
  try {
    modules = await (loading as Promise<ServerModules>);
  } catch (error) {
    await embedded?.stop().catch(() => {});
    throw error;
  }
  const { buildApp, connectionFromUrl, openDatabase, runMigrations, seed } = modules;
  const { ensureAdmin, seedCategories, seedDemoEvents, writeDemoImages } = seed;
  const database = openDatabase(embedded ? embedded.connection : connectionFromUrl(config.databaseUrl as string));
  let app: FastifyInstance | undefined;
  const background = new AbortController();
  try {
    await runMigrations(database.pool);
    await seedCategories(database.db);
    // Demo events go in before the server answers (so the first page is not empty); their pictures are
    // rendered in the background once it listens.
    const seeded = config.seedDemo ? await seedDemoEvents(database.db, config.timeZone) : 0;
    const authSecret = await resolveAuthSecret(config);
    app = await buildApp({
      config: { ...config, authSecret },
      database,
      runJobs: true,
      logger: options.logger,
    });
    await app.ready();
    if (seeded > 0) app.log.info(`seeded ${seeded} demo events`);
    if (config.admin) await ensureAdmin(database.db, app.auth, config.admin);
    if (config.databaseUrl && !config.s3) {
      app.log.warn(
        `pictures are kept in ${config.dataDir}/uploads: if several Eventry processes share this database, set S3_* so that every process serves the same pictures`,
      );
    }
    const address = await app.listen({ port: config.port, host: config.host });
    app.log.info(`Eventry is ready at ${config.port === 0 ? address : config.appUrl}`);
    const ready = app;
    // Also finishes pictures that an interrupted earlier start (stop, crash) left as placeholders.
    const demoImages = config.seedDemo
      ? writeDemoImages(database.db, ready.storage, background.signal).then(
          (written) => {
            if (written > 0) ready.log.info(`wrote ${written} demo images`);
          },
          (error: unknown) => {
            if (!background.signal.aborted) ready.log.error({ err: error }, 'writing the demo images failed');
          },
        )
      : Promise.resolve();
    return {
      app: ready,
      database,
      embedded,
      url: address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1'),
      /** Resolves once the background work of start-up (demo pictures) is done. */
      backgroundWork: demoImages,
      async stop() {
        // A graceful stop lets the demo pictures finish (a few seconds at most on a first start), so that the
        // next start has nothing left to render; past STOP_WAIT_MS the rest is left to the next start.
        const wait = setTimeout(() => background.abort(), STOP_WAIT_MS);
        await demoImages;
        clearTimeout(wait);
        await ready.close();
        await database.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    background.abort();
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
}
