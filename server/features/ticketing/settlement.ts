import type { MessageKey } from '../../../contracts/i18n/types';
import type { DbOrTx } from '../../db/client';
import type { ProviderName } from '../../domain/payments';
import {
  type LockedBooking,
  lockBookingForSettlement,
  markPaid,
  markRefunded,
  retakeTickets,
  returnTicketsOfDeletedEvent,
} from './payment-repository';
import { allows, apply } from './state-machine';
import { storedText } from './stored-text';

/**
 * Settlement: what money the provider took does to a booking. Every confirmation path (the simulated
 * processor's confirm, a Stripe webhook, the payment page asking Stripe) ends here, under the booking's row
 * lock: exactly one paid transition and one confirmation email, or a refund.
 */

export interface SettledBooking {
  id: string;
  status: string;
  /** The payment must be given back (the caller does it after commit). */
  refund: boolean;
  paymentIntentId: string | null;
  /** Why the payment was refunded, for the buyer. */
  message?: string;
}

/** What a refunded buyer reads, by why their hold had ended (the payment page decides the same way). */
export function refundMessage(booking: Pick<LockedBooking, 'endedReason' | 'eventDeleted'>): MessageKey {
  if (booking.endedReason === 'cancelled_by_buyer') return 'payment.holdCancelledRefunded';
  if (booking.endedReason === 'event_deleted' || booking.eventDeleted) return 'payment.eventCancelledRefunded';
  return 'payment.holdExpiredRefunded';
}

/**
 * Records that the booking's payment succeeded. Idempotent: a paid (or refunded) booking stays so and no second
 * email is queued. A booking whose hold already ended takes its tickets again if they are still there
 * (payLate); otherwise, or when the buyer cancelled it or its event was deleted, it becomes refunded and the
 * caller refunds the payment. Runs inside the caller's transaction, on a booking it locked.
 */
export async function settleLockedBooking(
  tx: DbOrTx,
  booking: LockedBooking,
  payment: { provider: ProviderName; paymentIntentId?: string },
): Promise<SettledBooking> {
  const paymentIntentId = payment.paymentIntentId ?? booking.paymentIntentId;
  const done = { id: booking.id, status: booking.status, refund: false, paymentIntentId };
  if (booking.status === 'paid' || booking.status === 'refunded') return done;
  const recorded = { provider: payment.provider, paymentIntentId };
  const refund = async (transition: 'refundLate' | 'refundForDeletedEvent'): Promise<SettledBooking> => {
    const message = storedText(refundMessage(booking));
    await markRefunded(tx, booking.id, transition, recorded, message);
    return { ...done, ...apply(transition, booking), refund: true, message };
  };
  if (booking.status === 'pending') {
    // The event was deleted (or archived) while the buyer paid: nobody may buy it now. Its held tickets go back
    // to the event, so capacity = available + held + sold still holds, and the money goes back too. (The flag is
    // read with the booking: a deletion committed after that read comes after this payment, which then keeps its
    // tickets like any booking paid before its event was deleted.)
    if (booking.eventDeleted && (await returnTicketsOfDeletedEvent(tx, booking))) {
      return refund('refundForDeletedEvent');
    }
    await markPaid(tx, booking, 'pay', recorded);
    return { ...done, ...apply('pay', booking) };
  }
  // The hold ended before the money arrived: take the tickets again if it may and they are still there.
  if (allows('payLate', booking) && (await retakeTickets(tx, booking))) {
    await markPaid(tx, booking, 'payLate', recorded);
    return { ...done, ...apply('payLate', booking) };
  }
  return refund('refundLate');
}

/** settleLockedBooking for a booking it locks first; undefined when there is no such booking. */
export async function settleBookingPaid(
  tx: DbOrTx,
  bookingId: string,
  payment: { provider: ProviderName; paymentIntentId?: string },
): Promise<SettledBooking | undefined> {
  const booking = await lockBookingForSettlement(tx, bookingId);
  return booking ? settleLockedBooking(tx, booking, payment) : undefined;
}
