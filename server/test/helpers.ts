import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type Database, openDatabase } from '../db/client';
import { users } from '../db/schema';
import { type AppConfig, loadConfig } from '../env';

export interface TestDatabaseServer {
  admin: pg.PoolConfig;
  template: string;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** Cookie header value carrying the user's session. */
  cookie: string;
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: AppConfig & { authSecret: string };
  /** Signs up a fresh user (role 'user' unless asked) and returns its session cookie. */
  createUser(options?: {
    role?: 'user' | 'admin';
    email?: string;
    password?: string;
    firstName?: string;
    lastName?: string;
  }): Promise<TestUser>;
  /** app.inject with a user's session cookie. */
  request(user: TestUser | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

function connectionFor(admin: pg.PoolConfig, database: string): pg.PoolConfig {
  if (admin.connectionString) {
    const url = new URL(admin.connectionString);
    url.pathname = `/${database}`;
    return { connectionString: url.toString() };
  }
  return { ...admin, database };
}

/** Creates a fresh database for one test file by cloning the migrated template. */
export async function createTestDatabase(): Promise<{ database: Database; name: string; drop(): Promise<void> }> {
  const server = inject('testDatabase');
  const name = `${server.template}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client(server.admin);
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${server.template}`);
      break;
    } catch (error) {
      // Another file cloning the template at the same moment: wait and retry.
      if (attempt > 20) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const database = openDatabase(connectionFor(server.admin, name));
  return {
    database,
    name,
    async drop() {
      await database.close();
      const client = new pg.Client(server.admin);
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Test configuration: defaults of env.ts plus overrides, with a throw-away data folder. */
export function testConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig & { authSecret: string } {
  const base = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    APP_URL: 'http://localhost:3000',
  });
  // As env.ts decides it: the simulated processor is on by default only when no real provider is configured.
  const simulatedPayments = base.simulatedPayments && !overrides.stripe && !overrides.paymob;
  return {
    ...base,
    seedDemo: false,
    simulatedPayments,
    ...overrides,
    authSecret: 'test-secret-test-secret-test-secret-0123456789',
  };
}

/** A running app on a fresh database, for one test file. */
export async function setupTestApp(
  options: {
    config?: Partial<AppConfig>;
    runJobs?: boolean;
    sessionCacheTtlMs?: number;
    /** Serve the web app from this folder (default none: the API alone). */
    webDir?: string;
    /** Receives the app's JSON log lines (default: no log). */
    logStream?: Writable;
  } = {},
): Promise<TestContext> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'eventry-app-'));
  const { database, drop } = await createTestDatabase();
  const config = testConfig(dataDir, options.config);
  const app = await buildApp({
    config,
    database,
    runJobs: options.runJobs ?? false,
    logger: options.logStream ?? false,
    webDir: options.webDir ?? null,
    sessionCacheTtlMs: options.sessionCacheTtlMs,
  });
  await app.ready();

  async function createUser(
    opts: { role?: 'user' | 'admin'; email?: string; password?: string; firstName?: string; lastName?: string } = {},
  ): Promise<TestUser> {
    const email = opts.email ?? `user-${randomUUID().slice(0, 8)}@example.com`;
    const password = opts.password ?? 'Secret123';
    const firstName = opts.firstName ?? 'Test';
    const lastName = opts.lastName ?? 'User';
    const response = await app.auth.api.signUpEmail({
      body: { email, password, name: `${firstName} ${lastName}`, firstName, lastName },
      asResponse: true,
    });
    if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { user: { id: string } };
    if (opts.role === 'admin') await database.db.update(users).set({ role: 'admin' }).where(eq(users.id, body.user.id));
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { id: body.user.id, email, password, cookie };
  }

  return {
    app,
    database,
    config,
    createUser,
    request(user, opts) {
      const headers = { ...(opts.headers ?? {}), ...(user ? { cookie: user.cookie } : {}) };
      return app.inject({ ...opts, headers });
    },
    async close() {
      await app.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second app process on the same database as `ctx` (its own pools, caches and LISTEN connection), as another
 * process behind a load balancer would be. Close it before `ctx`.
 */
export async function anotherProcess(ctx: TestContext): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const database = openDatabase(ctx.database.connection);
  const app = await buildApp({ config: ctx.config, database, logger: false, webDir: null });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Polls `read` until `done` holds (a change reaches a cache through a notification, within milliseconds). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 100; i++) {
    last = await read();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${what}: still ${JSON.stringify(last)}`);
}

/** How many connections of the test's database wait for a lock, and how many sit in an open transaction. */
export async function connectionStates(ctx: TestContext): Promise<{ waiting: number; inTransaction: number }> {
  const { rows } = await ctx.database.pool.query<{ waiting: number; inTransaction: number }>(
    `SELECT count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting,
            count(*) FILTER (WHERE state LIKE 'idle in transaction%')::int AS "inTransaction"
       FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return rows[0] ?? { waiting: 0, inTransaction: 0 };
}

/** Until `count` statements of the test's database wait for a lock (the other sides of a race have reached it). */
export function statementsWaitForALock(ctx: TestContext, count = 1): Promise<number> {
  return eventually(
    async () => (await connectionStates(ctx)).waiting,
    (n) => n >= count,
    `${count} statement(s) waiting for a lock`,
  );
}

/** Cuts this app's LISTEN connection (as a database restart would) and waits until the app knows it. */
export async function dropLiveConnection(ctx: TestContext): Promise<void> {
  await ctx.database.pool.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE application_name = 'eventry-live' AND datname = current_database()`,
  );
  await eventually(
    async () => ctx.app.notifications.listening,
    (listening) => !listening,
    'the live connection down',
  );
}
