import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/helpers';
import { repeatableFiles, runMigrations } from './migrate';

const db = await createTestDatabase();
afterAll(() => db.drop());

describe('runMigrations', () => {
  it('applies the repeatable definitions after the migrations, again on every start', async () => {
    const { pool } = db.database;
    // A database that ran an older definition gets the one of repeatable files at the next start.
    await pool.query(`ALTER FUNCTION eventry_reserve_tickets(uuid, text[], int[], text[], int, text, date) RESET ALL`);
    await runMigrations(pool);
    await runMigrations(pool);
    const live = await pool.query<{ body: string; config: string[] | null }>(
      `SELECT prosrc AS body, proconfig AS config FROM pg_proc WHERE proname = 'eventry_reserve_tickets'`,
    );
    expect(live.rows).toHaveLength(1);
    expect(live.rows[0]?.config).toEqual(['enable_seqscan=off']);
    const reserve = repeatableFiles().find((file) => path.basename(file) === 'eventry_reserve_tickets.sql');
    const file = readFileSync(reserve ?? 'eventry_reserve_tickets.sql is not among the repeatable files', 'utf8');
    expect(file).toContain(live.rows[0]?.body.trim());
  });
});
