import type pg from 'pg';
import { eventInstants } from '../../../contracts/calendar';
import { msg } from '../../../contracts/i18n/text';
import { isUuid } from '../../../contracts/ids';
import { type RefundQuote, refundDeadline, refundOf } from '../../../contracts/refunds';
import type { Db } from '../../db/client';
import type { PaymentProviders } from '../../domain/payments';
import { refundEmail } from '../../plugins/email-templates';
import { AppError, ConflictError, NotFoundError } from '../../plugins/errors';
import { mailLang } from '../../plugins/mail-language';
import {
  applyRefund,
  failRefund,
  findRefund,
  findRefundableBooking,
  findUnfinishedRefunds,
  insertRefund,
  latestRefundFailures,
  markEventCancelled,
  type RefundableBooking,
  type RefundReason,
  type RequestedRefund,
  requestRefundsOfCancelledEvents,
} from './refund-repository';
import { releaseLapsedHoldsOfEvent } from './repository';
import { storedText } from './stored-text';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Refunds of paid bookings (issue 36, decision 020): the buyer cancels some or all of their tickets while the
 * event's policy allows, the organiser refunds a booking in full, or cancels the event and every paid booking is
 * refunded. Each refund is asked for first (a `refunds` row: one in flight per booking), then carried out by the
 * provider that took the money with the refund's id as its idempotency key, then applied to the booking in one
 * transaction, once. A crash between the steps leaves a requested refund that the refunds job finishes.
 */
export function createRefunds(deps: {
  db: Db;
  pool: pg.Pool;
  providers: PaymentProviders;
  timeZone: string;
  log: Log;
  /** Ends a cancelled event's holds and cancels their payments (the booking module's). */
  endHolds: (eventId: string) => Promise<number>;
}) {
  const { db, providers, log } = deps;

  function deadlineOf(booking: Pick<RefundableBooking, 'eventDate' | 'startTime' | 'refundHoursBefore'>): Date | null {
    const { start } = eventInstants(
      { eventDate: booking.eventDate, startTime: booking.startTime, endTime: booking.startTime },
      deps.timeZone,
    );
    return refundDeadline(start, booking.refundHoursBefore);
  }

  /** What the buyer would get back for `quantity` of their booking's tickets (all that are left by default). */
  function quoteOf(booking: RefundableBooking, quantity: number | undefined): RefundQuote {
    const left = booking.quantity - booking.refundedQuantity;
    const count = quantity ?? left;
    const { refundPiasters, feePiasters } = refundOf(count * booking.unitPricePiasters, booking.cancellationFeePercent);
    const until = deadlineOf(booking);
    const allowed =
      booking.status === 'paid' &&
      !booking.eventCancelled &&
      until !== null &&
      Date.now() < until.getTime() &&
      count >= 1 &&
      count <= Math.min(left, booking.unusedTickets);
    return { quantity: count, refundPiasters, feePiasters, allowedUntil: until?.toISOString() ?? null, allowed };
  }

  async function ownBooking(bookingId: string, userId: string): Promise<RefundableBooking> {
    const booking = isUuid(bookingId) ? await findRefundableBooking(db, bookingId, userId) : undefined;
    if (!booking) throw new NotFoundError(msg('tickets.bookingNotFound'), 'BOOKING_NOT_FOUND');
    return booking;
  }

  /** Why a refund of `quantity` tickets of `booking` cannot be asked for (409), or nothing. */
  function refusal(booking: RefundableBooking, quantity: number): AppError | undefined {
    if (booking.status !== 'paid') return new ConflictError('NOT_REFUNDABLE', msg('payment.notRefundable'));
    const left = booking.quantity - booking.refundedQuantity;
    if (quantity > left) return new ConflictError('TOO_MANY_TICKETS', msg('payment.tooManyToCancel', { count: left }));
    if (quantity > booking.unusedTickets) {
      return new ConflictError('TICKETS_USED', msg('payment.ticketsUsed', { left: booking.unusedTickets }));
    }
    return undefined;
  }

  function emailFor(booking: RefundableBooking, refund: RequestedRefund) {
    const lang = mailLang(booking.userLanguage, undefined);
    return {
      kind: 'booking-refunded',
      to: booking.userEmail,
      dedupeKey: `refund:${refund.id}`,
      ...refundEmail(
        {
          name: booking.userName,
          title: booking.title,
          quantity: refund.quantity,
          amountPiasters: refund.amountPiasters,
          reason: refund.reason,
        },
        lang,
      ),
    };
  }

  /**
   * Carries out a refund asked for: the provider gives the money back (nothing to give for a zero amount or the
   * simulated processor), then the booking changes. 'failed' leaves the booking as it was, with the provider's
   * words on the refund.
   */
  async function carryOut(refundId: string): Promise<'succeeded' | 'failed' | 'done-already'> {
    const refund = await findRefund(db, refundId);
    if (refund?.status !== 'requested') return 'done-already';
    const provider = providers.get(refund.paymentProvider);
    try {
      if (refund.amountPiasters > 0 && refund.paymentProvider !== 'simulated') {
        if (!provider) throw new Error(`the payment provider ${refund.paymentProvider ?? '(none)'} is not configured`);
        if (!refund.paymentIntentId) throw new Error('the booking has no payment to refund');
        await provider.refund(refund.paymentIntentId, {
          key: refund.id,
          amountPiasters: refund.amountPiasters,
          refundedBefore: refund.refundedBefore,
        });
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.error(
        { err, refundId, bookingId: refund.bookingId },
        'refund failed at the provider: the booking stays paid',
      );
      await failRefund(db, refundId, message);
      return 'failed';
    }
    const applied = await db.transaction((tx) => applyRefund(tx, refundId, emailFor));
    if (applied) log.info({ refundId, bookingId: refund.bookingId, amount: refund.amountPiasters }, 'refunded');
    return applied ? 'succeeded' : 'done-already';
  }

  /** Asks for a refund and carries it out; the refund in piasters, or a 409/502 saying why not. */
  async function refundBooking(
    booking: RefundableBooking,
    request: { quantity: number; amountPiasters: number; feePiasters: number; reason: RefundReason; by: string | null },
  ): Promise<number> {
    const refused = refusal(booking, request.quantity);
    if (refused) throw refused;
    const asked = await insertRefund(db, {
      bookingId: booking.id,
      quantity: request.quantity,
      amountPiasters: request.amountPiasters,
      feePiasters: request.feePiasters,
      reason: request.reason,
      requestedBy: request.by,
    });
    if (!asked) throw new ConflictError('REFUND_IN_PROGRESS', msg('payment.refundInProgress'));
    const outcome = await carryOut(asked.id);
    if (outcome === 'failed') throw new AppError(502, 'REFUND_FAILED', msg('payment.refundFailed'));
    return request.amountPiasters;
  }

  return {
    async quote(bookingId: string, userId: string, quantity: number | undefined): Promise<RefundQuote> {
      return quoteOf(await ownBooking(bookingId, userId), quantity);
    },

    /** The buyer cancels `quantity` of their tickets (all that are left by default) while the policy allows. */
    async cancelByBuyer(bookingId: string, userId: string, quantity: number | undefined): Promise<number> {
      const booking = await ownBooking(bookingId, userId);
      const quote = quoteOf(booking, quantity);
      const refused = refusal(booking, quote.quantity);
      if (refused) throw refused;
      if (!quote.allowed) throw new ConflictError('REFUNDS_CLOSED', msg('payment.refundsClosed'));
      return refundBooking(booking, {
        quantity: quote.quantity,
        amountPiasters: quote.refundPiasters,
        feePiasters: quote.feePiasters,
        reason: 'buyer',
        by: userId,
      });
    },

    /** The organiser refunds what is left of a booking in full, whatever the policy. */
    async refundByOrganiser(
      bookingId: string,
      adminId: string,
    ): Promise<{ refundPiasters: number; status: 'paid' | 'refunded' }> {
      const booking = isUuid(bookingId) ? await findRefundableBooking(db, bookingId) : undefined;
      if (!booking) throw new NotFoundError(msg('tickets.bookingNotFound'), 'BOOKING_NOT_FOUND');
      const left = booking.quantity - booking.refundedQuantity;
      const refundPiasters = await refundBooking(booking, {
        quantity: left,
        amountPiasters: left * booking.unitPricePiasters,
        feePiasters: 0,
        reason: 'organiser',
        by: adminId,
      });
      const after = await findRefundableBooking(db, bookingId);
      return { refundPiasters, status: after?.status === 'refunded' ? 'refunded' : 'paid' };
    },

    /**
     * The organiser cancels the event: nothing more is sold, its holds end, and every paid booking is refunded in
     * full (asked for at once, carried out one by one; the refunds job finishes what a crash interrupts).
     */
    async cancelEvent(eventId: string, adminId: string): Promise<{ refunds: number; holdsEnded: number }> {
      const marked = isUuid(eventId) ? await markEventCancelled(db, eventId) : 'not-found';
      if (marked === 'not-found') throw new NotFoundError(msg('admin.eventNotFound'), 'EVENT_NOT_FOUND');
      const holdsEnded = await deps.endHolds(eventId);
      const asked = await requestRefundsOfCancelledEvents(db, eventId, adminId);
      for (const refund of asked) await carryOut(refund.id);
      return { refunds: asked.length, holdsEnded };
    },

    /**
     * The refunds job: refunds asked for and never finished (a crash, a provider that did not answer), and paid
     * bookings of events cancelled in the last week that no refund has covered yet. How many were carried out.
     */
    async finishRefunds(olderThanSeconds = 60, limit = 100): Promise<number> {
      await requestRefundsOfCancelledEvents(db, null, null);
      const unfinished = await findUnfinishedRefunds(db, olderThanSeconds, limit);
      let done = 0;
      for (const refund of unfinished) if ((await carryOut(refund.id)) === 'succeeded') done++;
      return done;
    },

    refundFailures: (eventId: string) => latestRefundFailures(db, eventId),

    /** When a booking of this event may still be cancelled by its buyer, from the event's policy. */
    deadlineOf,
  };
}

/** Ends every hold of a cancelled event (endForCancelledEvent) in batches; how many. */
export async function endHoldsOfCancelledEvent(
  pool: pg.Pool,
  eventId: string,
): Promise<Awaited<ReturnType<typeof releaseLapsedHoldsOfEvent>>> {
  const ended: Awaited<ReturnType<typeof releaseLapsedHoldsOfEvent>> = [];
  for (;;) {
    const batch = await releaseLapsedHoldsOfEvent(pool, eventId, 1000, {
      failureMessage: storedText('payment.eventCancelled'),
      ofCancelledEvent: true,
    });
    ended.push(...batch);
    if (batch.length < 1000) return ended;
  }
}
