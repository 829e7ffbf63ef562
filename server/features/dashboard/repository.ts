import type { PaymentMethodKey } from '../../../contracts/dashboard';
import type { Queryable } from '../../db/client';

/**
 * The SQL of the dashboard: sums over the orders themselves (bookings paid, refunds made, tickets checked in), so
 * that a figure can never drift from the orders it sums. Days are calendar days in the app's time zone: a range
 * runs from the start of `from` to the start of the day after `to` there, whatever daylight saving does between.
 * One event's figures add the sums kept for its closed days (dashboard_days, decision 025) to the orders since the
 * last of them, each statement reading both in one snapshot.
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

/**
 * The range's local midnights and the one after its last day (`$2`..`$3` + 1): `width_bucket(instant, starts)` is
 * 1..n for the range's n days, 0 before it and n + 1 after it, so one scan can count rows outside the range too.
 */
const BOUNDS_AND_END = `bounds AS (
  SELECT array_agg(((($2::date) + i)::timestamp AT TIME ZONE $1) ORDER BY i) AS starts
    FROM generate_series(0, ($3::date) - ($2::date) + 1) AS i)`;
const IN_RANGE = (bucket: string) => `${bucket} BETWEEN 1 AND ($3::date) - ($2::date) + 1`;
const DAY_OF = (bucket: string) => `(($2::date) + (${bucket} - 1))::text`;

/**
 * Where the closed days of the time zone end (decision 025), as read just before an event's statements: every
 * instant before it is summed in dashboard_days, every one from it on is read from the orders. null when nothing is
 * closed. It is a parameter of the statements rather than read inside them, so that the planner knows it (read in
 * the statement it was a subquery, estimated to keep a third of the event's bookings: a scan of all of them).
 */
export type ClosedBefore = Date | null;

export async function closedBefore(db: Queryable, timeZone: string): Promise<ClosedBefore> {
  const result = await db.query<{ before: Date }>(
    'SELECT closed_before AS before FROM dashboard_closed WHERE time_zone = $1',
    [timeZone],
  );
  return result.rows[0]?.before ?? null;
}

const asParam = (before: ClosedBefore): Date | string => before ?? '-infinity';

/**
 * The parts of a statement that reads closed days, `p` being the placeholder of its ClosedBefore: the instant, the
 * kept sums of the event's days before it, and a condition true when those are no longer all there (the closed
 * days were forgotten, or APP_TIMEZONE changed, since `p` was read): the caller then reads the orders alone. The
 * days before `p` stay closed, with the same sums, however far later closes move the end.
 */
const closedAt = (p: string) => ({
  before: `${p}::timestamptz`,
  kept: `dashboard_days d
   WHERE d.time_zone = $1 AND d.event_id = $4::uuid AND d.day < ((${p}::timestamptz) AT TIME ZONE $1)::date`,
  stale: `${p}::timestamptz > '-infinity' AND NOT EXISTS (
     SELECT 1 FROM dashboard_closed c WHERE c.time_zone = $1 AND c.closed_before >= ${p}::timestamptz)`,
});
/** A closed day of dashboard_days as a bucket of BOUNDS_AND_END (1 for `$2`, 0 or less before, n + 1 or more after). */
const KEPT_BUCKET = `(d.day - ($2::date) + 1)`;

export interface EventBookingFigures {
  /** Bookings paid in the range, per day and method. */
  sales: SalesRow[];
  /** Reservations made in the range, per day; a hold that took the place of its buyer's pending one is not one. */
  reservations: Array<{ day: string; count: number }>;
  /** Tickets buyers hold now (paid bookings, less what was given back). */
  ticketsValid: number;
  /** The closed days were forgotten meanwhile: read again with nothing closed. */
  stale: boolean;
}

/**
 * One event's bookings: its sales per day and method, its reservations per day (the funnel) and its tickets valid
 * now, from the sums of its closed days and the bookings since (paid since: bookings_paid_idx; made since: the BRIN
 * index on created_at), grouped by the day each was paid and the day each was made. Before decision 025 this was one
 * pass over every booking of the event (57 ms of CPU for 100,000).
 */
export async function eventBookingFigures(
  db: Queryable,
  range: RangeParams & { eventId: string },
  before: ClosedBefore,
): Promise<EventBookingFigures> {
  const closed = closedAt('$5');
  const result = await db.query<{
    kind: 'sale' | 'reservation' | 'valid' | 'stale';
    day: string | null;
    method: PaymentMethodKey | null;
    bookings: number;
    tickets: number;
    gross: number;
  }>(
    `WITH ${BOUNDS_AND_END},
     paid AS (
       SELECT width_bucket(b.paid_at, (SELECT starts FROM bounds)) AS bucket, b.payment_provider AS provider,
              b.payment_method AS paid_with, count(*) AS bookings, sum(b.quantity) AS tickets,
              sum(b.total_piasters) AS gross, COALESCE(sum(b.quantity - b.refunded_quantity) FILTER (WHERE b.status = 'paid'), 0) AS held
         FROM bookings b
        WHERE b.event_id = $4::uuid AND b.paid_at >= ${closed.before}
        GROUP BY 1, 2, 3),
     made AS (
       SELECT width_bucket(b.created_at, (SELECT starts FROM bounds)) AS bucket, count(*) AS made
         FROM bookings b
        WHERE b.event_id = $4::uuid AND b.created_at >= ${closed.before}
          AND NOT b.replaces_hold
        GROUP BY 1),
     kept AS (
       SELECT ${KEPT_BUCKET} AS bucket, d.payment_provider AS provider, d.payment_method AS paid_with,
              sum(d.sold) AS bookings, sum(d.sold_tickets) AS tickets, sum(d.gross_piasters) AS gross,
              sum(d.held_tickets) AS held, sum(d.reservations) AS made
         FROM ${closed.kept}
        GROUP BY 1, 2, 3),
     sales AS (
       SELECT bucket, provider, paid_with, bookings, tickets, gross FROM paid
       UNION ALL
       SELECT bucket, provider, paid_with, bookings, tickets, gross FROM kept),
     reservations AS (SELECT bucket, made FROM made UNION ALL SELECT bucket, made FROM kept)
     SELECT 'sale' AS kind, ${DAY_OF('bucket')} AS day, ${methodOf('provider', 'paid_with')} AS method,
            sum(bookings)::int AS bookings, sum(tickets)::int AS tickets, sum(gross)::bigint AS gross
       FROM sales WHERE ${IN_RANGE('bucket')} GROUP BY bucket, 3 HAVING sum(bookings) > 0
     UNION ALL
     SELECT 'reservation', ${DAY_OF('bucket')}, NULL, sum(made)::int, 0, 0
       FROM reservations WHERE ${IN_RANGE('bucket')} GROUP BY bucket HAVING sum(made) > 0
     UNION ALL
     SELECT 'valid', NULL, NULL, 0,
            ((SELECT COALESCE(sum(held), 0) FROM paid) + (SELECT COALESCE(sum(held), 0) FROM kept))::int, 0
     UNION ALL
     SELECT 'stale', NULL, NULL, 0, 0, 0 WHERE ${closed.stale}`,
    [...params(range), asParam(before)],
  );
  const figures: EventBookingFigures = { sales: [], reservations: [], ticketsValid: 0, stale: false };
  for (const row of result.rows) {
    if (row.kind === 'sale') {
      figures.sales.push({
        day: row.day as string,
        method: row.method as PaymentMethodKey,
        bookings: row.bookings,
        tickets: row.tickets,
        gross: Number(row.gross),
      });
    } else if (row.kind === 'reservation') figures.reservations.push({ day: row.day as string, count: row.bookings });
    else if (row.kind === 'valid') figures.ticketsValid = row.tickets;
    else figures.stale = true;
  }
  return figures;
}

export interface EventTicketFigures {
  /** Tickets first admitted in the range and still valid, per day. */
  checkIns: Array<{ day: string; count: number }>;
  /** Of them, those admitted on the event's day, per `minutes` of local wall-clock time ('HH:MM'), in order. */
  arrivals: Array<{ at: string; count: number }>;
  /** Every ticket of the event admitted and still valid. */
  checkedIn: number;
  /** The closed days were forgotten meanwhile: read again with nothing closed. */
  stale: boolean;
}

/**
 * One event's check-ins: per day of the range and in all, from the sums of its closed days and the check-ins since
 * (tickets_checked_in_idx); per `minutes` of the event's day from that day's check-ins, closed or not. The event's
 * day is cut at instants `minutes` apart from its local midnight, each labelled with its local wall-clock time; every
 * time zone's offset being a whole number of quarter hours, each cut is a quarter hour of the wall clock, and the hour
 * a change of daylight saving time repeats sums both (as the wall clock reads them).
 */
export async function eventTicketFigures(
  db: Queryable,
  range: RangeParams & { eventId: string },
  minutes: number,
  before: ClosedBefore,
): Promise<EventTicketFigures> {
  const closed = closedAt('$6');
  const result = await db.query<{ kind: 'day' | 'arrival' | 'all' | 'stale'; label: string | null; count: number }>(
    `WITH ${BOUNDS_AND_END},
     cuts AS (
       SELECT array_agg(at ORDER BY at) AS starts
         FROM events e,
              generate_series(e.event_date::timestamp AT TIME ZONE $1, (e.event_date + 1)::timestamp AT TIME ZONE $1,
                              make_interval(mins => $5::int)) AS at
        WHERE e.id = $4::uuid),
     grouped AS (
       SELECT width_bucket(t.checked_in_at, (SELECT starts FROM bounds)) AS day,
              width_bucket(t.checked_in_at, (SELECT starts FROM cuts)) AS cut,
              t.checked_in_at >= ${closed.before} AS open, count(*) AS n
         FROM tickets t
        WHERE t.event_id = $4::uuid AND t.checked_in_at IS NOT NULL AND t.voided_at IS NULL
          AND (t.checked_in_at >= ${closed.before}
               OR (t.checked_in_at >= (SELECT starts[1] FROM cuts)
                   AND t.checked_in_at < (SELECT starts[cardinality(starts)] FROM cuts)))
        GROUP BY 1, 2, 3),
     kept AS (SELECT ${KEPT_BUCKET} AS day, sum(d.checked_in) AS n FROM ${closed.kept} GROUP BY 1),
     counted AS (SELECT day, n FROM grouped WHERE open UNION ALL SELECT day, n FROM kept)
     SELECT 'day' AS kind, ${DAY_OF('day')} AS label, sum(n)::int AS count
       FROM counted WHERE ${IN_RANGE('day')} GROUP BY day HAVING sum(n) > 0
     UNION ALL
     SELECT 'arrival', label, sum(n)::int FROM (
       SELECT to_char((SELECT starts FROM cuts)[cut] AT TIME ZONE $1, 'HH24:MI') AS label, n
         FROM grouped WHERE cut BETWEEN 1 AND cardinality((SELECT starts FROM cuts)) - 1) AS on_the_day
      GROUP BY label
     UNION ALL
     SELECT 'all', NULL, COALESCE(sum(n), 0)::int FROM counted
     UNION ALL
     SELECT 'stale', NULL, 0 WHERE ${closed.stale}`,
    [...params(range), minutes, asParam(before)],
  );
  const figures: EventTicketFigures = { checkIns: [], arrivals: [], checkedIn: 0, stale: false };
  for (const row of result.rows) {
    if (row.kind === 'day') figures.checkIns.push({ day: row.label as string, count: row.count });
    else if (row.kind === 'arrival') figures.arrivals.push({ at: row.label as string, count: row.count });
    else if (row.kind === 'all') figures.checkedIn = row.count;
    else figures.stale = true;
  }
  figures.arrivals.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return figures;
}

/** One event's page views per day of the range. */
export async function viewsByDay(
  db: Queryable,
  range: RangeParams & { eventId: string },
): Promise<Array<{ day: string; views: number }>> {
  const result = await db.query<{ day: string; views: number }>(
    `SELECT v.day::text AS day, v.views::bigint AS views FROM page_views v
      WHERE v.event_id = $3::uuid AND v.day BETWEEN $1::date AND $2::date`,
    [range.from, range.to, range.eventId],
  );
  return result.rows.map((row) => ({ day: row.day, views: Number(row.views) }));
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

/**
 * One event's money given back in the range, per day: the sums of its closed days and the refunds that succeeded
 * since (refunds_completed_idx, then each one's booking by its key: a subquery per refund, which the planner keeps,
 * where a join was hashed over every booking of the event, 10 of 16 ms for the bench's 1,250 refunds of a day; a day
 * of tens of thousands of refunds, an event cancelled, would be slower this way). The end of the closed days is a
 * condition of its own, not folded into one with the range's start, so that the planner estimates from it.
 */
export async function eventRefundFigures(
  db: Queryable,
  range: RangeParams & { eventId: string },
  before: ClosedBefore,
): Promise<{ refunds: RefundRow[]; stale: boolean }> {
  const closed = closedAt('$5');
  const result = await db.query<RefundRow & { stale: boolean }>(
    `WITH ${BUCKETS}
     SELECT ${DAY_OF_BUCKET} AS day, sum(tickets)::int AS tickets, sum(amount)::bigint AS amount, false AS stale FROM (
       SELECT ${bucketOf('r.completed_at')} AS bucket, r.quantity AS tickets, r.amount_piasters::bigint AS amount
         FROM refunds r
        WHERE r.status = 'succeeded' AND r.completed_at >= ${closed.before} AND r.completed_at >= ${LO}
          AND r.completed_at < ${HI} AND (SELECT b.event_id FROM bookings b WHERE b.id = r.booking_id) = $4::uuid
       UNION ALL
       SELECT ${KEPT_BUCKET}, d.refunded_tickets, d.refunded_piasters
         FROM ${closed.kept} AND d.day BETWEEN $2::date AND $3::date) AS given_back
      GROUP BY bucket HAVING sum(tickets) > 0
     UNION ALL
     SELECT NULL, 0, 0, true WHERE ${closed.stale}`,
    [...params(range), asParam(before)],
  );
  return {
    refunds: result.rows.filter((row) => !row.stale).map(({ day, tickets, amount }) => ({ day, tickets, amount })),
    stale: result.rows.some((row) => row.stale),
  };
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
 * The funnel's first two steps: event pages opened in the range, and reservations made in it (a buyer's new choice of
 * quantity in place of their pending hold is not counted again, nor is their own reservation in place of a waitlist
 * offer: the first choice counts, on its day).
 */
export async function viewsAndReservations(
  db: Queryable,
  range: RangeParams,
): Promise<{ views: number; reservations: number }> {
  const result = await db.query<{ views: number; reservations: number }>(
    `SELECT (SELECT COALESCE(sum(v.views), 0) FROM page_views v
              WHERE v.day BETWEEN $2::date AND $3::date ${ofEvent(range, 'v.event_id')})::bigint AS views,
            (SELECT count(*) FROM bookings b
              WHERE b.created_at >= ${LO} AND b.created_at < ${HI} AND NOT b.replaces_hold
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

/**
 * One event as it is now, unless it is deleted, without its tickets valid and checked in (0 here):
 * eventBookingFigures and eventTicketFigures count those in the passes they make anyway.
 */
export async function eventRow(db: Queryable, eventId: string): Promise<EventStateRow | undefined> {
  const result = await db.query<EventStateRow>(
    `SELECT e.id, e.title, e.event_date::text AS "eventDate", to_char(e.start_time, 'HH24:MI') AS "startTime",
            e.capacity, e.cancelled_at IS NOT NULL AS cancelled, 0 AS "ticketsValid", 0 AS "checkedIn",
            (SELECT count(*) FROM waitlist_entries w WHERE w.event_id = e.id AND w.status = 'waiting')::int AS waitlist
       FROM events e WHERE e.id = $1 AND NOT e.is_deleted`,
    [eventId],
  );
  return result.rows[0];
}

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

/**
 * Closes the days of `timeZone` that are over and that no running transaction began in, up to `through` when given
 * (sql/eventry_dashboard_days.sql): their sums are kept and read instead of their orders. Returns the last closed
 * day, or null when none is. Run it in a transaction of its own (it needs READ COMMITTED).
 */
export async function closeDashboardDays(
  db: Queryable,
  timeZone: string,
  through: string | null = null,
): Promise<string | null> {
  const result = await db.query<{ last: string | null }>('SELECT eventry_dashboard_close($1, $2::date)::text AS last', [
    timeZone,
    through,
  ]);
  return result.rows[0]?.last ?? null;
}

/**
 * Forgets every closed day: after rows of closed days were written with triggers off (a bulk load in replica mode),
 * the next close sums them from the orders again. Until then every figure is read from the orders.
 */
export async function reopenDashboardDays(db: Queryable): Promise<void> {
  await db.query('SELECT eventry_dashboard_reopen()');
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
