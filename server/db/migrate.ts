import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import { migrationsDir } from '../paths';

/** Arbitrary but fixed: every Eventry process agrees on it, so concurrent starts migrate one at a time. */
const MIGRATION_LOCK = 727_001;

/**
 * Definitions kept in one place rather than restated by a migration each time they change (database
 * functions): each file is one idempotent statement (CREATE OR REPLACE), applied in name order after the
 * migrations on every start. A change of signature needs a migration that drops the old definition first.
 */
export const repeatableDir = path.join(migrationsDir, 'repeatable');

export async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: migrationsDir });
      for (const file of readdirSync(repeatableDir)
        .filter((name) => name.endsWith('.sql'))
        .sort()) {
        await client.query(readFileSync(path.join(repeatableDir, file), 'utf8'));
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
