import type pg from 'pg';
import { inTransaction, type Queryable } from '../../db/client';

/**
 * The SQL of tickets and check-in. Tickets are issued and voided by the booking module's trigger
 * (ticketing/sql/eventry_issue_tickets.sql); this file reads them and records admissions.
 */

export interface TicketRow {
  id: string;
  bookingId: string;
  eventId: string;
  number: number;
  of: number;
  code: string;
  voidedAt: Date | null;
  checkedInAt: Date | null;
  checkedInByName: string | null;
  holderName: string;
}

const TICKET_COLUMNS = `t.id, t.booking_id AS "bookingId", t.event_id AS "eventId", t.number, b.quantity AS "of", t.code,
  t.voided_at AS "voidedAt", t.checked_in_at AS "checkedInAt", t.checked_in_by_name AS "checkedInByName",
  u.name AS "holderName"`;
const TICKET_FROM = 'tickets t JOIN bookings b ON b.id = t.booking_id JOIN users u ON u.id = b.user_id';

/** Every ticket of the user's bookings, by event date, then booking, then number. */
export async function findTicketsOfUser(db: Queryable, userId: string): Promise<TicketRow[]> {
  const result = await db.query<TicketRow>(
    `SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} JOIN events e ON e.id = t.event_id
      WHERE b.user_id = $1
      ORDER BY e.event_date, e.start_time, b.paid_at, t.booking_id, t.number`,
    [userId],
  );
  return result.rows;
}

/** The tickets of one booking, in number order. */
export async function findTicketsOfBooking(db: Queryable, bookingId: string): Promise<TicketRow[]> {
  const result = await db.query<TicketRow>(
    `SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} WHERE t.booking_id = $1 ORDER BY t.number`,
    [bookingId],
  );
  return result.rows;
}

export async function findTicketById(db: Queryable, ticketId: string): Promise<TicketRow | undefined> {
  const result = await db.query<TicketRow>(`SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} WHERE t.id = $1`, [ticketId]);
  return result.rows[0];
}

export async function findTicketByCode(db: Queryable, eventId: string, code: string): Promise<TicketRow | undefined> {
  const result = await db.query<TicketRow>(
    `SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} WHERE t.event_id = $1 AND t.code = $2`,
    [eventId, code],
  );
  return result.rows[0];
}

/**
 * Admits a ticket if it is valid and not checked in yet: the row's lock makes two gates scanning it at once
 * admit it once. Returns when it was admitted, or undefined when it was not (already in, or void).
 */
export async function admitTicket(
  db: Queryable,
  ticketId: string,
  by: { id: string; name: string },
  at: Date | null = null,
): Promise<Date | undefined> {
  const result = await db.query<{ checkedInAt: Date }>(
    `UPDATE tickets SET checked_in_at = LEAST(COALESCE($4::timestamptz, now()), now()), checked_in_by = $2,
            checked_in_by_name = $3
      WHERE id = $1 AND checked_in_at IS NULL AND voided_at IS NULL
      RETURNING checked_in_at AS "checkedInAt"`,
    [ticketId, by.id, by.name, at],
  );
  return result.rows[0]?.checkedInAt;
}

/** Whether the user may check tickets in at the event's door (admins always may). */
export async function isDoorStaff(db: Queryable, userId: string, eventId: string): Promise<boolean> {
  const result = await db.query('SELECT 1 FROM door_staff WHERE user_id = $1 AND event_id = $2', [userId, eventId]);
  return (result.rowCount ?? 0) > 0;
}

export interface CheckInEventRow {
  id: string;
  title: string;
  eventDate: string;
  startTime: string;
  endTime: string;
  isDeleted: boolean;
}

export async function findCheckInEvent(db: Queryable, eventId: string): Promise<CheckInEventRow | undefined> {
  const result = await db.query<CheckInEventRow>(
    `SELECT id, title, event_date::text AS "eventDate", start_time::text AS "startTime", end_time::text AS "endTime",
            is_deleted AS "isDeleted"
       FROM events WHERE id = $1`,
    [eventId],
  );
  return result.rows[0];
}

export interface CheckInEventSummary extends CheckInEventRow {
  sold: number;
  checkedIn: number;
}

/**
 * The events whose door this user may keep, today's and later ones first by date (admins: every event not
 * deleted from `fromDay`; door staff: the events granted to them), with tickets sold and checked in.
 */
export async function findCheckInEvents(
  db: Queryable,
  user: { id: string; isAdmin: boolean },
  fromDay: string,
): Promise<CheckInEventSummary[]> {
  const which = user.isAdmin
    ? 'NOT e.is_deleted AND e.event_date >= $1::date'
    : 'e.id IN (SELECT event_id FROM door_staff WHERE user_id = $1) AND NOT e.is_deleted';
  const result = await db.query<CheckInEventSummary>(
    `SELECT e.id, e.title, e.event_date::text AS "eventDate", e.start_time::text AS "startTime",
            e.end_time::text AS "endTime", e.is_deleted AS "isDeleted",
            (SELECT count(*)::int FROM tickets t WHERE t.event_id = e.id AND t.voided_at IS NULL) AS sold,
            (SELECT count(*)::int FROM tickets t WHERE t.event_id = e.id AND t.voided_at IS NULL
                AND t.checked_in_at IS NOT NULL) AS "checkedIn"
       FROM events e WHERE ${which}
      ORDER BY e.event_date, e.start_time, e.title LIMIT 200`,
    [user.isAdmin ? fromDay : user.id],
  );
  return result.rows;
}

export interface BundleRow {
  id: string;
  code: string;
  number: number;
  of: number;
  holderName: string;
  voided: boolean;
  checkedInAt: Date | null;
  by: string | null;
}

/** Every ticket of the event, for a scanner's offline bundle. */
export async function findBundleTickets(db: Queryable, eventId: string): Promise<BundleRow[]> {
  const result = await db.query<BundleRow>(
    `SELECT t.id, t.code, t.number, b.quantity AS "of", u.name AS "holderName", t.voided_at IS NOT NULL AS voided,
            t.checked_in_at AS "checkedInAt", t.checked_in_by_name AS by
       FROM ${TICKET_FROM} WHERE t.event_id = $1 ORDER BY t.id`,
    [eventId],
  );
  return result.rows;
}

export type SyncOutcome = 'admitted' | 'admitted_again' | 'void' | 'unknown';

export interface OfflineScan {
  nonce: string;
  ticketId: string;
  scannedAt: string;
}

/**
 * Records scans a device made offline, in one transaction, each once (its nonce): the first admission of a
 * ticket checks it in at the time it was scanned; a ticket already in counts an extra admission (the
 * attendees page flags 'Admitted twice'); a voided one is recorded as such. A nonce seen before answers what
 * it was recorded as. Tickets of another event are 'unknown' and recorded nowhere.
 */
export async function recordOfflineScans(
  pool: Pick<pg.Pool, 'connect'>,
  eventId: string,
  by: { id: string; name: string },
  scans: OfflineScan[],
): Promise<Map<string, SyncOutcome>> {
  const outcomes = new Map<string, SyncOutcome>();
  return inTransaction(pool, async (client) => {
    const ordered = [...scans].sort((a, b) => Date.parse(a.scannedAt) - Date.parse(b.scannedAt));
    for (const scan of ordered) {
      const ticket = await client.query('SELECT 1 FROM tickets WHERE id = $1 AND event_id = $2', [
        scan.ticketId,
        eventId,
      ]);
      if (ticket.rowCount === 0) {
        outcomes.set(scan.nonce, 'unknown');
        continue;
      }
      // The nonce first: a second sync of the same scan running at the same moment waits here for this one's
      // commit and then reads what it recorded, instead of counting the scan twice.
      const claimed = await client.query(
        `INSERT INTO check_in_scans (nonce, ticket_id, scanned_at, scanned_by, outcome)
         VALUES ($1, $2, LEAST($3::timestamptz, now()), $4, 'admitted') ON CONFLICT (nonce) DO NOTHING`,
        [scan.nonce, scan.ticketId, scan.scannedAt, by.id],
      );
      if (claimed.rowCount === 0) {
        const seen = await client.query<{ outcome: SyncOutcome; ticketId: string }>(
          'SELECT outcome, ticket_id AS "ticketId" FROM check_in_scans WHERE nonce = $1',
          [scan.nonce],
        );
        const earlier = seen.rows[0];
        outcomes.set(scan.nonce, earlier && earlier.ticketId === scan.ticketId ? earlier.outcome : 'unknown');
        continue;
      }
      const locked = await client.query<{ voided: boolean; checkedIn: boolean }>(
        `SELECT voided_at IS NOT NULL AS voided, checked_in_at IS NOT NULL AS "checkedIn"
           FROM tickets WHERE id = $1 FOR UPDATE`,
        [scan.ticketId],
      );
      const row = locked.rows[0] as { voided: boolean; checkedIn: boolean };
      let outcome: SyncOutcome;
      if (row.voided) outcome = 'void';
      else if (!row.checkedIn) {
        await admitTicket(client, scan.ticketId, by, new Date(scan.scannedAt));
        outcome = 'admitted';
      } else {
        await client.query('UPDATE tickets SET extra_admissions = extra_admissions + 1 WHERE id = $1', [scan.ticketId]);
        outcome = 'admitted_again';
      }
      if (outcome !== 'admitted') {
        await client.query('UPDATE check_in_scans SET outcome = $2 WHERE nonce = $1', [scan.nonce, outcome]);
      }
      outcomes.set(scan.nonce, outcome);
    }
    return outcomes;
  });
}
