import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Stripe from 'stripe';
import { passesLuhn, type SimulatedConfirmBody, TEST_CARDS } from '../../contracts/bookings';
import { CURRENCY } from '../../contracts/constants';
import { todayIn } from '../../contracts/dates';
import { messages } from '../../contracts/messages';
import { type DbOrTx, executePrepared, type Queryable } from '../db/client';
import type { AppConfig } from '../env';
import { bookingConfirmationSubject } from './email-templates';
import { enqueueMailsAfter, type OutgoingMail, WAKE_MAIL_WORKERS } from './mailer';
import { RecentHolds } from './recent-holds';

/**
 * Payments: which card provider is in use (Stripe when its keys are configured, otherwise the built-in
 * simulated processor that behaves like Stripe's test mode), and the one way a booking's payment
 * settles. Every confirmation path (simulated confirm, Stripe webhook, the success page asking Stripe)
 * goes through settleBookingPaid, which locks the booking and makes exactly one paid transition and
 * queues exactly one confirmation email.
 */

export type ProviderName = 'stripe' | 'simulated';

/** A card error as the provider words it (shown inline under the Pay button). */
export interface CardFailure {
  ok: false;
  code: 'card_declined' | 'insufficient_funds' | 'incorrect_number' | 'expired_card' | 'invalid_expiry';
  message: string;
}
export type CardOutcome = { ok: true } | CardFailure;

export interface IntentSummary {
  id: string;
  status: string;
  clientSecret: string | undefined;
  bookingId: string | undefined;
  amount: number;
  lastErrorMessage: string | undefined;
}

export interface StripeGateway {
  createIntent(booking: { id: string; totalPiasters: number; userId: string }): Promise<IntentSummary>;
  retrieveIntent(id: string): Promise<IntentSummary>;
  cancelIntent(id: string): Promise<void>;
  refund(intentId: string, bookingId: string): Promise<void>;
  /** Verifies the Stripe-Signature header over the raw body (5 minutes' tolerance); throws when invalid. */
  verifyWebhook(rawBody: Buffer, signature: string): Stripe.Event;
  readonly webhookConfigured: boolean;
}

export interface Payments {
  provider: ProviderName;
  publishableKey: string | undefined;
  /** Present when provider is 'stripe'. */
  stripe: StripeGateway | undefined;
  holdMinutes: number;
  timeZone: string;
  appUrl: string;
  /** Holds made by this process, so that paying one with the simulated processor needs no read first. */
  recentHolds: RecentHolds;
}

declare module 'fastify' {
  interface FastifyInstance {
    payments: Payments;
  }
}

// ---------------------------------------------------------------------------
// Simulated processor
// ---------------------------------------------------------------------------

/**
 * The simulated processor's decision for a card, reproducing Stripe's test cards and messages:
 * 4242… succeeds, 4000…0002 is declined, 4000…9995 has insufficient funds, any other Luhn-valid number
 * succeeds, a Luhn failure is an invalid number, a past expiry is expired.
 */
export function decideSimulatedCard(
  card: Pick<SimulatedConfirmBody, 'cardNumber' | 'expMonth' | 'expYear'>,
  today: string,
): CardOutcome {
  const digits = card.cardNumber.replace(/\s+/g, '');
  if (digits.length < 12 || digits.length > 19 || !passesLuhn(digits)) {
    return { ok: false, code: 'incorrect_number', message: messages.payment.invalidNumber };
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (card.expMonth < 1 || card.expMonth > 12) {
    return { ok: false, code: 'invalid_expiry', message: messages.payment.invalidExpiry };
  }
  const [thisYear, thisMonth] = today.split('-').map(Number) as [number, number];
  if (year < thisYear || (year === thisYear && card.expMonth < thisMonth)) {
    return { ok: false, code: 'expired_card', message: messages.payment.expiredCard };
  }
  if (digits === TEST_CARDS.declined)
    return { ok: false, code: 'card_declined', message: messages.payment.cardDeclined };
  if (digits === TEST_CARDS.insufficientFunds) {
    return { ok: false, code: 'insufficient_funds', message: messages.payment.insufficientFunds };
  }
  return { ok: true };
}

// ---------------------------------------------------------------------------
// Stripe
// ---------------------------------------------------------------------------

function summarise(intent: Stripe.PaymentIntent): IntentSummary {
  return {
    id: intent.id,
    status: intent.status,
    clientSecret: intent.client_secret ?? undefined,
    bookingId: intent.metadata?.bookingId,
    amount: intent.amount,
    lastErrorMessage: intent.last_payment_error?.message ?? undefined,
  };
}

export function createStripeGateway(stripeConfig: NonNullable<AppConfig['stripe']>): StripeGateway {
  const api = stripeConfig.apiUrl ? new URL(stripeConfig.apiUrl) : undefined;
  const stripe = new Stripe(stripeConfig.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
  const webhookSecret = stripeConfig.webhookSecret;
  return {
    webhookConfigured: webhookSecret !== undefined,
    async createIntent(booking) {
      const intent = await stripe.paymentIntents.create(
        {
          // Integer piasters: total EGP × 100, as Stripe expects the smallest currency unit.
          amount: booking.totalPiasters,
          currency: CURRENCY.toLowerCase(),
          metadata: { bookingId: booking.id, userId: booking.userId },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: `booking-${booking.id}` },
      );
      return summarise(intent);
    },
    async retrieveIntent(id) {
      return summarise(await stripe.paymentIntents.retrieve(id));
    },
    async cancelIntent(id) {
      await stripe.paymentIntents.cancel(id);
    },
    async refund(intentId, bookingId) {
      await stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey: `refund-${bookingId}` });
    },
    verifyWebhook(rawBody, signature) {
      if (!webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set');
      return stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, 300);
    },
  };
}

// ---------------------------------------------------------------------------
// Settlement (shared by every confirmation path)
// ---------------------------------------------------------------------------

export interface SettledBooking {
  id: string;
  status: string;
  /** The payment must be given back: it arrived after the hold lapsed and the tickets are gone. */
  refund: boolean;
  paymentIntentId: string | null;
  /** Why the payment was refunded, for the buyer. */
  message?: string;
}

/** A booking locked for settlement, with what its confirmation email needs (one query). */
export type LockedBooking = {
  id: string;
  userId: string;
  status: string;
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
  | 'title'
  | 'eventDate'
  | 'startTime'
  | 'endTime'
>;

/** Bookings with their event and buyer, chosen by `where` (over b); locked (only the booking rows) when `lock` is set. */
function settlementRead(where: SQL, lock: boolean): SQL {
  return sql`SELECT b.id, b.user_id AS "userId", b.status, b.quantity, b.total_piasters AS "totalPiasters",
               b.event_id AS "eventId", b.payment_intent_id AS "paymentIntentId",
               b.failure_message AS "failureMessage", e.is_deleted AS "eventDeleted",
               (b.status = 'pending' AND b.expires_at <= now()) AS "holdLapsed", u.email AS "userEmail",
               u.name AS "userName", e.title, e.event_date AS "eventDate", e.start_time AS "startTime",
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

/**
 * Records that the booking's payment succeeded. Idempotent: a paid booking stays paid and no second
 * email is queued. A booking whose hold already lapsed (expired, replaced, failed) takes its tickets
 * again if they are still there; otherwise, or when the buyer cancelled it, it becomes 'refunded' and the
 * caller refunds the payment.
 * Runs inside the caller's transaction.
 */
export async function settleBookingPaid(
  tx: DbOrTx,
  bookingId: string,
  payment: { provider: ProviderName; paymentIntentId?: string },
): Promise<SettledBooking | undefined> {
  const booking = await lockBookingForSettlement(tx, bookingId);
  return booking ? settleLockedBooking(tx, booking, payment) : undefined;
}

/** settleBookingPaid for a booking the caller has already locked with lockBookingForSettlement. */
export async function settleLockedBooking(
  tx: DbOrTx,
  booking: LockedBooking,
  payment: { provider: ProviderName; paymentIntentId?: string },
): Promise<SettledBooking> {
  const intentId = payment.paymentIntentId ?? booking.paymentIntentId;
  if (booking.status === 'paid' || booking.status === 'refunded') {
    return { id: booking.id, status: booking.status, refund: false, paymentIntentId: intentId };
  }
  const refundWith = async (message: string): Promise<SettledBooking> => {
    await tx.execute(
      sql`UPDATE bookings SET status = 'refunded', payment_provider = ${payment.provider},
          payment_intent_id = COALESCE(payment_intent_id, ${intentId ?? null}),
          failure_message = ${message}, updated_at = now()
          WHERE id = ${booking.id}`,
    );
    return { id: booking.id, status: 'refunded', refund: true, paymentIntentId: intentId, message };
  };
  if (booking.status === 'pending') {
    // The event was deleted (or archived) while the buyer paid: nobody may buy it now. Its held tickets go
    // back to the event, so capacity = available + held + sold still holds, and the money goes back too.
    // (The flag is read with the booking: a deletion committed after that read comes after this payment,
    // which then keeps its tickets like any booking paid before its event was deleted.)
    if (booking.eventDeleted) {
      const cancelled = await tx.execute(
        sql`UPDATE events SET tickets_available = tickets_available + ${booking.quantity}, version = version + 1
            WHERE id = ${booking.eventId} AND is_deleted RETURNING id`,
      );
      if (cancelled.rows.length > 0) return refundWith(messages.payment.eventCancelledRefunded);
    }
  } else if (booking.status === 'cancelled' && booking.failureMessage === messages.payment.holdCancelled) {
    // The buyer cancelled the reservation (and was told its tickets went back on sale) as Stripe took the money.
    return refundWith(messages.payment.holdCancelledRefunded);
  } else {
    // The hold lapsed before the money arrived: take the tickets again if they are still there.
    const taken = await tx.execute(
      sql`UPDATE events SET tickets_available = tickets_available - ${booking.quantity}, version = version + 1
          WHERE id = ${booking.eventId} AND NOT is_deleted AND tickets_available >= ${booking.quantity}
          RETURNING id`,
    );
    if (taken.rows.length === 0) {
      // The hold ended with its event's deletion, or ran out and its tickets went to others.
      return refundWith(
        booking.eventDeleted ? messages.payment.eventCancelledRefunded : messages.payment.holdExpiredRefunded,
      );
    }
  }
  await tx.execute(paidStatement([booking], { provider: payment.provider, paymentIntentId: intentId ?? null }));
  await tx.execute(WAKE_MAIL_WORKERS); // delivered at commit
  return { id: booking.id, status: 'paid', refund: false, paymentIntentId: intentId };
}

/**
 * The confirmation email of a booking that became paid, queued as its data (what the booking, its event and
 * its buyer say now): the mail worker renders it. A few hundred bytes instead of ~3 KB of text and HTML to
 * send, store and write to the WAL with every payment of an on-sale.
 */
function confirmationEmail(booking: HeldBooking): OutgoingMail & { key: string } {
  return {
    key: booking.id,
    kind: 'booking-confirmation',
    to: booking.userEmail,
    dedupeKey: `booking-paid:${booking.id}`,
    subject: bookingConfirmationSubject(booking.title),
    data: {
      name: booking.userName,
      title: booking.title,
      eventDate: booking.eventDate,
      startTime: booking.startTime,
      endTime: booking.endTime,
      quantity: booking.quantity,
      totalPiasters: booking.totalPiasters,
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
  payment: { provider: ProviderName; paymentIntentId: string | null },
  guard = sql``,
): SQL {
  const ids = sql.param(bookings.map((booking) => booking.id));
  return enqueueMailsAfter(
    bookings.map(confirmationEmail),
    sql`UPDATE bookings SET status = 'paid', paid_at = now(), payment_provider = ${payment.provider},
          payment_intent_id = COALESCE(payment_intent_id, ${payment.paymentIntentId}), failure_message = NULL,
          updated_at = now()
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
const STILL_HELD = sql`(CASE WHEN status = 'pending' THEN expires_at END) > now()`;

/**
 * The common case without a transaction: bookings read pending (findBookingsForSettlement), of events
 * not deleted, become paid with their emails in one autocommitted statement, each only if it is still so
 * when the statement runs (a booking changed meanwhile is re-checked in its newest version, under its row
 * lock). Returns the ids that became paid; the caller settles the others under the lock
 * (settleBookingPaid handles every other state). For payments without a PaymentIntent (simulated).
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
  const guard = sql`AND ${STILL_HELD}
    AND NOT EXISTS (SELECT 1 FROM events e WHERE e.id = bookings.event_id AND e.is_deleted)`;
  return payAutocommitted(
    db,
    'eventry_pay_pending',
    paidStatement(payable, { provider, paymentIntentId: null }, guard),
  );
}

/**
 * payPendingBookings without the read: pays holds as this process remembers them (RecentHolds), their
 * emails written from that memory. One statement pays a booking only if it is still pending within its
 * hold, of an event not deleted, and still shows exactly what is remembered (the buyer's name and email, the event's title,
 * date and times, the quantity and total); if anything differs it stays as it was, and the caller reads
 * and settles it the usual way. Returns the ids that became paid.
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
  const guard = sql`AND ${STILL_HELD} AND (id, user_id, event_id, quantity, total_piasters) IN (
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
  return payAutocommitted(
    db,
    'eventry_pay_remembered',
    paidStatement(holds, { provider, paymentIntentId: null }, guard),
  );
}

/** Runs a paid statement on its own (autocommitted, prepared as `name`) and wakes the mail workers after it. */
async function payAutocommitted(db: Queryable, name: string, statement: SQL): Promise<Set<string>> {
  const rows = await executePrepared<{ key: string }>(db, name, statement);
  if (rows.length > 0) wakeMailWorkersSoon(db);
  return new Set(rows.map((row) => row.key));
}

/** Wake-ups of the mail workers after batched payments: at most one per this many ms and database pool. */
const WAKE_GAP_MS = 100;
const wakes = new WeakMap<Queryable, { last: number; pending: boolean }>();

/**
 * Wakes the mail workers after a commit, in a statement of its own (see WAKE_MAIL_WORKERS) that nobody
 * waits for. The payment batches of an on-sale commit dozens of times a second: those of the same tenth
 * of a second share one wake-up (every NOTIFY is a transaction that queues for the same lock as the
 * reservations' notifying commits). The workers' one-second poll makes up for a wake-up that is lost.
 */
function wakeMailWorkersSoon(db: Queryable): void {
  let state = wakes.get(db);
  if (!state) {
    state = { last: 0, pending: false };
    wakes.set(db, state);
  }
  if (state.pending) return;
  const wake = (current: { last: number; pending: boolean }) => {
    current.pending = false;
    current.last = Date.now();
    executePrepared(db, 'eventry_wake_mail', WAKE_MAIL_WORKERS).catch(() => {});
  };
  const wait = state.last + WAKE_GAP_MS - Date.now();
  if (wait <= 0) {
    wake(state);
    return;
  }
  state.pending = true;
  setTimeout(wake, wait, state).unref();
}

/** The provider refused a payment attempt: the booking stays pending (the buyer may try another card). */
export async function recordPaymentFailure(tx: DbOrTx, bookingId: string, message: string): Promise<void> {
  await tx.execute(
    sql`UPDATE bookings SET failure_message = ${message}, updated_at = now() WHERE id = ${bookingId} AND status = 'pending'`,
  );
}

/** The payment can no longer happen (PaymentIntent canceled): a pending booking fails and returns its tickets. */
export async function failPendingBooking(tx: DbOrTx, bookingId: string, message: string | null): Promise<boolean> {
  const booking = await lockBookingForSettlement(tx, bookingId);
  if (booking?.status !== 'pending') return false;
  await tx.execute(
    sql`UPDATE events SET tickets_available = tickets_available + ${booking.quantity}, version = version + 1
        WHERE id = ${booking.eventId}`,
  );
  await tx.execute(
    sql`UPDATE bookings SET status = 'failed', failure_message = ${message}, updated_at = now() WHERE id = ${booking.id}`,
  );
  return true;
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

// ---------------------------------------------------------------------------
// Plugin
// ---------------------------------------------------------------------------

export const paymentsPlugin = fp(
  async function payments(app: FastifyInstance, opts: { config: AppConfig }) {
    const { config } = opts;
    const stripe = config.stripe ? createStripeGateway(config.stripe) : undefined;
    app.decorate('payments', {
      provider: stripe ? 'stripe' : 'simulated',
      publishableKey: config.stripe?.publishableKey,
      stripe,
      holdMinutes: config.holdMinutes,
      timeZone: config.timeZone,
      appUrl: config.appUrl,
      recentHolds: new RecentHolds(),
    } satisfies Payments);
  },
  { name: 'payments', dependencies: ['database'] },
);

/** Today in the app's time zone (card expiry is judged against it). */
export function paymentsToday(payments: Payments): string {
  return todayIn(payments.timeZone);
}
