import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import { featuresDir, migrationsDir } from '../paths';

/** Arbitrary but fixed: every Eventry process agrees on it, so concurrent starts migrate one at a time. */
const MIGRATION_LOCK = 727_001;

/**
 * Definitions kept beside the feature that owns them rather than restated by a migration each time they
 * change (database functions, in `server/features/<feature>/sql/`): each file is one idempotent statement
 * (CREATE OR REPLACE), applied after the migrations on every start, in the order of their paths. A change
 * of signature needs a migration that drops the old definition first.
 */
export function repeatableFiles(): string[] {
  const files: string[] = [];
  for (const feature of readdirSync(featuresDir).sort()) {
    const dir = path.join(featuresDir, feature, 'sql');
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith('.sql')) files.push(path.join(dir, name));
    }
  }
  return files;
}

export async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: migrationsDir });
      for (const file of repeatableFiles()) await client.query(readFileSync(file, 'utf8'));
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** How many migrations this build has (its journal). */
function bundledMigrations(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/**
 * Whether the database has every migration of this build (a process started before another applied a newer
 * build's are behind; one whose database was restored from an older backup is too).
 */
export async function migrationsApplied(db: Pick<pg.Pool, 'query'>): Promise<boolean> {
  const result = await db.query<{ applied: number }>(
    `SELECT CASE WHEN to_regclass('drizzle.__drizzle_migrations') IS NULL THEN 0
                 ELSE (SELECT count(*)::int FROM drizzle.__drizzle_migrations) END AS applied`,
  );
  return (result.rows[0]?.applied ?? 0) >= bundledMigrations();
}
