import type { Queryable } from './client';

/**
 * A secret every process of the app shares, made once: the first process to ask stores `make()`'s value under
 * `name` (app_secrets), and every process, that one included, gets what was stored. Two processes starting at
 * the same moment get the same value.
 */
export async function sharedSecret(db: Queryable, name: string, make: () => string): Promise<string> {
  await db.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, make()]);
  const result = await db.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [name]);
  const stored = result.rows[0];
  if (!stored) throw new Error(`the shared secret ${name} could not be stored`);
  return stored.value;
}
