import type pg from 'pg';
import type { Ticket } from '../../../contracts/bookings';
import { inTransaction, type Queryable } from '../../db/client';
import type { BookingEndReason, BookingStatus } from '../../db/schema';
import type { PaymentMethod, ProviderName } from '../../domain/payments';
import { STILL_HELD } from './payment-repository';
import { setState } from './state-machine';

/**
 * SQL of reservations and holds. The reservation path is hot (every buyer of an on-sale event goes
 * through one events row), so it speaks to node-postgres directly: few round trips, array parameters.
 */

export interface LockedEvent {
  id: string;
  title: string;
  imageUrl: string;
  eventDate: string;
  startTime: string;
  endTime: string;
  endDate: string;
  pricePiasters: number;
  ticketsAvailable: number;
  isDeleted: boolean;
}

/** Locks the event row for the rest of the transaction (reservations take the same lock in the database function). */
export async function lockEvent(db: Queryable, eventId: string): Promise<LockedEvent | undefined> {
  const result = await db.query<LockedEvent>(
    `SELECT id, title, image_url AS "imageUrl", event_date AS "eventDate", start_time AS "startTime",
            end_time AS "endTime", end_date AS "endDate", price_piasters AS "pricePiasters",
            tickets_available AS "ticketsAvailable", is_deleted AS "isDeleted"
       FROM events WHERE id = $1 FOR UPDATE`,
    [eventId],
  );
  return result.rows[0];
}

export interface NewBookingRow {
  id: string;
  userId: string;
  idempotencyKey: string | null;
  status: 'pending';
  quantity: number;
  unitPricePiasters: number;
  totalPiasters: number;
  expiresAt: Date;
  paidAt: null;
  failureMessage: null;
  endedReason: null;
}

/** What eventry_reserve_tickets (sql/eventry_reserve_tickets.sql) decided for each item of a batch, in the order given. */
export type ReserveItemResult =
  | { kind: 'created'; row: NewBookingRow }
  | { kind: 'existing'; bookingId: string }
  | { kind: 'refused'; available: number };

export type ReserveBatchResult =
  | { status: 'not-found' }
  | { status: 'closed' }
  | { status: 'ok'; event: LockedEvent; items: ReserveItemResult[]; released: PaymentOfEndedHold[] };

/** A payment started for a hold that has ended, to be cancelled with the provider that started it. */
export type PaymentOfEndedHold = { paymentProvider: ProviderName | null; paymentIntentId: string | null };

interface RawReserveResult {
  status: 'ok' | 'not-found' | 'closed';
  event: LockedEvent;
  kinds: Array<'created' | 'existing' | 'refused'>;
  bookingIds: Array<string | null>;
  available: Array<number | null>;
  expiresAt: Array<string | null>;
  released: string[];
}

/**
 * Reserves for distinct buyers of one event, in arrival order, in one statement: the database function
 * locks the event row, answers Idempotency-Key replays, replaces each buyer's pending hold, allocates,
 * inserts the bookings and moves the event's available count, all before it returns.
 */
export async function reserveBatch(
  db: Queryable,
  input: {
    eventId: string;
    userIds: string[];
    quantities: number[];
    keys: Array<string | null>;
    holdMinutes: number;
    provider: ProviderName | null;
    today: string;
  },
): Promise<ReserveBatchResult> {
  const result = await db.query<{ r: RawReserveResult }>(
    'SELECT eventry_reserve_tickets($1, $2, $3, $4, $5, $6, $7) AS r',
    [input.eventId, input.userIds, input.quantities, input.keys, input.holdMinutes, input.provider, input.today],
  );
  const raw = result.rows[0]?.r;
  if (!raw) throw new Error('eventry_reserve_tickets answered nothing');
  if (raw.status !== 'ok') return { status: raw.status };
  const price = raw.event.pricePiasters;
  const items = raw.kinds.map((kind, i): ReserveItemResult => {
    const bookingId = raw.bookingIds[i] as string;
    if (kind === 'refused') return { kind, available: raw.available[i] as number };
    if (kind === 'existing') return { kind, bookingId };
    const quantity = input.quantities[i] as number;
    return {
      kind,
      row: {
        id: bookingId,
        userId: input.userIds[i] as string,
        idempotencyKey: input.keys[i] ?? null,
        status: 'pending',
        quantity,
        unitPricePiasters: price,
        totalPiasters: quantity * price,
        expiresAt: new Date(raw.expiresAt[i] as string),
        paidAt: null,
        failureMessage: null,
        endedReason: null,
      },
    };
  });
  // 'provider:reference' (eventry_reserve_tickets.sql)
  const released = raw.released.map((qualified) => {
    const colon = qualified.indexOf(':');
    return {
      paymentProvider: qualified.slice(0, colon) as ProviderName,
      paymentIntentId: qualified.slice(colon + 1),
    };
  });
  return { status: 'ok', event: raw.event, items, released };
}

export type HistoryReason = NonNullable<Ticket['historyReason']>;

/** What the profile's lists add to a booking: its place, why it is history, what was given back, the policy. */
export interface OwnedBookingExtras {
  location: string;
  historyReason: HistoryReason | null;
  refundedQuantity: number;
  refundedPiasters: number;
  refundHoursBefore: number;
  cancellationFeePercent: number;
}

export interface BookingRow {
  id: string;
  userId: string;
  status: BookingStatus;
  endedReason: BookingEndReason | null;
  quantity: number;
  unitPricePiasters: number;
  totalPiasters: number;
  expiresAt: Date;
  paidAt: Date | null;
  failureMessage: string | null;
  paymentProvider: ProviderName | null;
  paymentIntentId: string | null;
  paymentMethod: PaymentMethod | null;
  cashReference: string | null;
  eventId: string;
  title: string;
  imageUrl: string;
  eventDate: string;
  startTime: string;
  endTime: string;
  pricePiasters: number;
  isDeleted: boolean;
}

const bookingSelect = `
  SELECT b.id, b.user_id AS "userId", b.status, b.ended_reason AS "endedReason", b.quantity, b.unit_price_piasters AS "unitPricePiasters",
         b.total_piasters AS "totalPiasters", b.expires_at AS "expiresAt", b.paid_at AS "paidAt",
         b.failure_message AS "failureMessage", b.payment_provider AS "paymentProvider",
         b.payment_intent_id AS "paymentIntentId", b.payment_method AS "paymentMethod",
         b.cash_reference AS "cashReference", e.id AS "eventId", e.title, e.image_url AS "imageUrl",
         e.event_date AS "eventDate", e.start_time AS "startTime", e.end_time AS "endTime",
         e.price_piasters AS "pricePiasters", e.is_deleted AS "isDeleted"
    FROM bookings b JOIN events e ON e.id = b.event_id`;

/** One booking of one user (another user's booking is simply not found), with the mobile number they keep. */
export async function findBookingOfUser(
  db: Queryable,
  id: string,
  userId: string,
): Promise<(BookingRow & { buyerPhone: string | null }) | undefined> {
  const result = await db.query<BookingRow & { buyerPhone: string | null }>(
    `${bookingSelect.replace('e.is_deleted AS "isDeleted"', 'e.is_deleted AS "isDeleted", (SELECT u.phone FROM users u WHERE u.id = b.user_id) AS "buyerPhone"')}
      WHERE b.id = $1 AND b.user_id = $2`,
    [id, userId],
  );
  return result.rows[0];
}

/**
 * A user's unexpired pending hold on an active event, in one statement: a probe of the events primary key
 * and one of the unique (user_id, event_id) WHERE pending index. No row: the event is unknown or deleted;
 * a row with a null id: the event exists and the user holds nothing on it. The hold's end is compared inside
 * a CASE, as in STILL_HELD (payment-repository.ts): with `b.expires_at > now()` and statistics from before an
 * on-sale, the planner added a scan of every pending hold's entry in bookings_pending_expiry_idx.
 */
export async function findUnexpiredHold(
  db: Queryable,
  eventId: string,
  userId: string,
): Promise<{ hold: { id: string; quantity: number; expiresAt: Date } | null } | undefined> {
  const result = await db.query<{ id: string | null; quantity: number | null; expiresAt: Date | null }>(
    `SELECT b.id, b.quantity, b.expires_at AS "expiresAt"
       FROM events e
       LEFT JOIN bookings b ON b.user_id = $2 AND b.event_id = e.id AND b.status = 'pending'
                           AND (CASE WHEN b.status = 'pending' THEN b.expires_at END) > now()
      WHERE e.id = $1 AND NOT e.is_deleted`,
    [eventId, userId],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  return { hold: row.id ? { id: row.id, quantity: row.quantity as number, expiresAt: row.expiresAt as Date } : null };
}

export async function setPaymentIntent(db: Queryable, bookingId: string, intentId: string): Promise<void> {
  await db.query(`UPDATE bookings SET payment_intent_id = $2, updated_at = now() WHERE id = $1`, [bookingId, intentId]);
}

/**
 * A pending, unlapsed hold of `userId` now pays with another provider or method (Paymob, chosen on the payment
 * page): the payment it had started is replaced (the caller cancels it). Kiosk cash moves the hold's end to
 * `payBy`. The payment the hold had, or undefined when it is not such a hold any more.
 */
export async function switchPayment(
  db: Queryable,
  hold: { bookingId: string; userId: string },
  payment: {
    provider: ProviderName;
    reference: string;
    method: PaymentMethod;
    cashReference: string | null;
    payBy: Date | null;
  },
): Promise<PaymentOfEndedHold | undefined> {
  const result = await db.query<PaymentOfEndedHold>(
    `WITH old AS (
       SELECT id, payment_provider, payment_intent_id, expires_at FROM bookings
        WHERE id = $1 AND user_id = $2 AND status = 'pending' AND expires_at > now()
          FOR UPDATE
     ),
     -- A Paymob payment it had stays payable until the hold's end as it is now (an intention cannot be called
     -- off): the reconciliation job asks about it then (findReplacedPaymentsToAsk). Stripe's is cancelled, and
     -- Stripe sends its events again for days.
     kept AS (
       INSERT INTO replaced_payments (provider, reference, booking_id, payable_until)
       SELECT payment_provider, payment_intent_id, id, expires_at FROM old
        WHERE payment_provider = 'paymob' AND payment_intent_id IS NOT NULL AND payment_intent_id <> $4
       ON CONFLICT DO NOTHING
     )
     UPDATE bookings b
        SET payment_provider = $3, payment_intent_id = $4, payment_method = $5, cash_reference = $6,
            expires_at = COALESCE($7, b.expires_at), failure_message = NULL, updated_at = now()
       FROM old WHERE b.id = old.id
     RETURNING old.payment_provider AS "paymentProvider", old.payment_intent_id AS "paymentIntentId"`,
    [
      hold.bookingId,
      hold.userId,
      payment.provider,
      payment.reference,
      payment.method,
      payment.cashReference,
      payment.payBy,
    ],
  );
  return result.rows[0];
}

/** Paid bookings of a user, newest event first, with whether the event is still active. */
export async function findPaidBookingsOfUser(
  db: Queryable,
  userId: string,
  today: string,
  timeZone: string,
): Promise<Array<BookingRow & OwnedBookingExtras>> {
  // Two things delete an event: the admin, and the archive job once its ticket sales have ended (endDate
  // before the day it ran, in the app's time zone). Only the admin deletes one whose sales were still open.
  const removed = `e.is_deleted AND e.end_date >= COALESCE((e.deleted_at AT TIME ZONE $3)::date, $2::date)`;
  // A booking given back whole is history; so is every booking of a cancelled event.
  const historyReason = `CASE WHEN e.cancelled_at IS NOT NULL THEN 'cancelled' WHEN b.status = 'refunded' THEN 'refunded'
    WHEN NOT e.is_deleted AND e.event_date >= $2::date THEN NULL
    WHEN ${removed} THEN 'removed' WHEN e.event_date < $2::date THEN 'ended' ELSE 'sales-closed' END`;
  const extras = `e.location, ${historyReason} AS "historyReason", b.refunded_quantity AS "refundedQuantity",
    b.refunded_piasters AS "refundedPiasters", e.refund_hours_before AS "refundHoursBefore",
    e.cancellation_fee_percent AS "cancellationFeePercent"`;
  const result = await db.query<BookingRow & OwnedBookingExtras>(
    `${bookingSelect.replace('e.is_deleted AS "isDeleted"', `e.is_deleted AS "isDeleted", ${extras}`)}
      WHERE b.user_id = $1 AND b.status IN ('paid', 'refunded') AND (b.status = 'paid' OR b.refunded_quantity > 0)
      ORDER BY e.event_date, e.start_time, b.paid_at`,
    [userId, today, timeZone],
  );
  return result.rows;
}

/** Runs `work` in a transaction of its own with the event row locked first, the same lock order as reservations. */
async function withEventLocked<T>(
  pool: Pick<pg.Pool, 'connect'>,
  eventId: string,
  work: (client: pg.PoolClient, event: LockedEvent | undefined) => Promise<T>,
): Promise<T> {
  return inTransaction(pool, async (client) => work(client, await lockEvent(client, eventId)));
}

type EndedHold = PaymentOfEndedHold & { id: string; quantity: number };

/** Expires one event's lapsed holds (or those `ending` names) in a transaction of its own. Returns them. */
export function releaseLapsedHoldsOfEvent(
  pool: Pick<pg.Pool, 'connect'>,
  eventId: string,
  limit = 1000,
  ending?: HoldsEnding,
): Promise<EndedHold[]> {
  return withEventLocked(pool, eventId, (client) => expireLapsedHolds(client, eventId, limit, ending));
}

/**
 * A buyer lets their pending, unexpired hold `bookingId` on an event go ('cancelled', saying `failureMessage`):
 * its tickets go back at once. The hold ended (none when it is no longer such a hold), or 'busy' while a
 * payment of that hold holds its row lock (it may be about to become paid).
 */
export async function releaseHoldOfUser(
  pool: Pick<pg.Pool, 'connect'>,
  hold: { eventId: string; bookingId: string; userId: string; declinedOffer?: true },
  failureMessage: string,
): Promise<EndedHold[] | 'busy'> {
  try {
    return await withEventLocked(pool, hold.eventId, (client) =>
      expireLapsedHolds(client, hold.eventId, 1, {
        failureMessage,
        ofUser: hold.userId,
        bookingId: hold.bookingId,
        ...(hold.declinedOffer ? { declinedOffer: true } : {}),
      }),
    );
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') return 'busy';
    throw error;
  }
}

/** Events that have pending bookings past their hold (a bounded sample). */
export async function findEventsWithLapsedHolds(db: Queryable, limit: number): Promise<string[]> {
  const result = await db.query<{ eventId: string }>(
    `SELECT DISTINCT event_id AS "eventId" FROM (
       SELECT event_id FROM bookings WHERE status = 'pending' AND expires_at < now() ORDER BY expires_at LIMIT $1
     ) lapsed`,
    [limit],
  );
  return result.rows.map((r) => r.eventId);
}

/**
 * How holds end other than by running out: every pending hold of a deleted event ('failed'), or one buyer's
 * unexpired hold that they let go ('cancelled'). Each says `failureMessage`.
 */
export type HoldsEnding =
  | { failureMessage: string; ofDeletedEvent: true }
  | { failureMessage: string; ofCancelledEvent: true }
  | { failureMessage: string; ofUser: string; bookingId: string; declinedOffer?: true };

/**
 * Expires an event's lapsed holds and gives their tickets back, in one statement; with `ending`, the holds it
 * names instead. The caller has locked the event row first (the same lock order as reservations: event, then
 * bookings). Bookings that a payment is settling right now are skipped and picked up on the next run, but a
 * buyer's own hold is not skipped: its lock is refused at once (55P03, lock_not_available) instead of
 * waiting under the event's lock.
 */
export async function expireLapsedHolds(
  db: Queryable,
  eventId: string,
  limit: number,
  ending?: HoldsEnding,
): Promise<EndedHold[]> {
  // expires_at IS NOT NULL (always true) lets a deletion read the holds through the pending-expiry index; a
  // buyer's hold is probed by its id.
  let which = `expires_at < now() ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED`;
  let status = setState('expire');
  const params: unknown[] = [eventId, limit];
  if (ending && 'ofUser' in ending) {
    // Not a hold that ran out meanwhile: that one is 'expired' (the expiry job's), not cancelled by the buyer.
    // A waitlist offer the user declines ends as declined (its tickets go on to the next in line).
    which = ending.declinedOffer
      ? `id = $5 AND user_id = $4 AND waitlist_entry_id IS NOT NULL AND ${STILL_HELD} LIMIT $2 FOR UPDATE NOWAIT`
      : `id = $5 AND user_id = $4 AND ${STILL_HELD} LIMIT $2 FOR UPDATE NOWAIT`;
    status = `${setState(ending.declinedOffer ? 'declineOffer' : 'cancelHold')}, failure_message = $3`;
    params.push(ending.failureMessage, ending.ofUser, ending.bookingId);
  } else if (ending) {
    which = `expires_at IS NOT NULL ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED`;
    status = `${setState('ofCancelledEvent' in ending ? 'endForCancelledEvent' : 'endForDeletedEvent')}, failure_message = $3`;
    params.push(ending.failureMessage);
  }
  const result = await db.query<EndedHold>(
    `WITH lapsed AS (
       SELECT id FROM bookings
        WHERE event_id = $1 AND status = 'pending' AND ${which}
     ), expired AS (
       UPDATE bookings b SET ${status}, updated_at = now()
         FROM lapsed WHERE b.id = lapsed.id
       RETURNING b.id, b.quantity, b.payment_provider, b.payment_intent_id
     ), returned AS (
       UPDATE events SET tickets_available = tickets_available + (SELECT sum(quantity) FROM expired),
                         version = version + 1
        WHERE id = $1 AND EXISTS (SELECT 1 FROM expired)
       RETURNING id
     )
     SELECT id, payment_provider AS "paymentProvider", payment_intent_id AS "paymentIntentId", quantity FROM expired`,
    params,
  );
  return result.rows;
}

/**
 * Bookings whose payment a provider may have taken without telling us (a callback lost): Paymob payments of the
 * last two days not paid or refunded, untouched for `olderThanSeconds`, the longest untouched first. Each one read
 * goes to the end of the line (updated_at). Through bookings_paymob_unsettled_idx.
 */
export async function findQuietPayments(
  db: Queryable,
  olderThanSeconds: number,
  limit: number,
): Promise<Array<Pick<BookingRow, 'id' | 'status' | 'paymentProvider' | 'paymentIntentId' | 'totalPiasters'>>> {
  const result = await db.query<
    Pick<BookingRow, 'id' | 'status' | 'paymentProvider' | 'paymentIntentId' | 'totalPiasters'>
  >(
    `WITH quiet AS (
       SELECT id FROM bookings
        WHERE payment_provider = 'paymob' AND payment_intent_id IS NOT NULL
          AND status IN ('pending', 'expired', 'cancelled', 'failed') AND created_at > now() - interval '2 days'
          AND updated_at < now() - make_interval(secs => $1)
        ORDER BY updated_at LIMIT $2
          FOR UPDATE SKIP LOCKED
     )
     UPDATE bookings b SET updated_at = now() FROM quiet WHERE b.id = quiet.id
     RETURNING b.id, b.status, b.payment_provider AS "paymentProvider", b.payment_intent_id AS "paymentIntentId",
               b.total_piasters AS "totalPiasters"`,
    [olderThanSeconds, limit],
  );
  return result.rows;
}

/**
 * Payments replaced on a hold (switchPayment) that can no longer be paid (their hold's end then has passed, a
 * minute ago at least) and that the provider has not been asked about: the reconciliation job's second list.
 * Those replaced more than two days ago are left alone, as findQuietPayments leaves its bookings.
 */
export async function findReplacedPaymentsToAsk(
  db: Queryable,
  limit: number,
): Promise<Array<{ provider: ProviderName; reference: string; bookingId: string }>> {
  const result = await db.query<{ provider: ProviderName; reference: string; bookingId: string }>(
    `SELECT provider, reference, booking_id AS "bookingId" FROM replaced_payments
      WHERE asked_at IS NULL AND payable_until < now() - interval '1 minute' AND replaced_at > now() - interval '2 days'
      ORDER BY payable_until LIMIT $1`,
    [limit],
  );
  return result.rows;
}

/** The provider has answered about a replaced payment: it is not asked about again. */
export async function markReplacedPaymentAsked(db: Queryable, provider: ProviderName, reference: string) {
  await db.query('UPDATE replaced_payments SET asked_at = now() WHERE provider = $1 AND reference = $2', [
    provider,
    reference,
  ]);
}

/** Who pays, as a provider that needs it (Paymob) is told: the buyer's name, email and kept mobile number. */
export async function findBuyer(
  db: Queryable,
  userId: string,
): Promise<{ name: string; email: string; phone: string | null } | undefined> {
  const result = await db.query<{ name: string; email: string; phone: string | null }>(
    'SELECT name, email, phone FROM users WHERE id = $1',
    [userId],
  );
  return result.rows[0];
}

/** Keeps the mobile number a buyer gave on the payment page for their next payment. */
export async function rememberPhone(db: Queryable, userId: string, phone: string): Promise<void> {
  await db.query('UPDATE users SET phone = $2, updated_at = now() WHERE id = $1 AND phone IS DISTINCT FROM $2', [
    userId,
    phone,
  ]);
}

/** The booking whose current payment is `reference` at `provider`. */
export async function findBookingByPayment(
  db: Queryable,
  provider: ProviderName,
  reference: string,
): Promise<BookingRow | undefined> {
  const result = await db.query<BookingRow>(
    `${bookingSelect} WHERE b.payment_intent_id = $1 AND b.payment_provider = $2`,
    [reference, provider],
  );
  return result.rows[0];
}

/** A user's bookings waiting for their kiosk cash (still held), soonest deadline first. */
export async function findAwaitingCashOfUser(db: Queryable, userId: string): Promise<BookingRow[]> {
  const result = await db.query<BookingRow>(
    `${bookingSelect}
      WHERE b.user_id = $1 AND b.status = 'pending' AND b.payment_method = 'cash' AND b.cash_reference IS NOT NULL
        AND b.expires_at > now() AND NOT e.is_deleted
      ORDER BY b.expires_at`,
    [userId],
  );
  return result.rows;
}

/** A booking's current payment (no lock: a check made before settling). */
export async function findPaymentOfBooking(
  db: Queryable,
  bookingId: string,
): Promise<{ paymentProvider: ProviderName | null; paymentIntentId: string | null } | undefined> {
  const result = await db.query<{ paymentProvider: ProviderName | null; paymentIntentId: string | null }>(
    'SELECT payment_provider AS "paymentProvider", payment_intent_id AS "paymentIntentId" FROM bookings WHERE id = $1',
    [bookingId],
  );
  return result.rows[0];
}
