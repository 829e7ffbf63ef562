import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { rateLimits } from './schema';

/**
 * A fixed-window counter in better-auth's rate_limits table (keys of ours never collide with its
 * `ip|path` keys). `lastRequest` holds the window's start, so better-auth's own pruning of rows older
 * than its longest window only ever removes finished windows. Returns the count after this hit.
 */
export async function hitCounter(
  db: DbOrTx,
  key: string,
  windowMs: number,
  now: number,
): Promise<{ count: number; windowStart: number }> {
  const expired = sql`${rateLimits.lastRequest} <= ${now - windowMs}`;
  const [row] = await db
    .insert(rateLimits)
    .values({ id: randomUUID(), key, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        lastRequest: sql`CASE WHEN ${expired} THEN ${now}::bigint ELSE ${rateLimits.lastRequest} END`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.lastRequest });
  return row ?? { count: 1, windowStart: now };
}

/** The counter's value in its current window (0 when none or finished). */
export async function peekCounter(
  db: DbOrTx,
  key: string,
  windowMs: number,
  now: number,
): Promise<{ count: number; windowStart: number }> {
  const [row] = await db
    .select({ count: rateLimits.count, windowStart: rateLimits.lastRequest })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), sql`${rateLimits.lastRequest} > ${now - windowMs}`));
  return row ?? { count: 0, windowStart: now };
}
