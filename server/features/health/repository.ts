import type { Queryable } from '../../db/client';

/** The cheapest round trip to PostgreSQL: throws when the database cannot answer. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
