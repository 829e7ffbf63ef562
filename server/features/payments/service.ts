import type Stripe from 'stripe';
import type { PaymentResult, SimulatedConfirmBody } from '../../../contracts/bookings';
import { todayIn } from '../../../contracts/dates';
import { messages } from '../../../contracts/messages';
import type { Db } from '../../db/client';
import { AppError, ConflictError, NotFoundError } from '../../plugins/errors';
import {
  claimPaymentEvent,
  decideSimulatedCard,
  failPendingBooking,
  lockBookingForSettlement,
  type Payments,
  recordPaymentFailure,
  settleBookingPaid,
  settleLockedBooking,
} from '../../plugins/payments';
import { findBooking } from './repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/**
 * The simulated processor's confirm: the server decides from the card (Stripe's test numbers and
 * messages). A paid booking answers paid again without charging or emailing twice.
 */
export async function confirmSimulated(
  db: Db,
  payments: Payments,
  userId: string,
  body: SimulatedConfirmBody,
): Promise<PaymentResult> {
  if (payments.provider !== 'simulated') throw new NotFoundError('The simulated processor is not in use');
  const result = await db.transaction(async (tx) => {
    const booking = await lockBookingForSettlement(tx, body.bookingId, userId);
    if (!booking) throw new NotFoundError('Booking not found', 'BOOKING_NOT_FOUND');
    if (booking.status === 'paid') return { bookingId: booking.id, status: 'paid' as const };
    if (booking.status === 'refunded') {
      throw new ConflictError('BOOKING_REFUNDED', booking.failureMessage ?? messages.payment.holdExpiredRefunded);
    }
    const outcome = decideSimulatedCard(body, todayIn(payments.timeZone));
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
  if ('failure' in result && result.failure) throw new CardError(result.failure.code, result.failure.message);
  if ('refunded' in result) {
    throw new ConflictError('BOOKING_REFUNDED', result.message ?? messages.payment.holdExpiredRefunded);
  }
  return result;
}

const HANDLED = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.canceled']);

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
  const intent = HANDLED.has(event.type) ? (event.data.object as Stripe.PaymentIntent) : undefined;
  const metadataId = intent?.metadata?.bookingId;
  const bookingId = metadataId && UUID.test(metadataId) ? metadataId : null;

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
