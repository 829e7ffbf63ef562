/**
 * The organiser's dashboard (issue 37), row 9 of `npm run bench` (`--only=9` runs it alone): one event with 100,000
 * bookings over the last 60 days (mostly paid, some refunded wholly or in part through `refunds` rows that
 * succeeded, some holds still pending, some cancelled), their tickets, 20,000 of them checked in at the door today,
 * and a page-view count per day, written in bulk with SQL and then VACUUM ANALYZEd. Then:
 *
 * (a) 10 signed-in admins asking for that event's dashboard over 61 days (`GET /api/admin/dashboard?from=&to=&eventId=`,
 *     one keep-alive connection each) beside the bare route: bench/ceiling-server.mjs answering the same URL with the
 *     bytes ours answered, measured in turns as rows 1-2 are. Ten admins watching the same figures share one set of
 *     queries in the app (service.ts); so, beside it, ten admins each asking for a range of their own (61 days, 60,
 *     …): since 2026-11-28 ranges of one event share a set too (service.ts sharedEventParts, the union of the ranges
 *     asked for while one set runs), so a third run has ten admins each on one day of their own (one-day ranges
 *     are not shared: each runs the event's statements and its hours), the cost of ten sets competing.
 *     The seed is written with triggers off, so the closed days are summed again after it (decision 025): the
 *     figures then read the sums of the 60 days before today and today's orders.
 * (b) What each of the dashboard's queries costs on that data: every statement of server/features/dashboard/repository.ts
 *     the request runs (service.ts eventParts, for one event over more than one day), under EXPLAIN (ANALYZE,
 *     BUFFERS), its time and its plan's nodes (figures.dashboard.queries).
 * (c) The JavaScript the dashboard page loads (gzip), as a signed-in admin, and how much of it the home page does not
 *     load; 'not available' when the build has no dashboard page yet.
 *
 * Nothing here asserts a timing: the figures go to the table and to latest.json.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { ARRIVALS_BUCKET_MINUTES } from '../contracts/dashboard';
import { addDays } from '../contracts/dates';
import type { Queryable } from '../server/db/client';
import {
  closeDashboardDays,
  closedBefore,
  eventBookingFigures,
  eventRefundFigures,
  eventRow,
  eventTicketFigures,
  isLiveEvent,
  type RangeParams,
  reopenDashboardDays,
  viewsByDay,
} from '../server/features/dashboard/repository';
import { adminCookie, type CheckInBenchOptions } from './check-in';
import { measurePages, type PageLoad } from './lib/bundles';
import { type LoadResult, loadEach, loadInTurns, round } from './lib/load';
import { rawGet } from './lib/processes';
import type { BenchRow } from './lib/report';
import { createEvent } from './reservations';

/** Row 7's options, with admins asking for the dashboard instead of scanners at the door. */
export type DashboardBenchOptions = Omit<CheckInBenchOptions, 'scanners'> & { admins: number };

export interface SeededEvent {
  eventId: string;
  bookings: number;
  byStatus: Record<string, number>;
  tickets: number;
  ticketsValid: number;
  checkedIn: number;
  refunds: number;
  viewDays: number;
  seconds: number;
}

export interface QueryCost {
  name: string;
  executionMs: number;
  planningMs: number;
  sharedHitBlocks: number;
  sharedReadBlocks: number;
  /** The plan's nodes, one line each, indented by depth: node, relation and index, rows, time. */
  plan: string[];
}

export interface DashboardPages {
  home: PageLoad;
  dashboard: PageLoad;
  /** JS files the dashboard page loads that the home page does not. */
  adminOnly: Array<{ url: string; gzipBytes: number }>;
  adminOnlyGzipBytes: number;
}

export interface DashboardBenchResult {
  seed: SeededEvent;
  /** Summing the closed days after the seed (decision 025): the last one and how long it took. */
  closed: { lastDay: string | null; ms: number };
  timeZone: string;
  url: string;
  responseBytes: number;
  sameRange: { ours: LoadResult; ceiling: LoadResult };
  ownRanges: LoadResult;
  /** Ten admins each on one day of their own: nothing shared. */
  ownDays: LoadResult;
  queries: QueryCost[];
  pages: DashboardPages | { unavailable: string };
  rows: Array<Omit<BenchRow, 'row'>>;
}

const BOOKINGS = 100_000;
const CHECKED_IN = 20_000;
const BUYERS = 20_000;
const DAYS = 60;
const PRICE = 15_000;
const P99_TARGET_MS = 200;

/**
 * The event and its history, in bulk. The seeding connection runs with session_replication_role = replica, so that
 * no trigger fires (the tickets are written here, as the issuing trigger would write them, without 100,000 calls of
 * it; nor does a sales notification go out per row) and no foreign key is checked (every key written is real).
 */
export async function seedDashboardEvent(pool: pg.Pool, timeZone: string, today: string): Promise<SeededEvent> {
  const started = performance.now();
  const eventId = await createEvent(pool, 'Dashboard benchmark', 300_000);
  const prefix = `dash-${eventId.slice(0, 8)}-`;
  const client = await pool.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO users (id, name, email)
       SELECT $1 || n, 'Buyer ' || n, $1 || n || '@example.com' FROM generate_series(1, $2::int) AS n`,
      [prefix, BUYERS],
    );
    // Kinds of booking: 84 % paid, 4 % paid and given back in part, 5 % given back whole, 3 % holds still pending
    // (each by a buyer of its own: one pending hold per buyer and event), 4 % cancelled before paying. Sales come
    // faster as the day nears (power 1.5 of a uniform draw); each was reserved 2 minutes before it was paid.
    await client.query(
      `WITH drawn AS (
         SELECT n, random() AS k, random() AS m, 1 + floor(random() * 4)::int AS q,
                now() - interval '5 minutes' - interval '1 day' * ($3::int - 0.01) * power(random(), 1.5) AS at
           FROM generate_series(1, $2::int) AS n),
       kinded AS MATERIALIZED (
         SELECT n, m, at,
                CASE WHEN k < 0.84 THEN 'paid' WHEN k < 0.88 THEN 'partly' WHEN k < 0.93 THEN 'refunded'
                     WHEN k < 0.96 THEN 'pending' ELSE 'cancelled' END AS kind,
                CASE WHEN k >= 0.84 AND k < 0.88 THEN greatest(q, 2) ELSE q END AS q
           FROM drawn),
       pending_buyers AS (
         INSERT INTO users (id, name, email)
         SELECT $1 || 'p' || n, 'Holder ' || n, $1 || 'p' || n || '@example.com' FROM kinded WHERE kind = 'pending')
       INSERT INTO bookings (user_id, event_id, quantity, unit_price_piasters, total_piasters, status, ended_reason,
                             expires_at, payment_provider, payment_method, paid_at, created_at, updated_at,
                             refunded_quantity, refunded_piasters)
       SELECT CASE WHEN kind = 'pending' THEN $1 || 'p' || n ELSE $1 || (1 + n % $5::int) END,
              $4::uuid, q, $6::int, q * $6::int,
              CASE kind WHEN 'partly' THEN 'paid' ELSE kind END,
              CASE kind WHEN 'refunded' THEN CASE WHEN n % 2 = 0 THEN 'refunded_to_buyer' ELSE 'refunded_by_organiser' END
                        WHEN 'cancelled' THEN 'cancelled_by_buyer' END,
              CASE WHEN kind = 'pending' THEN now() + interval '1 hour' ELSE at + interval '10 minutes' END,
              CASE WHEN kind IN ('pending', 'cancelled') THEN NULL WHEN m < 0.1 THEN 'simulated' WHEN m < 0.4 THEN 'stripe'
                   ELSE 'paymob' END,
              CASE WHEN kind IN ('pending', 'cancelled') OR m < 0.4 THEN NULL WHEN m < 0.7 THEN 'card' WHEN m < 0.9 THEN 'wallet'
                   ELSE 'cash' END,
              CASE WHEN kind IN ('paid', 'partly', 'refunded') THEN at + interval '2 minutes' END,
              CASE WHEN kind = 'pending' THEN now() - interval '3 minutes' ELSE at END,
              CASE WHEN kind = 'pending' THEN now() - interval '3 minutes' ELSE at END,
              CASE kind WHEN 'refunded' THEN q WHEN 'partly' THEN 1 ELSE 0 END,
              CASE kind WHEN 'refunded' THEN q * $6::int WHEN 'partly' THEN $6::int ELSE 0 END
         FROM kinded
        -- In the order they were made, as a table that rows are appended to holds them (the BRIN index on
        -- created_at summarises that order).
        ORDER BY CASE WHEN kind = 'pending' THEN now() - interval '3 minutes' ELSE at END`,
      [prefix, BOOKINGS, DAYS, eventId, BUYERS, PRICE],
    );
    // One refund that succeeded per booking given back, some time between its payment and now.
    await client.query(
      `INSERT INTO refunds (booking_id, quantity, amount_piasters, fee_piasters, reason, status, completed_at,
                            created_at, updated_at)
       SELECT id, refunded_quantity, refunded_piasters, 0,
              CASE WHEN ended_reason = 'refunded_to_buyer' THEN 'buyer' ELSE 'organiser' END, 'succeeded', t, t, t
         FROM (SELECT b.*, b.paid_at + (now() - b.paid_at) * random() AS t FROM bookings b
                WHERE b.event_id = $1 AND b.refunded_quantity > 0) AS given_back`,
      [eventId],
    );
    // The tickets the issuing trigger would have written (1..quantity, a code each), those given back voided when
    // their refund was made.
    await client.query(
      `INSERT INTO tickets (booking_id, event_id, number, code, issued_at, voided_at)
       SELECT b.id, b.event_id, s.number, eventry_ticket_code(), b.paid_at,
              CASE WHEN s.number > b.quantity - b.refunded_quantity THEN r.completed_at END
         FROM bookings b
         CROSS JOIN LATERAL generate_series(1, b.quantity) AS s(number)
         LEFT JOIN refunds r ON r.booking_id = b.id
        WHERE b.event_id = $1 AND b.paid_at IS NOT NULL
       ON CONFLICT DO NOTHING`,
      [eventId],
    );
    // The door today: 20,000 valid tickets admitted between 16:30 and 19:30 (the event starts at 18:00).
    await client.query(
      `UPDATE tickets SET checked_in_at = (($2::date + time '16:30') AT TIME ZONE $3) + random() * interval '3 hours',
                          checked_in_by_name = 'Door'
        WHERE id IN (SELECT id FROM tickets WHERE event_id = $1 AND voided_at IS NULL ORDER BY random() LIMIT $4)`,
      [eventId, today, timeZone, CHECKED_IN],
    );
    await client.query(
      `INSERT INTO page_views (event_id, day, views)
       SELECT $1::uuid, d::date, 4000 + floor(random() * 4000)::int
         FROM generate_series($2::date - $3::int, $2::date, interval '1 day') AS d`,
      [eventId, today, DAYS],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release(true);
  }
  // The event takes place today; capacity = available + held + sold (outside replica mode: the catalogue hears of it).
  await pool.query(
    `WITH counted AS (
       SELECT coalesce(sum(quantity - refunded_quantity) FILTER (WHERE status = 'paid'), 0)::int AS sold,
              coalesce(sum(quantity) FILTER (WHERE status = 'pending'), 0)::int AS held
         FROM bookings WHERE event_id = $1)
     UPDATE events SET start_date = $2::date - ($3::int + 1), end_date = $2::date, event_date = $2::date,
                       start_time = '18:00', end_time = '23:00', capacity = sold + held + 10000, tickets_available = 10000
       FROM counted WHERE id = $1`,
    [eventId, today, DAYS],
  );
  for (const table of ['users', 'events', 'bookings', 'refunds', 'tickets', 'page_views']) {
    await pool.query(`VACUUM ANALYZE ${table}`);
  }
  const counts = await pool.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM bookings WHERE event_id = $1 GROUP BY 1`,
    [eventId],
  );
  const tickets = await pool.query<{ all: number; valid: number; checked: number; refunds: number; days: number }>(
    `SELECT count(*)::int AS all, count(*) FILTER (WHERE voided_at IS NULL)::int AS valid,
            count(*) FILTER (WHERE checked_in_at IS NOT NULL)::int AS checked,
            (SELECT count(*)::int FROM refunds r JOIN bookings b ON b.id = r.booking_id WHERE b.event_id = $1) AS refunds,
            (SELECT count(*)::int FROM page_views WHERE event_id = $1) AS days
       FROM tickets WHERE event_id = $1`,
    [eventId],
  );
  const t = tickets.rows[0] as { all: number; valid: number; checked: number; refunds: number; days: number };
  const byStatus = Object.fromEntries(counts.rows.map((r) => [r.status, r.n]));
  return {
    eventId,
    bookings: counts.rows.reduce((total, r) => total + r.n, 0),
    byStatus,
    tickets: t.all,
    ticketsValid: t.valid,
    checkedIn: t.checked,
    refunds: t.refunds,
    viewDays: t.days,
    seconds: round((performance.now() - started) / 1000, 2),
  };
}

/** The plan's nodes as lines: 'Index Scan using bookings_paid_idx on bookings b: 95,000 rows, 40.1 ms'. */
function planLines(node: Record<string, unknown>, depth = 0): string[] {
  const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const using = node['Index Name'] ? ` using ${node['Index Name']}` : '';
  const loops = Number(node['Actual Loops'] ?? 1);
  const rows = Number(node['Actual Rows'] ?? 0) * loops;
  const ms = Number(node['Actual Total Time'] ?? 0) * loops;
  const line = `${'  '.repeat(depth)}${node['Node Type']}${using}${on}: ${rows.toLocaleString('en-US')} rows, ${round(ms, 1)} ms`;
  const children = (node.Plans as Array<Record<string, unknown>> | undefined) ?? [];
  return [line, ...children.flatMap((child) => planLines(child, depth + 1))];
}

/**
 * Every statement one request for the dashboard of one event runs (service.ts build and rangeOf), each through a
 * Queryable that runs it under EXPLAIN (ANALYZE, BUFFERS) instead: twice, the second (warm) run kept.
 */
export async function explainDashboard(pool: pg.Pool, range: RangeParams): Promise<QueryCost[]> {
  const costs: QueryCost[] = [];
  const explaining = (name: string, keep: boolean): Queryable =>
    ({
      query: async (text: string, values?: unknown[]) => {
        const result = await pool.query<{ 'QUERY PLAN': Array<Record<string, unknown>> }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
          values,
        );
        const top = result.rows[0]?.['QUERY PLAN'][0] as Record<string, unknown>;
        const plan = top.Plan as Record<string, unknown>;
        if (keep) {
          costs.push({
            name,
            executionMs: round(Number(top['Execution Time']), 2),
            planningMs: round(Number(top['Planning Time']), 2),
            sharedHitBlocks: Number(plan['Shared Hit Blocks'] ?? 0),
            sharedReadBlocks: Number(plan['Shared Read Blocks'] ?? 0),
            plan: planLines(plan),
          });
        }
        return { rows: [] };
      },
    }) as unknown as Queryable;
  const eventId = range.eventId as string;
  const eventRange = { ...range, eventId };
  const before = await closedBefore(pool, range.timeZone);
  for (const keep of [false, true]) {
    await isLiveEvent(explaining('isLiveEvent', keep), eventId);
    await eventBookingFigures(explaining('eventBookingFigures', keep), eventRange, before);
    await eventRefundFigures(explaining('eventRefundFigures', keep), eventRange, before);
    await eventTicketFigures(explaining('eventTicketFigures', keep), eventRange, ARRIVALS_BUCKET_MINUTES, before);
    await viewsByDay(explaining('viewsByDay', keep), eventRange);
    await eventRow(explaining('eventRow', keep), eventId);
  }
  return costs.sort((a, b) => b.executionMs - a.executionMs);
}

/** The dashboard page's JS as a signed-in admin, and the part of it the home page (signed out) does not load. */
async function dashboardPages(baseUrl: string, cookie: string): Promise<DashboardPages | { unavailable: string }> {
  const [home] = await measurePages(baseUrl, ['/'], 30_000);
  const [dashboard] = await measurePages(baseUrl, ['/admin/dashboard'], 30_000, { cookies: [cookie] });
  if (!home || !dashboard) return { unavailable: 'the pages were not measured' };
  const js = dashboard.assets.filter((a) => a.kind === 'js');
  if (dashboard.status !== 200 || !js.some((a) => /dashboard/i.test(a.url))) {
    return {
      unavailable: `the build has no dashboard page yet (/admin/dashboard answered ${dashboard.status}, no dashboard chunk loaded)`,
    };
  }
  const onHome = new Set(home.assets.map((a) => a.url));
  const adminOnly = js.filter((a) => !onHome.has(a.url)).map((a) => ({ url: a.url, gzipBytes: a.gzipBytes }));
  return { home, dashboard, adminOnly, adminOnlyGzipBytes: adminOnly.reduce((total, a) => total + a.gzipBytes, 0) };
}

export async function runDashboardBench(options: DashboardBenchOptions): Promise<DashboardBenchResult> {
  const { log, admins } = options;
  const pool = new pg.Pool({ ...options.database, max: 4 });
  pool.on('error', () => {});
  const authSecret = (await readFile(path.join(options.dataDir, '.auth-secret'), 'utf8')).trim();
  try {
    const cookie = await adminCookie(pool, authSecret);
    const headers = { cookie };
    // Today and the time zone as the app counts them (its default range ends today).
    const probe = await rawGet(`${options.baseUrl}/api/admin/dashboard`, headers, 30_000);
    if (probe.status !== 200) {
      throw new Error(`GET /api/admin/dashboard answered ${probe.status}: ${probe.body.toString().slice(0, 200)}`);
    }
    const { to: today, timeZone } = JSON.parse(probe.body.toString()) as { to: string; timeZone: string };
    const seed = await seedDashboardEvent(pool, timeZone, today);
    log(
      `seeded in ${seed.seconds} s: ${seed.bookings} bookings (${JSON.stringify(seed.byStatus)}), ${seed.tickets} tickets ` +
        `(${seed.ticketsValid} valid, ${seed.checkedIn} checked in), ${seed.refunds} refunds, ${seed.viewDays} days of views`,
    );
    // The seed wrote 60 past days with triggers off, as a bulk load does: the closed days are forgotten and summed
    // again (decision 025), as the closing job would sum them; the figures then read today's orders only.
    const closing = performance.now();
    await reopenDashboardDays(pool);
    const lastClosed = await closeDashboardDays(pool, timeZone);
    const closeMs = round(performance.now() - closing, 0);
    log(`closed the days through ${lastClosed} in ${closeMs} ms`);
    const from = addDays(today, -DAYS);
    const url = `/api/admin/dashboard?from=${from}&to=${today}&eventId=${seed.eventId}`;
    const first = await rawGet(`${options.baseUrl}${url}`, headers, 30_000);
    if (first.status !== 200)
      throw new Error(`${url} answered ${first.status}: ${first.body.toString().slice(0, 200)}`);
    const body = first.body.toString('utf8');
    const figures = JSON.parse(body) as { ticketsSold: number; checkedIn: number; netPiasters: number };
    log(
      `${url}: ${Buffer.byteLength(body)} bytes; ${figures.ticketsSold} tickets sold, ${figures.checkedIn} checked in, ` +
        `net ${figures.netPiasters / 100} EGP`,
    );

    // (a) ten admins on the same figures, beside the bare route answering the same bytes.
    const ceiling = await options.startCeiling({ [url]: body });
    let sameRange: { ours: LoadResult; ceiling: LoadResult };
    try {
      sameRange = await loadInTurns(
        `${options.baseUrl}${url}`,
        `${ceiling.baseUrl}${url}`,
        admins,
        options.durationSeconds,
        4,
        2,
        headers,
      );
    } finally {
      await ceiling.stop();
    }
    const { ours, ceiling: top } = sameRange;
    log(
      `same range, ${admins} admins: ${ours.requestsPerSecond} req/s (ceiling ${top.requestsPerSecond}), ` +
        `p50 ${ours.latencyP50Ms} ms, p99 ${ours.latencyP99Ms} ms (ceiling p99 ${top.latencyP99Ms} ms)`,
    );
    // ... and ten admins each on a range of their own (61 days, 60, …): shared through the union of their ranges.
    const own = Array.from(
      { length: admins },
      (_, i) => `${options.baseUrl}/api/admin/dashboard?from=${addDays(from, i)}&to=${today}&eventId=${seed.eventId}`,
    );
    const ownRanges = await loadEach(own, options.durationSeconds / 2, 1, headers);
    log(
      `own ranges, ${admins} admins: ${ownRanges.requestsPerSecond} req/s, p50 ${ownRanges.latencyP50Ms} ms, ` +
        `p99 ${ownRanges.latencyP99Ms} ms`,
    );
    // ... and ten admins each on one day of their own (today, yesterday, …): nothing shared.
    const ownDays = await loadEach(
      Array.from(
        { length: admins },
        (_, i) =>
          `${options.baseUrl}/api/admin/dashboard?from=${addDays(today, -i)}&to=${addDays(today, -i)}&eventId=${seed.eventId}`,
      ),
      options.durationSeconds / 2,
      1,
      headers,
    );
    log(
      `own days, ${admins} admins: ${ownDays.requestsPerSecond} req/s, p50 ${ownDays.latencyP50Ms} ms, ` +
        `p99 ${ownDays.latencyP99Ms} ms`,
    );

    // (b) what each statement costs.
    const range: RangeParams = { timeZone, from, to: today, eventId: seed.eventId };
    const queries = await explainDashboard(pool, range);
    log(`queries (warm, EXPLAIN ANALYZE): ${queries.map((q) => `${q.name} ${q.executionMs} ms`).join(', ')}`);

    // (c) the page's JavaScript.
    const pages = await dashboardPages(options.baseUrl, cookie);
    if ('unavailable' in pages) log(`admin JS: ${pages.unavailable}`);
    else {
      log(
        `/admin/dashboard JS ${pages.dashboard.jsGzipBytes} B gzip in ${pages.dashboard.jsFiles} files, ` +
          `${pages.adminOnlyGzipBytes} B of it not loaded by / (${pages.adminOnly.map((a) => a.url).join(', ')})`,
      );
    }

    const clean = (run: LoadResult) => run.non2xx === 0 && run.errors === 0 && run.timeouts === 0;
    const problems = (run: LoadResult) =>
      clean(run) ? undefined : `non-2xx ${run.non2xx}, errors ${run.errors}, timeouts ${run.timeouts}`;
    const slowest = queries[0];
    const label = `dashboard of one event (${(BOOKINGS / 1000).toFixed(0)}k bookings, ${(CHECKED_IN / 1000).toFixed(0)}k check-ins), ${DAYS + 1} days`;
    const rows: Array<Omit<BenchRow, 'row'>> = [
      {
        measurement: `${label}: req/s @${admins} admins, same range`,
        ours: Math.round(ours.requestsPerSecond),
        ceiling: Math.round(top.requestsPerSecond),
        ratio: top.requestsPerSecond > 0 ? round(ours.requestsPerSecond / top.requestsPerSecond, 3) : null,
        target: '—',
        pass: null,
        note: problems(ours),
      },
      {
        measurement: `${label}: p99 latency @${admins} admins, same range (p50 ${ours.latencyP50Ms} ms)`,
        ours: ours.latencyP99Ms,
        ceiling: top.latencyP99Ms,
        ratio: null,
        target: `≤ ${P99_TARGET_MS} ms`,
        pass: clean(ours) && ours.latencyP99Ms <= P99_TARGET_MS,
        unit: 'ms',
        note: problems(ours),
      },
      {
        measurement: `${label}: p99 latency @${admins} admins, each a range of its own (p50 ${ownRanges.latencyP50Ms} ms, ${Math.round(ownRanges.requestsPerSecond)} req/s)`,
        ours: ownRanges.latencyP99Ms,
        ceiling: null,
        ratio: null,
        target: `≤ ${P99_TARGET_MS} ms`,
        pass: clean(ownRanges) && ownRanges.latencyP99Ms <= P99_TARGET_MS,
        unit: 'ms',
        note: problems(ownRanges),
      },
      {
        measurement: `${label.replace(`, ${DAYS + 1} days`, '')}: p99 latency @${admins} admins, each one day of its own, nothing shared (p50 ${ownDays.latencyP50Ms} ms, ${Math.round(ownDays.requestsPerSecond)} req/s)`,
        ours: ownDays.latencyP99Ms,
        ceiling: null,
        ratio: null,
        target: 'reported',
        pass: null,
        unit: 'ms',
        note: problems(ownDays),
      },
      {
        measurement: 'dashboard of one event: the slowest query (EXPLAIN ANALYZE, warm)',
        ours: slowest ? `${slowest.name} ${slowest.executionMs} ms` : '—',
        ceiling: null,
        ratio: null,
        target: '—',
        pass: null,
        note: queries
          .slice(1)
          .map((q) => `${q.name} ${q.executionMs} ms`)
          .join(', '),
      },
    ];
    if ('unavailable' in pages) {
      rows.push({
        measurement: '/admin/dashboard JS, gzip (signed-in admin)',
        ours: 'not available',
        ceiling: null,
        ratio: null,
        target: 'reported',
        pass: null,
        note: pages.unavailable,
      });
    } else {
      const kb = (bytes: number) => round(bytes / 1024, 1);
      rows.push({
        measurement: `/admin/dashboard JS, gzip (signed-in admin, ${pages.dashboard.jsFiles} files; ${kb(pages.adminOnlyGzipBytes)} KB in ${pages.adminOnly.length} not loaded by /)`,
        ours: kb(pages.dashboard.jsGzipBytes),
        ceiling: null,
        ratio: null,
        target: 'reported',
        pass: null,
        unit: 'KB',
        note: `/ loads ${kb(pages.home.jsGzipBytes)} KB in the same run (signed out; row 4 judges it); not on /: ${pages.adminOnly.map((a) => a.url).join(', ')}`,
      });
    }
    return {
      seed,
      closed: { lastDay: lastClosed, ms: closeMs },
      timeZone,
      url,
      responseBytes: Buffer.byteLength(body),
      sameRange,
      ownRanges,
      ownDays,
      queries,
      pages,
      rows,
    };
  } finally {
    await pool.end();
  }
}
