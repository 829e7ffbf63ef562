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
