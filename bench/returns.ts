/**
 * Returns during an on-sale (issue 36), row 8 of `npm run bench` (`--only=8` runs it alone): an event of 2,000
 * tickets sold out to 1,000 holds of two, a waitlist of 1,000 people behind it, 200 buyers trying to reserve all the
 * while, and 5 % of the holds running out during the run (a slice every 200 ms, released by the app's own expiry
 * job). Every returned ticket must be offered to the waitlist in the statement that returns it (decision 021):
 * offered tickets against returned tickets (the ceiling: nothing can be offered that did not come back), none on
 * sale to the buyers, zero oversell, capacity = available + held + offered + sold, and the buyers' answers' p99
 * while it happens. Nothing here asserts a timing: the figures go to the table and to latest.json.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { type CapacityParts, capacityAddsUp, capacityPartsQuery } from '../server/test/capacity-invariant';
import { round } from './lib/load';
import type { BenchRow } from './lib/report';
import { createBuyers, createEvent, type HttpRun, openBuyers, runHttp } from './reservations';

export interface ReturnsBenchOptions {
  baseUrl: string;
  dataDir: string;
  database: pg.PoolConfig;
  buyers: number;
  durationSeconds: number;
  log: (message: string) => void;
}

export interface ReturnsBenchResult {
  capacity: number;
  holds: number;
  waitlist: number;
  buyers: number;
  returnedTickets: number;
  offeredTickets: number;
  offers: number;
  offersPerSecond: number;
  onSaleAfter: number;
  outOfOrder: number;
  http: HttpRun;
  invariantHolds: boolean;
  oversold: number;
  rows: Array<Omit<BenchRow, 'row'>>;
}

const HOLDS = 1_000;
const PER_HOLD = 2;
const WAITING = 1_000;
const EXPIRING_SHARE = 0.05;

export async function runReturnsBench(options: ReturnsBenchOptions): Promise<ReturnsBenchResult> {
  const { log } = options;
  const pool = new pg.Pool({ ...options.database, max: 4 });
  pool.on('error', () => {});
  const authSecret = (await readFile(path.join(options.dataDir, '.auth-secret'), 'utf8')).trim();
  try {
    const capacity = HOLDS * PER_HOLD;
    const eventId = await createEvent(pool, 'Returns during an on-sale', capacity);
    // Sold out: every ticket held (the holds of 1,000 people, an hour left on each).
    const holders = await pool.query<{ id: string }>(
      `INSERT INTO users (id, name, email)
       SELECT 'holder-' || $1::text || '-' || n, 'Holder', 'holder-' || $1::text || '-' || n || '@example.com'
         FROM generate_series(1, $2::int) AS n RETURNING id`,
      [eventId, HOLDS],
    );
    const holds = await pool.query<{ id: string }>(
      `WITH taken AS (UPDATE events SET tickets_available = 0 WHERE id = $1::uuid)
       INSERT INTO bookings (user_id, event_id, quantity, unit_price_piasters, total_piasters, expires_at, payment_provider)
       SELECT u, $1::uuid, $2, 15000, $2 * 15000, now() + interval '1 hour', 'simulated' FROM unnest($3::text[]) AS u
       RETURNING id`,
      [eventId, PER_HOLD, holders.rows.map((r) => r.id)],
    );
    // The waitlist: 1,000 people, one ticket each, a third of them taking fewer were it offered.
    await pool.query(
      `WITH people AS (
         INSERT INTO users (id, name, email, language)
         SELECT 'waiting-' || $1::text || '-' || n, 'Waiting ' || n, 'waiting-' || $1::text || '-' || n || '@example.com',
                CASE WHEN n % 2 = 0 THEN 'ar' ELSE 'en' END
           FROM generate_series(1, $2::int) AS n RETURNING id
       )
       INSERT INTO waitlist_entries (event_id, user_id, quantity, accept_fewer)
       SELECT $1::uuid, id, 1 + (row_number() OVER (ORDER BY id) % 2)::int, row_number() OVER (ORDER BY id) % 3 = 0
         FROM people ORDER BY id`,
      [eventId, WAITING],
    );
    const cookies = await createBuyers(pool, authSecret, options.buyers);
    log(`sold out: ${HOLDS} holds of ${PER_HOLD}, ${WAITING} waiting, ${cookies.length} buyers`);

    // 5 % of the holds run out during the run, a slice every 200 ms; the app's expiry job releases them.
    const expiring = holds.rows.map((r) => r.id).slice(0, Math.round(HOLDS * EXPIRING_SHARE));
    const slices = Math.max(1, Math.floor((options.durationSeconds * 1000) / 200));
    const perSlice = Math.ceil(expiring.length / slices);
    let lapsing = true;
    const lapser = (async () => {
      for (let i = 0; i < expiring.length && lapsing; i += perSlice) {
        await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [
          expiring.slice(i, i + perSlice),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const started = Date.now();
    const buyers = openBuyers(options.baseUrl, cookies);
    let http: HttpRun;
    try {
      http = await runHttp(options.baseUrl, eventId, buyers, 'reserve', options.durationSeconds, 1);
    } finally {
      lapsing = false;
      for (const { connection } of buyers) connection.close();
    }
    await lapser;
    // The expiry job runs every 2 s: wait until it has released every hold that ran out.
    for (let waited = 0; waited < 15_000; waited += 250) {
      const left = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM bookings WHERE event_id = $1 AND status = 'pending' AND expires_at < now()`,
        [eventId],
      );
      if (left.rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (Date.now() - started) / 1000;

    const figures = await pool.query<{
      returned: number;
      offered: number;
      offers: number;
      firstAt: Date;
      lastAt: Date;
    }>(
      `SELECT (SELECT coalesce(sum(quantity), 0)::int FROM bookings WHERE event_id = $1 AND status = 'expired'
                AND waitlist_entry_id IS NULL) AS returned,
              coalesce(sum(quantity), 0)::int AS offered, count(*)::int AS offers,
              min(created_at) AS "firstAt", max(created_at) AS "lastAt"
         FROM bookings WHERE event_id = $1 AND waitlist_entry_id IS NOT NULL`,
      [eventId],
    );
    const { returned, offered, offers } = figures.rows[0] as { returned: number; offered: number; offers: number };
    // Join order: an entry offered tickets with an earlier one still waiting that would have taken them.
    const order = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM waitlist_entries o
         JOIN bookings b ON b.waitlist_entry_id = o.id
         JOIN waitlist_entries w ON w.event_id = o.event_id AND w.status = 'waiting' AND w.joined_seq < o.joined_seq
                               AND (w.accept_fewer OR w.quantity <= b.quantity)
        WHERE o.event_id = $1`,
      [eventId],
    );
    const parts = (await pool.query<CapacityParts>(capacityPartsQuery('e.id = $1'), [eventId]))
      .rows[0] as CapacityParts;
    const result: ReturnsBenchResult = {
      capacity,
      holds: HOLDS,
      waitlist: WAITING,
      buyers: options.buyers,
      returnedTickets: returned,
      offeredTickets: offered,
      offers,
      offersPerSecond: round(offers / seconds, 1),
      onSaleAfter: parts.available,
      outOfOrder: order.rows[0]?.n ?? 0,
      http,
      invariantHolds: capacityAddsUp(parts),
      oversold: Math.max(0, parts.held + parts.offered + parts.sold - parts.capacity),
      rows: [],
    };
    log(
      `${returned} tickets returned, ${offered} offered in ${offers} offers (${result.offersPerSecond}/s), ` +
        `${parts.available} on sale after; buyers ${http.reservations} reserved, ${http.refused409} refused, ` +
        `p99 ${http.reserveLatencyMs.p99} ms`,
    );
    result.rows = [
      {
        measurement: `returns during an on-sale (${HOLDS} holds, ${WAITING} waiting, ${options.buyers} buyers, 5 % of holds run out): tickets offered / returned`,
        ours: offered,
        ceiling: returned,
        ratio: returned > 0 ? round(offered / returned, 3) : null,
        target: '1.0× (every returned ticket offered, none on sale)',
        pass: returned > 0 && offered === returned && parts.available === 0,
      },
      {
        measurement: 'returns during an on-sale: offers/s (as fast as the holds ran out), offers out of join order',
        ours: `${result.offersPerSecond}/s, ${result.outOfOrder} out of order`,
        ceiling: null,
        ratio: null,
        target: '0 out of order',
        pass: result.outOfOrder === 0,
      },
      {
        measurement:
          'returns during an on-sale: buyers reservation p50 / p99 (all refused: the tickets went to the waitlist)',
        ours: `${http.reserveLatencyMs.p50} / ${http.reserveLatencyMs.p99} ms, ${http.reservations} reserved`,
        ceiling: null,
        ratio: null,
        target: 'p99 ≤ 60 ms, 0 reserved',
        pass: http.reserveLatencyMs.p99 <= 60 && http.reservations === 0 && http.errors === 0,
      },
      {
        measurement: 'returns during an on-sale: tickets oversold',
        ours: result.oversold,
        ceiling: null,
        ratio: null,
        target: '0, capacity = available + held + offered + sold',
        pass: result.oversold === 0 && result.invariantHolds,
      },
    ];
    return result;
  } finally {
    await pool.end();
  }
}
