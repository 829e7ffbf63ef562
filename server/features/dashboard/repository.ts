import type { PaymentMethodKey } from '../../../contracts/dashboard';
import type { Queryable } from '../../db/client';

/**
 * The SQL of the dashboard: sums over the orders themselves (bookings paid, refunds made, tickets checked in), so
 * that a figure can never drift from the orders it sums. Days are calendar days in the app's time zone: a range
 * runs from the start of `from` to the start of the day after `to` there, whatever daylight saving does between.
 */

/** `$1` time zone, `$2` first day, `$3` last day; `$4` the event (only in the one-event variants). */
const LO = `(($2::date)::timestamp AT TIME ZONE $1)`;
const HI = `((($3::date) + 1)::timestamp AT TIME ZONE $1)`;
/**
 * Rows are put in days by comparing their instant with the range's local midnights (computed once per query, DST
 * included), not by converting each row's instant to a local date: a `width_bucket` per row and a hash on an
 * integer instead of a time-zone conversion, a text and a sort per row (bench row 9: the sales sum of 100,000
 * bookings went from ~150 to ~40 ms). `BUCKETS` is the CTE of those midnights; `dayOf(n)` names bucket n.
 */
const BUCKETS = `bounds AS (
  SELECT array_agg(((($2::date) + i)::timestamp AT TIME ZONE $1) ORDER BY i) AS starts
    FROM generate_series(0, ($3::date) - ($2::date)) AS i)`;
const bucketOf = (column: string) => `width_bucket(${column}, (SELECT starts FROM bounds))`;
const DAY_OF_BUCKET = `(($2::date) + (bucket - 1))::text`;

/** How a booking was paid, as contracts/dashboard.ts names it. */
const methodOf = (provider: string, method: string) => `CASE WHEN ${provider} = 'paymob'
  THEN 'paymob-' || COALESCE(${method}, 'card') ELSE COALESCE(${provider}, 'simulated') END`;
const METHOD = methodOf('b.payment_provider', 'b.payment_method');

export interface RangeParams {
  timeZone: string;
  from: string;
  to: string;
  /** One event, or every event (null). */
  eventId: string | null;
}

function params(range: RangeParams): unknown[] {
  return range.eventId ? [range.timeZone, range.from, range.to, range.eventId] : [range.timeZone, range.from, range.to];
}

/** `AND <column> = $4` for one event, nothing for every event (two plans, each using its index well). */
function ofEvent(range: RangeParams, column: string): string {
  return range.eventId ? `AND ${column} = $4::uuid` : '';
}

export interface SalesRow {
  day: string;
  method: PaymentMethodKey;
  bookings: number;
  tickets: number;
  gross: number;
}

/** Bookings paid in the range, per day and method. */
export async function salesByDayAndMethod(db: Queryable, range: RangeParams): Promise<SalesRow[]> {
  const result = await db.query<SalesRow>(
    `WITH ${BUCKETS},
     grouped AS (
       SELECT ${bucketOf('b.paid_at')} AS bucket, b.payment_provider AS provider, b.payment_method AS paid_with,
              count(*) AS bookings, sum(b.quantity) AS tickets, sum(b.total_piasters) AS gross
         FROM bookings b
        WHERE b.paid_at >= ${LO} AND b.paid_at < ${HI} ${ofEvent(range, 'b.event_id')}
        GROUP BY 1, 2, 3)
     SELECT ${DAY_OF_BUCKET} AS day, ${methodOf('provider', 'paid_with')} AS method, sum(bookings)::int AS bookings,
            sum(tickets)::int AS tickets, sum(gross)::bigint AS gross
       FROM grouped GROUP BY 1, 2`,
    params(range),
  );
  return result.rows;
}

export interface HourRow {
  hour: string;
  tickets: number;
  gross: number;
}

/** Bookings paid in the range per local hour ('YYYY-MM-DDTHH'), every hour of the range (for a one-day range). */
export async function salesByHour(db: Queryable, range: RangeParams): Promise<HourRow[]> {
  const result = await db.query<HourRow>(
    `WITH sold AS (
       SELECT date_trunc('hour', b.paid_at AT TIME ZONE $1) AS hour, sum(b.quantity)::int AS tickets,
              sum(b.total_piasters)::bigint AS gross
         FROM bookings b
        WHERE b.paid_at >= ${LO} AND b.paid_at < ${HI} ${ofEvent(range, 'b.event_id')}
        GROUP BY 1)
     SELECT to_char(h, 'YYYY-MM-DD"T"HH24') AS hour, COALESCE(s.tickets, 0) AS tickets, COALESCE(s.gross, 0) AS gross
       FROM generate_series(($2::date)::timestamp, ($3::date)::timestamp + interval '23 hours', interval '1 hour') AS h
       LEFT JOIN sold s ON s.hour = h
      ORDER BY h`,
    params(range),
  );
  return result.rows;
}

export interface RefundRow {
  day: string;
  tickets: number;
  amount: number;
}

/** Money given back in the range (refunds that succeeded), per day. */
export async function refundsByDay(db: Queryable, range: RangeParams): Promise<RefundRow[]> {
  const join = range.eventId ? 'JOIN bookings b ON b.id = r.booking_id' : '';
  const result = await db.query<RefundRow>(
    `WITH ${BUCKETS}
     SELECT ${DAY_OF_BUCKET} AS day, tickets, amount FROM (
       SELECT ${bucketOf('r.completed_at')} AS bucket, sum(r.quantity)::int AS tickets,
              sum(r.amount_piasters)::bigint AS amount
         FROM refunds r ${join}
        WHERE r.status = 'succeeded' AND r.completed_at >= ${LO} AND r.completed_at < ${HI}
          ${ofEvent(range, 'b.event_id')}
        GROUP BY 1) AS per_day`,
    params(range),
  );
  return result.rows;
}

/** Tickets first admitted in the range and still valid, per day. */
export async function checkInsByDay(db: Queryable, range: RangeParams): Promise<Array<{ day: string; count: number }>> {
  const result = await db.query<{ day: string; count: number }>(
    `WITH ${BUCKETS}
     SELECT ${DAY_OF_BUCKET} AS day, count FROM (
       SELECT ${bucketOf('t.checked_in_at')} AS bucket, count(*)::int AS count
         FROM tickets t
        WHERE t.checked_in_at >= ${LO} AND t.checked_in_at < ${HI} AND t.voided_at IS NULL
          ${ofEvent(range, 't.event_id')}
        GROUP BY 1) AS per_day`,
    params(range),
  );
  return result.rows;
}

/**
 * The funnel's first two steps: event pages opened in the range, and reservations made in it (a hold replaced by the
 * same buyer's new choice of quantity is not counted again; an offer from the waitlist counts as one).
 */
export async function viewsAndReservations(
  db: Queryable,
  range: RangeParams,
): Promise<{ views: number; reservations: number }> {
  const result = await db.query<{ views: number; reservations: number }>(
    `SELECT (SELECT COALESCE(sum(v.views), 0) FROM page_views v
              WHERE v.day BETWEEN $2::date AND $3::date ${ofEvent(range, 'v.event_id')})::bigint AS views,
            (SELECT count(*) FROM bookings b
              WHERE b.created_at >= ${LO} AND b.created_at < ${HI} AND b.ended_reason IS DISTINCT FROM 'replaced'
                ${ofEvent(range, 'b.event_id')})::int AS reservations`,
    params(range),
  );
  return result.rows[0] ?? { views: 0, reservations: 0 };
}

export interface EventStateRow {
  id: string;
  title: string;
  eventDate: string;
  startTime: string;
  capacity: number;
  ticketsValid: number;
  checkedIn: number;
  waitlist: number;
  cancelled: boolean;
}

/** The most events the all-events dashboard lists. */
export const EVENTS_LISTED = 200;

const EVENT_STATE = `SELECT e.id, e.title, e.event_date::text AS "eventDate", to_char(e.start_time, 'HH24:MI') AS "startTime",
       e.capacity, e.cancelled_at IS NOT NULL AS cancelled,
       (SELECT COALESCE(sum(b.quantity - b.refunded_quantity), 0) FROM bookings b
         WHERE b.event_id = e.id AND b.paid_at IS NOT NULL AND b.status = 'paid')::int AS "ticketsValid",
       (SELECT count(*) FROM tickets t
         WHERE t.event_id = e.id AND t.checked_in_at IS NOT NULL AND t.voided_at IS NULL)::int AS "checkedIn",
       (SELECT count(*) FROM waitlist_entries w WHERE w.event_id = e.id AND w.status = 'waiting')::int AS waitlist
  FROM events e`;

/** One event as it is now, unless it is deleted. */
export async function eventState(db: Queryable, eventId: string): Promise<EventStateRow | undefined> {
  const result = await db.query<EventStateRow>(`${EVENT_STATE} WHERE e.id = $1 AND NOT e.is_deleted`, [eventId]);
  return result.rows[0];
}

/** Events not deleted that take place on or after `from`, soonest first. */
export async function eventStates(db: Queryable, from: string): Promise<EventStateRow[]> {
  const result = await db.query<EventStateRow>(
    `${EVENT_STATE} WHERE NOT e.is_deleted AND e.event_date >= $1::date
      ORDER BY e.event_date, e.start_time, e.id LIMIT ${EVENTS_LISTED}`,
    [from],
  );
  return result.rows;
}

/** The event's check-ins on `day` per `minutes`, as 'HH:MM' (first to last bucket with any). */
export async function arrivals(
  db: Queryable,
  timeZone: string,
  eventId: string,
  day: string,
  minutes: number,
): Promise<Array<{ at: string; count: number }>> {
  const result = await db.query<{ at: string; count: number }>(
    `WITH local AS (
       SELECT t.checked_in_at AT TIME ZONE $1 AS at FROM tickets t
        WHERE t.event_id = $2::uuid AND t.voided_at IS NULL
          AND t.checked_in_at >= (($3::date)::timestamp AT TIME ZONE $1)
          AND t.checked_in_at < ((($3::date) + 1)::timestamp AT TIME ZONE $1))
     SELECT to_char(date_trunc('hour', at) + (floor(extract(minute FROM at) / $4::int)::int * $4::int) * interval '1 minute', 'HH24:MI') AS at,
            count(*)::int AS count
       FROM local GROUP BY 1 ORDER BY 1`,
    [timeZone, eventId, day, minutes],
  );
  return result.rows;
}

export interface OrderRow {
  id: string;
  title: string;
  eventDate: string;
  name: string;
  email: string;
  method: PaymentMethodKey;
  paidAt: Date;
  paidInRange: boolean;
  quantity: number;
  totalPiasters: number;
  refundedQuantity: number;
  /** Of the range's refunds: their tickets, their money and the last one's time (null: none in the range). */
  rangeRefundedQuantity: number;
  rangeRefundedPiasters: number;
  lastRefundAt: Date | null;
}

/** Orders paid in the range, and orders paid before it that were given back in it: what the figures sum. */
export async function ordersInRange(db: Queryable, range: RangeParams): Promise<OrderRow[]> {
  const result = await db.query<OrderRow>(
    `WITH given_back AS (
       SELECT r.booking_id, sum(r.quantity)::int AS quantity, sum(r.amount_piasters)::bigint AS amount,
              max(r.completed_at) AS last
         FROM refunds r
        WHERE r.status = 'succeeded' AND r.completed_at >= ${LO} AND r.completed_at < ${HI}
        GROUP BY 1),
     chosen AS (
       SELECT b.id FROM bookings b
        WHERE b.paid_at >= ${LO} AND b.paid_at < ${HI} ${ofEvent(range, 'b.event_id')}
       UNION
       SELECT g.booking_id FROM given_back g)
     SELECT b.id, e.title, e.event_date::text AS "eventDate", u.name, u.email, ${METHOD} AS method,
            b.paid_at AS "paidAt", (b.paid_at >= ${LO} AND b.paid_at < ${HI}) AS "paidInRange", b.quantity,
            b.total_piasters AS "totalPiasters", b.refunded_quantity AS "refundedQuantity",
            COALESCE(g.quantity, 0) AS "rangeRefundedQuantity", COALESCE(g.amount, 0) AS "rangeRefundedPiasters",
            g.last AS "lastRefundAt"
       FROM chosen c
       JOIN bookings b ON b.id = c.id
       JOIN events e ON e.id = b.event_id
       JOIN users u ON u.id = b.user_id
       LEFT JOIN given_back g ON g.booking_id = b.id
      WHERE b.paid_at IS NOT NULL ${ofEvent(range, 'b.event_id')}
      ORDER BY b.paid_at, b.id`,
    params(range),
  );
  return result.rows;
}

/** Whether the event exists and is not deleted. */
export async function isLiveEvent(db: Queryable, eventId: string): Promise<boolean> {
  const result = await db.query(`SELECT 1 FROM events WHERE id = $1 AND NOT is_deleted`, [eventId]);
  return result.rows.length > 0;
}

/** Adds page views counted in memory: `views` [event id, day, count], for events that exist. */
export async function addPageViews(db: Queryable, views: Array<[string, string, number]>): Promise<void> {
  if (views.length === 0) return;
  await db.query(
    `INSERT INTO page_views (event_id, day, views)
     SELECT v.event_id, v.day, v.views
       FROM unnest($1::uuid[], $2::date[], $3::bigint[]) AS v(event_id, day, views)
      WHERE EXISTS (SELECT 1 FROM events e WHERE e.id = v.event_id)
     ON CONFLICT (event_id, day) DO UPDATE SET views = page_views.views + EXCLUDED.views`,
    [views.map((v) => v[0]), views.map((v) => v[1]), views.map((v) => v[2])],
  );
}
