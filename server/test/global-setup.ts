import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectionFromUrl } from '../db/client';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../db/embedded';
import { runMigrations } from '../db/migrate';
import { readTestEnv } from '../env';
import type { TestDatabaseServer } from './helpers';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseServer;
  }
}

/**
 * Once per test run and project: a PostgreSQL server (embedded, or TEST_DATABASE_URL for the
 * 'external' project) with a migrated template database. Each test file clones the template.
 */
export default async function setup(project: TestProject) {
  const external = project.name === 'external';
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let admin: pg.PoolConfig;
  if (external) {
    const url = readTestEnv().testDatabaseUrl;
    if (!url) throw new Error('TEST_DATABASE_URL is required for the external project');
    admin = connectionFromUrl(url);
  } else {
    dataDir = await mkdtemp(path.join(tmpdir(), 'eventry-test-'));
    embedded = await startEmbeddedPostgres({ dataDir, database: 'postgres' });
    admin = embedded.connection;
  }

  const template = `eventry_template_${process.pid}_${Date.now().toString(36)}`;
  const client = new pg.Client(admin);
  await client.connect();
  await client.query(`CREATE DATABASE ${template}`);
  await client.end();

  const pool = new pg.Pool(templateConnection(admin, template));
  await runMigrations(pool);
  await pool.query(`INSERT INTO categories (id, name, position) VALUES
    ('music','Music',1),('sports','Sports',2),('technology','Technology',3),('arts','Arts',4),
    ('food','Food & Drink',5),('business','Business',6),('other','Other',7)`);
  await pool.end();

  project.provide('testDatabase', { admin, template });

  return async () => {
    const cleanup = new pg.Client(admin);
    await cleanup.connect();
    const dbs = await cleanup.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
      [template, `${template}_%`],
    );
    for (const { datname } of dbs.rows) {
      await cleanup.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    }
    await cleanup.end();
    await embedded?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}

export function templateConnection(admin: pg.PoolConfig, database: string): pg.PoolConfig {
  if (admin.connectionString) {
    const url = new URL(admin.connectionString);
    url.pathname = `/${database}`;
    return { connectionString: url.toString() };
  }
  return { ...admin, database };
}
