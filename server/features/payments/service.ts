import type pg from 'pg';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { PaymentResult, SimulatedConfirmBody } from '../../../contracts/bookings';
import { todayIn } from '../../../contracts/dates';
import { isUuid } from '../../../contracts/ids';
import { messages } from '../../../contracts/messages';
import { Batcher, type Waiting } from '../../db/batcher';
import type { Db, Queryable } from '../../db/client';
import { AppError, ConflictError, NotFoundError } from '../../plugins/errors';
import {
  claimPaymentEvent,
  decideSimulatedCard,
  failPendingBooking,
  findBookingsForSettlement,
  type HeldBooking,
  lockBookingForSettlement,
  type Payments,
  payPendingBookings,
  payRememberedHolds,
  recordPaymentFailure,
  settleBookingPaid,
  settleLockedBooking,
} from '../../plugins/payments';
import { RecentHolds } from '../../plugins/recent-holds';
import { releaseLapsedHoldsOfEvent } from '../bookings/repository';
import { findBooking } from './repository';

/** The card was refused: 402 with the provider's words, shown inline under the Pay button. */
export class CardError extends AppError {
  constructor(code: string, message: string) {
    super(402, code, message);
  }
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const SIMULATED_BATCH = 256;

type Paying = { bookingId: string; userId: string };
/** 'locked': the booking is not simply pending, or it changed meanwhile; it is settled under its lock. */
type PayingOutcome = 'paid' | 'not-found' | 'locked';

/**
 * Accepted simulated payments, many at once. Payments arriving while a batch runs wait for the next one
 * (db/batcher.ts), and a batch needs no transaction: the holds this process made and remembers are paid
 * with their confirmation emails in one statement that re-checks them (payRememberedHolds); the others
 * are read, then those still pending become paid the same way (payPendingBookings). One commit and one
 * WAL flush for the whole batch: an on-sale pays at the rate its buyers reserve.
 */
export class SimulatedPayer {
  private readonly batcher = new Batcher<Paying, PayingOutcome>((_key, batch) => this.run(batch), {
    maxBatch: SIMULATED_BATCH,
    inFlight: 2,
  });

  constructor(
    private readonly pool: Queryable,
    /** Holds this process made: those are paid without a read first. */
    private readonly holds: RecentHolds = new RecentHolds(0),
  ) {}

  pay(bookingId: string, userId: string): Promise<PayingOutcome> {
    return this.batcher.submit('simulated', { bookingId, userId });
  }

  /**
   * Remembered holds first (one statement, no read); the rest, and any remembered hold that statement left
   * alone, are read and paid as pending bookings. Answers every item once all is done (a retried batch
   * starts again from the beginning; what was paid answers paid).
   */
  private async run(batch: Array<Waiting<Paying, PayingOutcome>>): Promise<never[]> {
    const distinct = new Map<string, Paying>();
    for (const { input } of batch) distinct.set(`${input.bookingId} ${input.userId}`, input);
    const remembered: HeldBooking[] = [];
    for (const input of distinct.values()) {
      const hold = this.holds.get(input.bookingId, input.userId);
      if (hold) remembered.push(hold);
    }
    const paidUnread = await payRememberedHolds(this.pool, remembered, 'simulated');
    // A hold is remembered with its owner: only the owner's request has paid it.
    const paidKeys = new Set<string>();
    for (const hold of remembered) {
      if (!paidUnread.has(hold.id)) continue;
      paidKeys.add(`${hold.id} ${hold.userId}`);
      this.holds.forget(hold.id);
    }
    const unread = [...distinct].filter(([key]) => !paidKeys.has(key)).map(([, input]) => input);
    const seen = unread.length > 0 ? await findBookingsForSettlement(this.pool, unread) : [];
    const paid = await payPendingBookings(this.pool, seen, 'simulated');
    const status = new Map(seen.map((booking) => [`${booking.id} ${booking.userId}`, booking.status]));
    for (const item of batch) {
      const key = `${item.input.bookingId} ${item.input.userId}`;
      if (paidKeys.has(key)) {
        item.resolve('paid');
        continue;
      }
      const was = status.get(key);
      if (was === undefined) item.resolve('not-found');
      else item.resolve(was === 'paid' || paid.has(item.input.bookingId) ? 'paid' : 'locked');
    }
    return [];
  }
}

/**
 * The simulated processor's confirm: the server decides from the card (Stripe's test numbers and
 * messages). A paid booking answers paid again without charging or emailing twice. An accepted card for
 * a pending booking is paid in a batch (SimulatedPayer); a declined card, and every other state, is
 * handled under the booking's row lock. A hold that is over (run out, or replaced by the buyer's newer
 * reservation) is not charged, as Stripe refuses the canceled PaymentIntent of one: 409 HOLD_ENDED, and a
 * hold that ran out gives its tickets back at once instead of at the expiry job's next run.
 */
export async function confirmSimulated(
  db: Db,
  pool: Pick<pg.Pool, 'connect'>,
  payer: SimulatedPayer,
  payments: Payments,
  userId: string,
  body: SimulatedConfirmBody,
  log: Log,
): Promise<PaymentResult> {
  if (payments.provider !== 'simulated') throw new NotFoundError('The simulated processor is not in use');
  const outcome = decideSimulatedCard(body, todayIn(payments.timeZone));
  if (outcome.ok) {
    const batched = await payer.pay(body.bookingId, userId);
    if (batched === 'paid') return { bookingId: body.bookingId, status: 'paid' };
    if (batched === 'not-found') throw new NotFoundError('Booking not found', 'BOOKING_NOT_FOUND');
  }
  const result = await db.transaction(async (tx) => {
    const booking = await lockBookingForSettlement(tx, body.bookingId, userId);
    if (!booking) throw new NotFoundError('Booking not found', 'BOOKING_NOT_FOUND');
    if (booking.status === 'paid') return { bookingId: booking.id, status: 'paid' as const };
    if (booking.status === 'refunded') {
      throw new ConflictError('BOOKING_REFUNDED', booking.failureMessage ?? messages.payment.holdExpiredRefunded);
    }
    if (booking.status !== 'pending' && booking.eventDeleted) return { eventGone: true as const };
    if (booking.status !== 'pending' || booking.holdLapsed) {
      return { ended: true as const, lapsedEventId: booking.holdLapsed ? booking.eventId : undefined };
    }
    if (booking.eventDeleted) {
      // The event was deleted while the buyer was on the payment page. This processor decides on the server,
      // so it charges nothing (Stripe, which charges in the browser, refunds instead): the hold ends here and
      // its tickets go back.
      await failPendingBooking(tx, booking.id, messages.payment.eventGone);
      return { eventGone: true as const };
    }
    if (!outcome.ok) {
      await recordPaymentFailure(tx, booking.id, outcome.message);
      return { failure: outcome };
    }
    const settled = await settleLockedBooking(tx, booking, { provider: 'simulated' });
    // The simulated processor "refunds" by not keeping the money: nothing to call.
    if (settled?.status === 'refunded') {
      return { refunded: true as const, message: settled.message ?? messages.payment.holdExpiredRefunded };
    }
    return { bookingId: booking.id, status: 'paid' as const };
  });
  if ('ended' in result) {
    if (result.lapsedEventId) {
      // A courtesy: the expiry job gives these tickets back at its next run anyway, so a failure here must
      // not turn the buyer's 409 into a 500.
      await releaseLapsedHoldsOfEvent(pool, result.lapsedEventId).catch((err: unknown) => {
        log.warn({ err, eventId: result.lapsedEventId }, 'lapsed holds not released at once; the expiry job will');
      });
    }
    throw new ConflictError('HOLD_ENDED', messages.payment.holdEnded);
  }
  if ('eventGone' in result) throw new ConflictError('EVENT_GONE', messages.payment.eventGone);
  if ('failure' in result && result.failure) throw new CardError(result.failure.code, result.failure.message);
  if ('refunded' in result) {
    throw new ConflictError('BOOKING_REFUNDED', result.message ?? messages.payment.holdExpiredRefunded);
  }
  return result;
}

const HANDLED = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.canceled']);

/**
 * What the handler reads of a signed event. A signed body of another shape (one sent by hand with the
 * secret, an API version that moved a field) is refused with a 400 that says so, instead of failing deep in
 * the handler as a 500 (Stripe retries either, and its dashboard shows the answer); the fields the handler
 * does not read may be anything.
 */
const stripeEventShape = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.looseObject({ object: z.looseObject({}) }),
});
const paymentIntentShape = z.looseObject({
  id: z.string().min(1).max(255),
  amount: z.number().int(),
  currency: z.string(),
  metadata: z.record(z.string(), z.string()).nullish(),
  last_payment_error: z.looseObject({ message: z.string().nullish() }).nullish(),
  cancellation_reason: z.string().nullish(),
});

function assertReadableEvent(event: unknown): asserts event is Stripe.Event {
  const shape = stripeEventShape.safeParse(event);
  const readable =
    shape.success && (!HANDLED.has(shape.data.type) || paymentIntentShape.safeParse(shape.data.data.object).success);
  if (!readable) throw new AppError(400, 'INVALID_EVENT', 'The Stripe event is not one this server can read');
}

/**
 * A verified Stripe event. Each event id is handled once (recorded in payment_events in the same
 * transaction as its effect); events may arrive late, twice or out of order, and a paid booking never
 * moves back.
 */
export async function handleStripeEvent(
  db: Db,
  payments: Payments,
  event: Stripe.Event,
  log: Log,
): Promise<{ duplicate: boolean }> {
  assertReadableEvent(event);
  const intent = HANDLED.has(event.type) ? (event.data.object as Stripe.PaymentIntent) : undefined;
  const metadataId = intent?.metadata?.bookingId;
  const bookingId = metadataId && isUuid(metadataId) ? metadataId : null;

  const outcome = await db.transaction(async (tx) => {
    const fresh = await claimPaymentEvent(tx, { id: event.id, type: event.type, bookingId });
    if (!fresh) return { duplicate: true, refund: undefined };
    if (!intent || !bookingId) return { duplicate: false, refund: undefined };
    const booking = await findBooking(tx, bookingId);
    if (!booking) {
      log.warn({ eventId: event.id, bookingId }, 'Stripe event for an unknown booking');
      return { duplicate: false, refund: undefined };
    }
    if (booking.paymentIntentId && booking.paymentIntentId !== intent.id) {
      log.warn({ eventId: event.id, bookingId }, 'Stripe event for another PaymentIntent of the booking');
      return { duplicate: false, refund: undefined };
    }
    if (event.type === 'payment_intent.succeeded') {
      if (intent.amount !== booking.totalPiasters || intent.currency !== 'egp') {
        log.error({ eventId: event.id, bookingId }, 'Stripe amount does not match the booking; not marking it paid');
        return { duplicate: false, refund: undefined };
      }
      const settled = await settleBookingPaid(tx, bookingId, { provider: 'stripe', paymentIntentId: intent.id });
      return { duplicate: false, refund: settled?.refund ? intent.id : undefined };
    }
    if (event.type === 'payment_intent.payment_failed') {
      await recordPaymentFailure(tx, bookingId, intent.last_payment_error?.message ?? messages.payment.unexpectedState);
    } else {
      await failPendingBooking(tx, bookingId, intent.cancellation_reason ?? null);
    }
    return { duplicate: false, refund: undefined };
  });

  if (outcome.refund && bookingId && payments.stripe) {
    try {
      await payments.stripe.refund(outcome.refund, bookingId);
      log.info({ bookingId }, 'refunded a payment that arrived after its hold lapsed');
    } catch (err) {
      log.error({ err, bookingId }, 'refund failed: the booking is marked refunded, refund it by hand in Stripe');
    }
  }
  return { duplicate: outcome.duplicate };
}
