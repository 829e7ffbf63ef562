import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../contracts/dates';
import { createTestEvent, createUsersFast, expectCapacityInvariant } from '../../test/booking-fixtures';
import { setupTestApp } from '../../test/helpers';
import { findBookingsForSettlement, payPendingBookings, payRememberedHolds } from './payment-repository';
import { findUnexpiredHold, reserveBatch } from './repository';

/**
 * An on-sale with thousands of pending holds, on a database whose statistics were taken before it (as on a
 * fresh install, or on any day until autovacuum analyzes the table again). Every statement must find its
 * own rows by their keys: one that reads an entry of every pending hold gets slower with every buyer, and
 * the reservations do it under the event's row lock.
 */

// A database of its own: the index counters below must count this file's statements only.
const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());

const HOLDS = 3_000;
/** More statements than PostgreSQL's five custom plans of a prepared statement: the rest use its generic plan. */
const ROUNDS = 8;

/** `count` pending holds of one ticket on a new event, inserted at once. */
async function onSale(count: number) {
  const event = await createTestEvent(pool, { capacity: count + 100 });
  const buyers = await createUsersFast(pool, ctx.config.authSecret, count);
  const holds = await pool.query<{ id: string; user_id: string }>(
    `INSERT INTO bookings (user_id, event_id, quantity, unit_price_piasters, total_piasters, expires_at)
     SELECT u, $1, 1, $2, $2, now() + interval '10 minutes' FROM unnest($3::text[]) AS u
     RETURNING id, user_id`,
    [event.id, event.pricePiasters, buyers.map((buyer) => buyer.id)],
  );
  await pool.query('UPDATE events SET tickets_available = 100 WHERE id = $1', [event.id]);
  return { event, keys: holds.rows.map((row) => ({ bookingId: row.id, userId: row.user_id })) };
}

/**
 * Index entries of bookings (every index: one per pending hold in the expiry job's, and one per hold paid or
 * replaced since the last vacuum) that `work` read on `client`. pg_stat_force_next_flush makes the client
 * flush its counters when that call returns.
 */
async function bookingsIndexEntriesRead(client: pg.PoolClient, work: () => Promise<void>): Promise<number> {
  const read = async () => {
    await client.query('SELECT pg_stat_force_next_flush()');
    const result = await pool.query<{ read: string }>(
      `SELECT sum(idx_tup_read) AS read FROM pg_stat_user_indexes WHERE relname = 'bookings'`,
    );
    return Number(result.rows[0]?.read);
  };
  const before = await read();
  await work();
  return (await read()) - before;
}

describe('an on-sale with thousands of pending holds', () => {
  // First, while the table has never been analyzed (the state in which the reservations' plan went wrong).
  it('reserves by probing the buyers’ own holds', async () => {
    const { event } = await onSale(HOLDS);
    const buyers = await createUsersFast(pool, ctx.config.authSecret, 3 * ROUNDS);
    const client = await pool.connect();
    try {
      const created: string[] = [];
      const entriesRead = await bookingsIndexEntriesRead(client, async () => {
        for (let i = 0; i < ROUNDS; i++) {
          const batch = buyers.slice(3 * i, 3 * i + 3).map((buyer) => buyer.id);
          const result = await reserveBatch(client, {
            eventId: event.id,
            userIds: batch,
            quantities: [1, 1, 1],
            keys: [null, null, null],
            holdMinutes: 10,
            provider: 'simulated',
            today: todayIn('Africa/Cairo'),
          });
          if (result.status !== 'ok') throw new Error(`reservation ${result.status}`);
          for (const item of result.items) if (item.kind === 'created') created.push(item.row.userId);
        }
      });
      expect(created.sort()).toEqual(buyers.map((buyer) => buyer.id).sort());
      // Not an entry of every pending hold per batch (3,000 each).
      expect(entriesRead).toBeLessThan(HOLDS);
    } finally {
      client.release();
    }
    await expectCapacityInvariant(pool);
  });

  it('pays by finding each payment’s bookings by id', async () => {
    // The statistics are taken when no hold is pending, as before a real on-sale.
    await pool.query(`UPDATE bookings SET status = 'cancelled', ended_reason = 'replaced' WHERE status = 'pending'`);
    await pool.query('UPDATE events SET tickets_available = capacity');
    await pool.query('ANALYZE bookings');
    const { event, keys } = await onSale(HOLDS);
    const client = await pool.connect();
    try {
      const paid: string[] = [];
      const entriesRead = await bookingsIndexEntriesRead(client, async () => {
        for (let i = 0; i < ROUNDS; i++) {
          const [remembered, read] = await findBookingsForSettlement(client, keys.slice(2 * i, 2 * i + 2));
          if (!remembered || !read) throw new Error('hold not found');
          paid.push(...(await payRememberedHolds(client, [remembered], 'simulated')));
          paid.push(...(await payPendingBookings(client, [read], 'simulated')));
        }
      });
      expect(paid.sort()).toEqual(
        keys
          .slice(0, 2 * ROUNDS)
          .map((key) => key.bookingId)
          .sort(),
      );
      // Not an entry of every pending hold per statement (3,000 each).
      expect(entriesRead).toBeLessThan(HOLDS);

      // A buyer opening the ticket page finds their own hold the same way.
      const holder = keys[HOLDS - 1] as { bookingId: string; userId: string };
      const pageLoads = await bookingsIndexEntriesRead(client, async () => {
        for (let i = 0; i < ROUNDS; i++) {
          const found = await findUnexpiredHold(client, event.id, holder.userId);
          expect(found?.hold?.id).toBe(holder.bookingId);
        }
      });
      expect(pageLoads).toBeLessThan(HOLDS);
    } finally {
      client.release();
    }
    const statuses = await pool.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM bookings WHERE event_id = $1 GROUP BY status ORDER BY status`,
      [event.id],
    );
    expect(statuses.rows).toEqual([
      { status: 'paid', n: 2 * ROUNDS },
      { status: 'pending', n: HOLDS - 2 * ROUNDS },
    ]);
    await expectCapacityInvariant(pool);
  });

  it('cannot look a batch’s holds up as a list of the buyers’ bookings in the Idempotency-Key index', async () => {
    // The reservation function's hold lookup, planned without its own index (dropped inside a transaction
    // that is rolled back): before migration 0014 the planner walked bookings_user_idempotency_idx, which
    // held every booking of each buyer, and in two benchmark runs it chose that walk over the pending-hold
    // index with statistics taken as the on-sale began. Now only keyed bookings are in it.
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DROP INDEX bookings_one_pending_per_user_event_idx');
      await client.query('SET LOCAL enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT b.user_id, b.id FROM bookings b
          WHERE b.user_id = ANY ($1::text[]) AND b.event_id = $2 AND b.status = 'pending' FOR UPDATE`,
        [['u1', 'u2'], '00000000-0000-4000-8000-000000000000'],
      );
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).not.toContain('bookings_user_idempotency_idx');
      // A replay's probe still uses it.
      const replay = await client.query<{ 'QUERY PLAN': string }>(
        'EXPLAIN SELECT b.id FROM bookings b WHERE b.user_id = $1 AND b.idempotency_key = $2',
        ['u1', 'key'],
      );
      expect(replay.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('bookings_user_idempotency_idx');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
