import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { ProviderName } from '../../domain/payments';
import { enqueueMail, type OutgoingMail } from '../../plugins/mailer';
import { setState, type TransitionName } from './state-machine';

/**
 * SQL of refunds (refunds.ts decides): a paid booking read for a refund, the refund asked for, applied (the
 * booking's refunded tickets and money, its tickets voided, the tickets back on sale, the email) or failed, the
 * refunds a crash left unfinished, and a cancelled event's refunds.
 */

export type RefundReason = 'buyer' | 'organiser' | 'event_cancelled';

/** A booking as a refund needs it, with its event's policy and its buyer. */
export interface RefundableBooking {
  id: string;
  userId: string;
  status: string;
  quantity: number;
  refundedQuantity: number;
  refundedPiasters: number;
  unitPricePiasters: number;
  totalPiasters: number;
  paymentProvider: ProviderName | null;
  paymentIntentId: string | null;
  eventId: string;
  title: string;
  eventDate: string;
  startTime: string;
  refundHoursBefore: number;
  cancellationFeePercent: number;
  eventCancelled: boolean;
  /** Valid tickets not yet checked in: only these can be given back. */
  unusedTickets: number;
  userEmail: string;
  userName: string;
  userLanguage: string | null;
}

const REFUNDABLE_SELECT = sql`
  SELECT b.id, b.user_id AS "userId", b.status, b.quantity, b.refunded_quantity AS "refundedQuantity",
         b.refunded_piasters AS "refundedPiasters", b.unit_price_piasters AS "unitPricePiasters",
         b.total_piasters AS "totalPiasters", b.payment_provider AS "paymentProvider",
         b.payment_intent_id AS "paymentIntentId", e.id AS "eventId", e.title, e.event_date AS "eventDate",
         e.start_time AS "startTime", e.refund_hours_before AS "refundHoursBefore",
         e.cancellation_fee_percent AS "cancellationFeePercent", (e.cancelled_at IS NOT NULL) AS "eventCancelled",
         (SELECT count(*)::int FROM tickets t
           WHERE t.booking_id = b.id AND t.voided_at IS NULL AND t.checked_in_at IS NULL) AS "unusedTickets",
         u.email AS "userEmail", u.name AS "userName", u.language AS "userLanguage"
    FROM bookings b JOIN events e ON e.id = b.event_id JOIN users u ON u.id = b.user_id`;

/** A booking read for a refund (another user's is simply not found when `userId` is given). */
export async function findRefundableBooking(
  db: DbOrTx,
  bookingId: string,
  userId?: string,
): Promise<RefundableBooking | undefined> {
  const owner = userId === undefined ? sql`` : sql`AND b.user_id = ${userId}`;
  const result = await db.execute<RefundableBooking & Record<string, unknown>>(
    sql`${REFUNDABLE_SELECT} WHERE b.id = ${bookingId} ${owner}`,
  );
  return result.rows[0];
}

export interface RequestedRefund {
  id: string;
  bookingId: string;
  quantity: number;
  amountPiasters: number;
  reason: RefundReason;
}

/**
 * Records a refund asked for: the booking must still be paid with that many tickets left to give back, and have
 * no other refund in flight. The refund, or undefined when the booking has changed meanwhile or one is in flight.
 */
export async function insertRefund(
  db: DbOrTx,
  refund: Omit<RequestedRefund, 'id'> & { feePiasters: number; requestedBy: string | null },
): Promise<RequestedRefund | undefined> {
  const result = await db.execute<RequestedRefund & Record<string, unknown>>(sql`
    INSERT INTO refunds (booking_id, quantity, amount_piasters, fee_piasters, reason, requested_by)
    SELECT b.id, ${refund.quantity}, ${refund.amountPiasters}, ${refund.feePiasters}, ${refund.reason}, ${refund.requestedBy}
      FROM bookings b
     WHERE b.id = ${refund.bookingId} AND b.status = 'paid' AND b.quantity - b.refunded_quantity >= ${refund.quantity}
       -- Waits for a refund being applied to this booking, then reads what it left.
       FOR UPDATE OF b
    ON CONFLICT (booking_id) WHERE status = 'requested' DO NOTHING
    RETURNING id, booking_id AS "bookingId", quantity, amount_piasters AS "amountPiasters", reason`);
  return result.rows[0];
}

/** A refund with what the provider and the booking need to carry it out. */
export interface PendingRefund extends RequestedRefund {
  status: 'requested' | 'succeeded' | 'failed';
  paymentProvider: ProviderName | null;
  paymentIntentId: string | null;
  /** Money the booking had given back before this refund (Paymob counts refunds by amount). */
  refundedBefore: number;
}

const PENDING_SELECT = sql`
  SELECT r.id, r.booking_id AS "bookingId", r.quantity, r.amount_piasters AS "amountPiasters", r.reason, r.status,
         b.payment_provider AS "paymentProvider", b.payment_intent_id AS "paymentIntentId",
         b.refunded_piasters AS "refundedBefore"
    FROM refunds r JOIN bookings b ON b.id = r.booking_id`;

export async function findRefund(db: DbOrTx, refundId: string): Promise<PendingRefund | undefined> {
  const result = await db.execute<PendingRefund & Record<string, unknown>>(
    sql`${PENDING_SELECT} WHERE r.id = ${refundId}`,
  );
  return result.rows[0];
}

/** Refunds asked for more than `olderThanSeconds` ago and never finished (a crash, a provider that did not answer). */
export async function findUnfinishedRefunds(
  db: DbOrTx,
  olderThanSeconds: number,
  limit: number,
): Promise<PendingRefund[]> {
  const result = await db.execute<PendingRefund & Record<string, unknown>>(sql`
    ${PENDING_SELECT}
     WHERE r.status = 'requested' AND r.created_at < now() - make_interval(secs => ${olderThanSeconds})
     ORDER BY r.created_at LIMIT ${limit}`);
  return result.rows;
}

/** The transition a refund applies: a part keeps the booking paid; the last tickets end it, by who refunded. */
function transitionOf(reason: RefundReason, last: boolean): TransitionName {
  if (!last) return 'refundPart';
  if (reason === 'buyer') return 'refundToBuyer';
  return reason === 'organiser' ? 'refundByOrganiser' : 'refundForCancelledEvent';
}

/**
 * Applies a refund the provider has carried out, once: under the refund's lock (a second applier finds it done),
 * then the event's and the booking's (the reservations' lock order), the booking gives back `quantity` tickets
 * (the highest numbers not checked in are voided; the last ones end it), they go back on sale, the refund is
 * done and the buyer's email is queued. False when it was applied already.
 */
export async function applyRefund(
  tx: DbOrTx,
  refundId: string,
  email: (booking: RefundableBooking, refund: RequestedRefund) => OutgoingMail,
): Promise<boolean> {
  const locked = await tx.execute<RequestedRefund & Record<string, unknown>>(sql`
    SELECT id, booking_id AS "bookingId", quantity, amount_piasters AS "amountPiasters", reason
      FROM refunds WHERE id = ${refundId} AND status = 'requested' FOR UPDATE`);
  const refund = locked.rows[0];
  if (!refund) return false;
  await tx.execute(
    sql`SELECT 1 FROM events WHERE id = (SELECT event_id FROM bookings WHERE id = ${refund.bookingId}) FOR UPDATE`,
  );
  const booking = await findRefundableBooking(tx, refund.bookingId);
  if (!booking) return false;
  if (booking.status !== 'paid' || booking.refundedQuantity + refund.quantity > booking.quantity) {
    // Cannot happen while refunds are asked for under the booking's lock; if it did, the money went back twice.
    await failRefund(tx, refundId, 'the booking had changed when the refund was applied: check the provider');
    return false;
  }
  const last = booking.refundedQuantity + refund.quantity === booking.quantity;
  await tx.execute(sql`
    UPDATE tickets SET voided_at = now()
     WHERE id IN (SELECT id FROM tickets
                   WHERE booking_id = ${refund.bookingId} AND voided_at IS NULL AND checked_in_at IS NULL
                   ORDER BY number DESC LIMIT ${refund.quantity})`);
  await tx.execute(sql`
    UPDATE bookings SET ${sql.raw(setState(transitionOf(refund.reason, last)))},
           refunded_quantity = refunded_quantity + ${refund.quantity},
           refunded_piasters = refunded_piasters + ${refund.amountPiasters}, updated_at = now()
     WHERE id = ${refund.bookingId}`);
  await tx.execute(sql`
    UPDATE events SET tickets_available = tickets_available + ${refund.quantity}, version = version + 1
     WHERE id = ${booking.eventId}`);
  await tx.execute(
    sql`UPDATE refunds SET status = 'succeeded', completed_at = now(), updated_at = now() WHERE id = ${refundId}`,
  );
  await enqueueMail(tx, email(booking, refund));
  return true;
}

/** The provider refused: the booking stays as it was, and the organiser sees why. */
export async function failRefund(db: DbOrTx, refundId: string, message: string): Promise<void> {
  await db.execute(sql`
    UPDATE refunds SET status = 'failed', failure_message = ${message.slice(0, 500)}, completed_at = now(),
           updated_at = now()
     WHERE id = ${refundId} AND status = 'requested'`);
}

/** Marks the event cancelled (once); whether this call did. */
export async function markEventCancelled(db: DbOrTx, eventId: string): Promise<'cancelled' | 'already' | 'not-found'> {
  const result = await db.execute<{ was: Date | null } & Record<string, unknown>>(sql`
    WITH old AS (SELECT id, cancelled_at FROM events WHERE id = ${eventId} AND NOT is_deleted FOR UPDATE)
    UPDATE events e SET cancelled_at = COALESCE(old.cancelled_at, now()), version = e.version + 1, updated_at = now()
      FROM old WHERE e.id = old.id
    RETURNING old.cancelled_at AS was`);
  const row = result.rows[0];
  if (!row) return 'not-found';
  return row.was ? 'already' : 'cancelled';
}

/**
 * Asks for the refund of every paid booking of cancelled events that has tickets left and none in flight: all of
 * `eventId`'s, or (the job) those of every event cancelled in the last week. The refunds asked for.
 */
export async function requestRefundsOfCancelledEvents(
  db: DbOrTx,
  eventId: string | null,
  requestedBy: string | null,
): Promise<RequestedRefund[]> {
  // The organiser's call tries again the refunds that failed; the job does not (it would every half minute).
  const which = eventId
    ? sql`e.id = ${eventId}`
    : sql`e.cancelled_at > now() - interval '7 days'
          AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.booking_id = b.id AND f.status = 'failed')`;
  const result = await db.execute<RequestedRefund & Record<string, unknown>>(sql`
    INSERT INTO refunds (booking_id, quantity, amount_piasters, fee_piasters, reason, requested_by)
    SELECT b.id, b.quantity - b.refunded_quantity, (b.quantity - b.refunded_quantity) * b.unit_price_piasters, 0,
           'event_cancelled', ${requestedBy}
      FROM bookings b JOIN events e ON e.id = b.event_id
     WHERE ${which} AND e.cancelled_at IS NOT NULL AND b.status = 'paid' AND b.refunded_quantity < b.quantity
    ON CONFLICT (booking_id) WHERE status = 'requested' DO NOTHING
    RETURNING id, booking_id AS "bookingId", quantity, amount_piasters AS "amountPiasters", reason`);
  return result.rows;
}

/** Each booking's latest failed refund, for the attendees page: booking id → the provider's words. */
export async function latestRefundFailures(db: DbOrTx, eventId: string): Promise<Map<string, string>> {
  const result = await db.execute<{ bookingId: string; message: string } & Record<string, unknown>>(sql`
    SELECT DISTINCT ON (r.booking_id) r.booking_id AS "bookingId", r.status, coalesce(r.failure_message, '') AS message
      FROM refunds r JOIN bookings b ON b.id = r.booking_id
     WHERE b.event_id = ${eventId}
     ORDER BY r.booking_id, r.created_at DESC`);
  return new Map(
    result.rows
      .filter((row) => (row as { status?: string }).status === 'failed')
      .map((row) => [row.bookingId, row.message]),
  );
}
