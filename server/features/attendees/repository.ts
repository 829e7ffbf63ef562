import type { Queryable } from '../../db/client';

/** The SQL of the attendees list: an event's tickets with their buyers (tickets are written by ticketing/tickets). */

export interface AttendeeEventRow {
  id: string;
  title: string;
  eventDate: string;
  startTime: string;
  endTime: string;
}

/** The event, unless it is deleted. */
export async function findActiveEvent(db: Queryable, eventId: string): Promise<AttendeeEventRow | undefined> {
  const result = await db.query<AttendeeEventRow>(
    `SELECT id, title, event_date::text AS "eventDate", to_char(start_time, 'HH24:MI') AS "startTime",
            to_char(end_time, 'HH24:MI') AS "endTime"
       FROM events WHERE id = $1 AND NOT is_deleted`,
    [eventId],
  );
  return result.rows[0];
}

export interface AttendeeRow {
  ticketId: string;
  bookingId: string;
  number: number;
  of: number;
  code: string;
  name: string;
  email: string;
  boughtAt: Date | null;
  voidedAt: Date | null;
  checkedInAt: Date | null;
  checkedInBy: string | null;
  extraAdmissions: number;
  /** The booking is paid with tickets left to refund. */
  refundable: boolean;
  refundPiasters: number;
}

/**
 * What to look for: `text` anywhere in the buyer's name or email (a LIKE pattern, its wildcards escaped), or
 * `codePrefix` at the start of the short code (null when the text cannot be part of a code).
 */
export interface AttendeeSearch {
  text: string;
  codePrefix: string | null;
}

const FROM = 'tickets t JOIN bookings b ON b.id = t.booking_id JOIN users u ON u.id = b.user_id';

/** `$2`, `$3`: the search's pattern and code prefix (both null: every ticket). */
const MATCHES = `($2::text IS NULL OR u.name ILIKE $2 ESCAPE '\\' OR u.email ILIKE $2 ESCAPE '\\'
  OR ($3::text IS NOT NULL AND t.code LIKE $3 || '%'))`;

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchParams(search: AttendeeSearch | null): [string | null, string | null] {
  return search && search.text !== '' ? [likePattern(search.text), search.codePrefix] : [null, null];
}

/** The event's counts, and how many of its tickets match the search. */
export async function countAttendees(
  db: Queryable,
  eventId: string,
  search: AttendeeSearch | null,
): Promise<{ sold: number; checkedIn: number; admittedTwice: number; matching: number }> {
  const result = await db.query<{ sold: number; checkedIn: number; admittedTwice: number; matching: number }>(
    `SELECT count(*) FILTER (WHERE t.voided_at IS NULL)::int AS sold,
            count(*) FILTER (WHERE t.voided_at IS NULL AND t.checked_in_at IS NOT NULL)::int AS "checkedIn",
            count(*) FILTER (WHERE t.extra_admissions > 0)::int AS "admittedTwice",
            count(*) FILTER (WHERE ${MATCHES})::int AS matching
       FROM ${FROM} WHERE t.event_id = $1`,
    [eventId, ...searchParams(search)],
  );
  return result.rows[0] ?? { sold: 0, checkedIn: 0, admittedTwice: 0, matching: 0 };
}

/** Tickets of the event matching the search, by buyer name, then booking, then number; all of them without a limit. */
export async function listAttendees(
  db: Queryable,
  eventId: string,
  search: AttendeeSearch | null,
  window: { limit: number; offset: number } | null,
): Promise<AttendeeRow[]> {
  const result = await db.query<AttendeeRow>(
    `SELECT t.id AS "ticketId", t.booking_id AS "bookingId", t.number, b.quantity AS "of", t.code, u.name, u.email,
            b.paid_at AS "boughtAt", t.voided_at AS "voidedAt", t.checked_in_at AS "checkedInAt",
            t.checked_in_by_name AS "checkedInBy", t.extra_admissions AS "extraAdmissions",
            (b.status = 'paid' AND b.refunded_quantity < b.quantity) AS refundable,
            CASE WHEN b.status = 'paid' THEN (b.quantity - b.refunded_quantity) * b.unit_price_piasters ELSE 0 END
              AS "refundPiasters"
       FROM ${FROM}
      WHERE t.event_id = $1 AND ${MATCHES}
      ORDER BY lower(u.name), u.id, b.paid_at, t.booking_id, t.number
      LIMIT $4 OFFSET $5`,
    [eventId, ...searchParams(search), window?.limit ?? null, window?.offset ?? 0],
  );
  return result.rows;
}

export interface RangeAttendeeRow extends AttendeeRow {
  title: string;
  eventDate: string;
}

/**
 * Tickets of the bookings paid from the start of `from` to the end of `to` in `timeZone` (the dashboard's orders),
 * of one event or of every one, by event, then buyer.
 */
export async function listAttendeesPaidIn(
  db: Queryable,
  range: { timeZone: string; from: string; to: string; eventId: string | null },
): Promise<RangeAttendeeRow[]> {
  const result = await db.query<RangeAttendeeRow>(
    `SELECT t.id AS "ticketId", t.booking_id AS "bookingId", t.number, b.quantity AS "of", t.code, u.name, u.email,
            b.paid_at AS "boughtAt", t.voided_at AS "voidedAt", t.checked_in_at AS "checkedInAt",
            t.checked_in_by_name AS "checkedInBy", t.extra_admissions AS "extraAdmissions",
            false AS refundable, 0 AS "refundPiasters", e.title, e.event_date::text AS "eventDate"
       FROM ${FROM} JOIN events e ON e.id = b.event_id
      WHERE b.paid_at >= (($2::date)::timestamp AT TIME ZONE $1)
        AND b.paid_at < ((($3::date) + 1)::timestamp AT TIME ZONE $1)
        AND ($4::uuid IS NULL OR b.event_id = $4::uuid)
      ORDER BY e.event_date, e.start_time, e.id, lower(u.name), u.id, b.paid_at, t.booking_id, t.number`,
    [range.timeZone, range.from, range.to, range.eventId],
  );
  return result.rows;
}
