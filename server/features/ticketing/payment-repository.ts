import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, executePrepared, type Queryable } from '../../db/client';
import type { BookingEndReason, BookingStatus } from '../../db/schema';
import type { ProviderName } from '../../domain/payments';
import { bookingConfirmationSubject } from '../../plugins/email-templates';
import { mailLang } from '../../plugins/mail-language';
import { enqueueMailsAfter, type OutgoingMail, WAKE_MAIL_WORKERS } from '../../plugins/mailer';
import { setState, type TransitionName } from './state-machine';

/**
 * SQL of a booking's payment: reading bookings to settle, the paid transition with its confirmation email,
 * refunds, failed attempts, and the record of provider events already handled. What a payment does to a
 * booking is decided in settlement.ts.
 */

/** A booking read for settlement, with what its confirmation email needs (one query). */
export type LockedBooking = {
  id: string;
  userId: string;
  status: BookingStatus;
  endedReason: BookingEndReason | null;
  quantity: number;
  totalPiasters: number;
  eventId: string;
  paymentIntentId: string | null;
  failureMessage: string | null;
  eventDeleted: boolean;
  /** Still pending, but its hold has run out (the expiry job has not released it yet). */
  holdLapsed: boolean;
  userEmail: string;
  userName: string;
  /** The buyer's language ('en', 'ar' or none chosen): their confirmation email is written in it. */
  userLanguage: string | null;
  title: string;
  eventDate: string;
  startTime: string;
  endTime: string;
};

/** What a booking's confirmation email shows, and whose booking it is. */
export type HeldBooking = Pick<
  LockedBooking,
  | 'id'
  | 'userId'
  | 'eventId'
  | 'quantity'
  | 'totalPiasters'
  | 'userEmail'
  | 'userName'
  | 'userLanguage'
  | 'title'
  | 'eventDate'
  | 'startTime'
  | 'endTime'
>;

/** Bookings with their event and buyer, chosen by `where` (over b); locked (only the booking rows) when `lock` is set. */
function settlementRead(where: SQL, lock: boolean): SQL {
  return sql`SELECT b.id, b.user_id AS "userId", b.status, b.ended_reason AS "endedReason", b.quantity,
               b.total_piasters AS "totalPiasters", b.event_id AS "eventId", b.payment_intent_id AS "paymentIntentId",
               b.failure_message AS "failureMessage",
               -- A cancelled event is gone for a payment as a deleted one is: its money goes back.
               (e.is_deleted OR e.cancelled_at IS NOT NULL) AS "eventDeleted",
               (b.status = 'pending' AND b.expires_at <= now()) AS "holdLapsed", u.email AS "userEmail",
               u.name AS "userName", u.language AS "userLanguage", e.title, e.event_date AS "eventDate", e.start_time AS "startTime",
               e.end_time AS "endTime"
          FROM bookings b JOIN events e ON e.id = b.event_id JOIN users u ON u.id = b.user_id
         WHERE ${where} ${lock ? sql`FOR UPDATE OF b` : sql``}`;
}

/**
 * Locks a booking (only the booking row) until the transaction ends and reads it with its event and
 * buyer. With `userId`, another user's booking is simply not found.
 */
export async function lockBookingForSettlement(
  tx: DbOrTx,
  bookingId: string,
  userId?: string,
): Promise<LockedBooking | undefined> {
  const owner = userId === undefined ? sql`` : sql`AND b.user_id = ${userId}`;
  const result = await tx.execute<LockedBooking>(settlementRead(sql`b.id = ${bookingId} ${owner}`, true));
  return result.rows[0];
}

/**
 * Bookings of their users read the same way, without a lock, in one statement (another user's booking is
 * not found): what payPendingBookings starts from.
 */
export function findBookingsForSettlement(
  db: Queryable,
  keys: Array<{ bookingId: string; userId: string }>,
): Promise<LockedBooking[]> {
  const ids = sql.param(keys.map((key) => key.bookingId));
  const users = sql.param(keys.map((key) => key.userId));
  return executePrepared<LockedBooking>(
    db,
    'eventry_settlement_read',
    settlementRead(sql`(b.id, b.user_id) IN (SELECT * FROM unnest(${ids}::uuid[], ${users}::text[]))`, false),
  );
}

/** A held booking's tickets go back to its event, if that event has been deleted. Whether they did. */
export async function returnTicketsOfDeletedEvent(tx: DbOrTx, booking: LockedBooking): Promise<boolean> {
  const returned = await tx.execute(
    sql`UPDATE events SET tickets_available = tickets_available + ${booking.quantity}, version = version + 1
        WHERE id = ${booking.eventId} AND is_deleted RETURNING id`,
  );
  return returned.rows.length > 0;
}

/** An ended booking takes its tickets again, if they are still there and its event is not deleted. Whether it did. */
export async function retakeTickets(tx: DbOrTx, booking: LockedBooking): Promise<boolean> {
  const taken = await tx.execute(
    sql`UPDATE events SET tickets_available = tickets_available - ${booking.quantity}, version = version + 1
        WHERE id = ${booking.eventId} AND NOT is_deleted AND tickets_available >= ${booking.quantity}
        RETURNING id`,
  );
  return taken.rows.length > 0;
}

/** The booking becomes refunded by `transition`, saying `message`; the caller gives the money back after commit. */
export async function markRefunded(
  tx: DbOrTx,
  bookingId: string,
  transition: Extract<TransitionName, 'refundLate' | 'refundForDeletedEvent'>,
  payment: { provider: ProviderName; paymentIntentId: string | null },
  message: string,
): Promise<void> {
  await tx.execute(
    sql`UPDATE bookings SET ${sql.raw(setState(transition))}, payment_provider = ${payment.provider},
        payment_intent_id = COALESCE(${payment.paymentIntentId}, payment_intent_id),
        failure_message = ${message}, updated_at = now()
        WHERE id = ${bookingId}`,
  );
}

/** markPaid for a booking the caller has locked, then the mail workers are woken at commit. */
export async function markPaid(
  tx: DbOrTx,
  booking: HeldBooking,
  transition: Extract<TransitionName, 'pay' | 'payLate'>,
  payment: { provider: ProviderName; paymentIntentId: string | null },
): Promise<void> {
  await tx.execute(paidStatement([booking], transition, payment));
  await tx.execute(WAKE_MAIL_WORKERS); // delivered at commit
}

/**
 * The confirmation email of a booking that became paid, queued as its data (what the booking, its event and
 * its buyer say now): the mail worker renders it. A few hundred bytes instead of ~3 KB of text and HTML to
 * send, store and write to the WAL with every payment of an on-sale.
 */
function confirmationEmail(booking: HeldBooking): OutgoingMail & { key: string } {
  const lang = mailLang(booking.userLanguage, undefined);
  return {
    key: booking.id,
    kind: 'booking-confirmation',
    to: booking.userEmail,
    dedupeKey: `booking-paid:${booking.id}`,
    subject: bookingConfirmationSubject(booking.title, lang),
    data: {
      bookingId: booking.id,
      name: booking.userName,
      title: booking.title,
      eventDate: booking.eventDate,
      startTime: booking.startTime,
      endTime: booking.endTime,
      quantity: booking.quantity,
      totalPiasters: booking.totalPiasters,
      lang,
    },
  };
}

/**
 * The paid transition of bookings and their confirmation emails, as one statement that returns the ids
 * (`key`) of the bookings that became paid. `guard` narrows which rows may move (a caller without the lock
 * re-checks the state there). Paid is final, so a booking moving to paid never had its email queued.
 */
function paidStatement(
  bookings: HeldBooking[],
  transition: Extract<TransitionName, 'pay' | 'payLate'>,
  payment: { provider: ProviderName; paymentIntentId: string | null },
  guard = sql``,
): SQL {
  const ids = sql.param(bookings.map((booking) => booking.id));
  return enqueueMailsAfter(
    bookings.map(confirmationEmail),
    sql`UPDATE bookings SET ${sql.raw(setState(transition))}, paid_at = now(), payment_provider = ${payment.provider},
          payment_intent_id = COALESCE(${payment.paymentIntentId}, payment_intent_id),
          payment_method = COALESCE(payment_method, 'card'), failure_message = NULL, updated_at = now()
        WHERE id = ANY (${ids}::uuid[]) ${guard} RETURNING id::text AS key`,
  );
}

/**
 * A pending booking whose hold has not run out, as one expression on purpose. Written as
 * `status = 'pending' AND expires_at > now()`, it let the planner answer from bookings_pending_expiry_idx:
 * with statistics taken before an on-sale (when few holds were pending), the generic plan of a payment
 * statement ANDed its ids with a scan of that index's every entry after now(), one per pending hold and
 * one per hold paid or replaced since the last vacuum. After 20 s of an on-sale a payment batch read
 * 35,000 entries (2.3 ms) to find its ten bookings, and every batch read more. As one expression only
 * the ids, probes of the primary key, can find the rows.
 */
export const STILL_HELD = `(CASE WHEN status = 'pending' THEN expires_at END) > now()`;

/**
 * The common case without a transaction: bookings read pending (findBookingsForSettlement), of events
 * not deleted, become paid with their emails in one autocommitted statement, each only if it is still so
 * when the statement runs (a booking changed meanwhile is re-checked in its newest version, under its row
 * lock). Returns the ids that became paid; the caller settles the others under the lock. For payments
 * without a provider reference (simulated). The caller wakes the mail workers.
 */
export async function payPendingBookings(
  db: Queryable,
  bookings: LockedBooking[],
  provider: ProviderName,
): Promise<Set<string>> {
  const payable = bookings.filter(
    (booking) => booking.status === 'pending' && !booking.holdLapsed && !booking.eventDeleted,
  );
  if (payable.length === 0) return new Set();
  const guard = sql`AND ${sql.raw(STILL_HELD)}
    AND NOT EXISTS (SELECT 1 FROM events e WHERE e.id = bookings.event_id AND e.is_deleted)`;
  return paidKeys(db, 'eventry_pay_pending', paidStatement(payable, 'pay', { provider, paymentIntentId: null }, guard));
}

/**
 * payPendingBookings without the read: pays holds as this process remembers them (RecentHolds), their
 * emails written from that memory. One statement pays a booking only if it is still pending within its
 * hold, of an event not deleted, and still shows exactly what is remembered (the buyer's name and email, the
 * event's title, date and times, the quantity and total); if anything differs it stays as it was, and the
 * caller reads and settles it the usual way. Returns the ids that became paid.
 */
export async function payRememberedHolds(
  db: Queryable,
  holds: HeldBooking[],
  provider: ProviderName,
): Promise<Set<string>> {
  if (holds.length === 0) return new Set();
  const column = <T>(pick: (hold: HeldBooking) => T) => sql.param(holds.map(pick));
  // Not correlated: the remembered holds still true are found once (a hashed set), then each booking is
  // looked up in it.
  const guard = sql`AND ${sql.raw(STILL_HELD)} AND (id, user_id, event_id, quantity, total_piasters) IN (
    SELECT m.id, m.user_id, m.event_id, m.quantity, m.total_piasters
      FROM unnest(${column((h) => h.id)}::uuid[], ${column((h) => h.userId)}::text[], ${column((h) => h.eventId)}::uuid[],
                  ${column((h) => h.quantity)}::int[], ${column((h) => h.totalPiasters)}::int[],
                  ${column((h) => h.userEmail)}::text[], ${column((h) => h.userName)}::text[],
                  ${column((h) => h.title)}::text[], ${column((h) => h.eventDate)}::date[],
                  ${column((h) => h.startTime)}::time[], ${column((h) => h.endTime)}::time[])
           AS m(id, user_id, event_id, quantity, total_piasters, email, name, title, event_date, start_time, end_time)
      JOIN events e ON e.id = m.event_id AND NOT e.is_deleted AND e.title = m.title
                   AND e.event_date = m.event_date AND e.start_time = m.start_time AND e.end_time = m.end_time
      JOIN users u ON u.id = m.user_id AND u.email = m.email AND u.name = m.name)`;
  return paidKeys(
    db,
    'eventry_pay_remembered',
    paidStatement(holds, 'pay', { provider, paymentIntentId: null }, guard),
  );
}

/** Runs a paid statement on its own (autocommitted, prepared as `name`): the ids it paid. */
async function paidKeys(db: Queryable, name: string, statement: SQL): Promise<Set<string>> {
  const rows = await executePrepared<{ key: string }>(db, name, statement);
  return new Set(rows.map((row) => row.key));
}

/** Wakes the mail workers, in a statement of its own (see WAKE_MAIL_WORKERS). */
export function wakeMailWorkers(db: Queryable): Promise<unknown> {
  return executePrepared(db, 'eventry_wake_mail', WAKE_MAIL_WORKERS);
}

/** The provider refused a payment attempt: the booking stays pending (the buyer may try another card). */
export async function recordPaymentFailure(tx: DbOrTx, bookingId: string, message: string): Promise<void> {
  await tx.execute(
    sql`UPDATE bookings SET failure_message = ${message}, updated_at = now() WHERE id = ${bookingId} AND status = 'pending'`,
  );
}

/**
 * A locked pending booking ends by `transition` (its payment can no longer happen) and its tickets go back.
 * The caller has checked that the booking is pending.
 */
export async function endLockedHold(
  tx: DbOrTx,
  booking: Pick<LockedBooking, 'id' | 'quantity' | 'eventId'>,
  transition: Extract<TransitionName, 'cancelPayment' | 'endForDeletedEvent'>,
  message: string | null,
): Promise<void> {
  await tx.execute(
    sql`UPDATE events SET tickets_available = tickets_available + ${booking.quantity}, version = version + 1
        WHERE id = ${booking.eventId}`,
  );
  await tx.execute(
    sql`UPDATE bookings SET ${sql.raw(setState(transition))}, failure_message = ${message}, updated_at = now()
        WHERE id = ${booking.id}`,
  );
}

/** Has this provider event been handled already? Records it otherwise (inside the handling transaction). */
export async function claimPaymentEvent(
  tx: DbOrTx,
  event: { id: string; type: string; bookingId: string | null },
): Promise<boolean> {
  const inserted = await tx.execute(
    sql`INSERT INTO payment_events (id, type, booking_id) VALUES (${event.id}, ${event.type}, ${event.bookingId})
        ON CONFLICT (id) DO NOTHING RETURNING id`,
  );
  return inserted.rows.length > 0;
}
