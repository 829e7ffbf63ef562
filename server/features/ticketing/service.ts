import type pg from 'pg';
import {
  type Booking,
  CARD_ERROR_MESSAGES,
  isCardErrorCode,
  type MyBookings,
  type MyHold,
  type PaymentResult,
  type Ticket,
} from '../../../contracts/bookings';
import { eventInstants } from '../../../contracts/calendar';
import { todayIn, weekdayOf } from '../../../contracts/dates';
import { msg } from '../../../contracts/i18n/text';
import { isUuid } from '../../../contracts/ids';
import type { Db } from '../../db/client';
import { hhmm } from '../../domain/events';
import type { ConfirmOutcome, PaymentProvider, VerifiedEvent } from '../../domain/payments';
import { AppError, ConflictError, NotFoundError } from '../../plugins/errors';
import { BatchedPayer } from './payer';
import { claimPaymentEvent, endLockedHold, lockBookingForSettlement, recordPaymentFailure } from './payment-repository';
import { RecentHolds } from './recent-holds';
import {
  type BookingRow,
  findBookingOfUser,
  findEventsWithLapsedHolds,
  findPaidBookingsOfUser,
  findUnexpiredHold,
  type LockedEvent,
  releaseHoldOfUser,
  releaseLapsedHoldsOfEvent,
  setPaymentIntent,
} from './repository';
import { type ReserveInput, Reserver } from './reserver';
import { refundMessage, settleBookingPaid, settleLockedBooking } from './settlement';
import { storedText } from './stored-text';

/**
 * The card was refused: 402, shown inline under the Pay button. A code the pages know (CARD_ERROR_MESSAGES) is
 * said in the request's language; any other refusal in the provider's own words.
 */
export class CardError extends AppError {
  constructor(code: string, providerMessage: string) {
    super(402, code, isCardErrorCode(code) ? CARD_ERROR_MESSAGES[code] : providerMessage);
  }
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Holds ended per statement when an event is deleted. */
const DELETED_HOLDS_BATCH = 1000;

export interface TicketingDeps {
  db: Db;
  pool: pg.Pool;
  /** Where reservation batches run (Database.reservationPool); `pool` when not given. */
  reservationPool?: pg.Pool;
  provider: PaymentProvider;
  holdMinutes: number;
  timeZone: string;
  log: Log;
}

type BookingFields = Pick<
  BookingRow,
  | 'id'
  | 'status'
  | 'endedReason'
  | 'quantity'
  | 'unitPricePiasters'
  | 'totalPiasters'
  | 'expiresAt'
  | 'paidAt'
  | 'failureMessage'
>;
type EventFields = Pick<
  LockedEvent,
  'title' | 'imageUrl' | 'eventDate' | 'startTime' | 'endTime' | 'pricePiasters' | 'isDeleted'
>;

/** The API's booking from its fields and its event's (a booking read back, or one just created by a batch). */
function toBookingDto(
  booking: BookingFields,
  eventId: string,
  event: EventFields,
  payment: Booking['payment'],
): Booking {
  // A hold past its time is over, whether or not the expiry job (every few seconds) has released it yet.
  const lapsed = booking.status === 'pending' && booking.expiresAt.getTime() <= Date.now();
  const status = lapsed ? 'expired' : booking.status;
  return {
    id: booking.id,
    status,
    endedReason: lapsed ? 'expired' : booking.endedReason,
    quantity: booking.quantity,
    unitPricePiasters: booking.unitPricePiasters,
    totalPiasters: booking.totalPiasters,
    expiresAt: booking.expiresAt.toISOString(),
    paidAt: booking.paidAt ? booking.paidAt.toISOString() : null,
    // A hold that ran out ended for that reason, not for the last card error it may have recorded.
    failureMessage: status === 'expired' ? null : booking.failureMessage,
    event: {
      id: eventId,
      title: event.title,
      imageUrl: event.imageUrl,
      eventDate: event.eventDate,
      startTime: hhmm(event.startTime),
      endTime: hhmm(event.endTime),
      pricePiasters: event.pricePiasters,
      isDeleted: event.isDeleted,
    },
    payment,
  };
}

/**
 * The booking module's service: every change of a booking's state goes through it (state-machine.ts), and
 * the routes of bookings and payments, the admin's event deletion and the jobs call nothing else.
 */
export function createTicketingService(deps: TicketingDeps) {
  const { db, pool, provider, log } = deps;
  const recentHolds = new RecentHolds();
  /**
   * Cancels the provider's payments of holds that ended (replaced, expired, cancelled, their event deleted).
   * Best effort: such a payment should not be payable any more; if it is paid anyway, settlement takes the
   * tickets again or refunds.
   */
  const cancelPayments = (ended: Array<{ paymentIntentId: string | null }>) => {
    for (const { paymentIntentId } of ended) {
      if (paymentIntentId) {
        provider.cancel(paymentIntentId).catch((err: unknown) => log.warn({ err }, 'could not cancel a payment'));
      }
    }
  };
  const reserver = new Reserver(
    deps.reservationPool ?? pool,
    { holdMinutes: deps.holdMinutes, provider: provider.name, timeZone: deps.timeZone },
    cancelPayments,
  );
  const payer = new BatchedPayer(pool, provider.name, recentHolds);

  /** Gives back money a settlement decided to refund; the booking already says so. */
  async function refund(reference: string, bookingId: string, why: string): Promise<void> {
    try {
      await provider.refund(reference, bookingId);
      log.info({ bookingId }, why);
    } catch (err) {
      log.error({ err, bookingId }, 'refund failed: the booking is marked refunded, refund it by hand at the provider');
    }
  }

  /**
   * The payment part of a booking as the browser needs it, read from the provider (nothing changes). A failed
   * call is logged only: the page then shows 'Unexpected state' on Pay.
   */
  async function paymentOf(row: BookingRow): Promise<Booking['payment']> {
    if (provider.name === 'simulated' || row.paymentProvider === 'simulated') return { provider: 'simulated' };
    if (row.status !== 'pending' || !row.paymentIntentId) return { provider: provider.name };
    try {
      const payment = await provider.status(row.paymentIntentId);
      return { provider: provider.name, clientSecret: payment.clientSecret };
    } catch (err) {
      log.error({ err, bookingId: row.id }, 'payment provider call failed');
      return { provider: provider.name };
    }
  }

  async function findOwn(id: string, userId: string): Promise<BookingRow> {
    const row = isUuid(id) ? await findBookingOfUser(pool, id, userId) : undefined;
    if (!row) throw new NotFoundError(msg('tickets.bookingNotFound'), 'BOOKING_NOT_FOUND');
    return row;
  }

  async function getBooking(id: string, userId: string): Promise<Booking> {
    const row = await findOwn(id, userId);
    return toBookingDto(row, row.eventId, row, await paymentOf(row));
  }

  /** Starts the provider's payment of a pending booking that has none; what the browser needs to pay it. */
  async function startPayment(booking: { id: string; totalPiasters: number; userId: string }) {
    try {
      const started = await provider.start(booking);
      if (!started) return { provider: provider.name };
      await setPaymentIntent(pool, booking.id, started.reference);
      return { provider: provider.name, clientSecret: started.clientSecret };
    } catch (err) {
      log.error({ err, bookingId: booking.id }, 'payment provider call failed');
      return { provider: provider.name };
    }
  }

  /** A booking of `userId` that a payment moved to paid, answered as the confirm call answers. */
  async function settleConfirmed(userId: string, outcome: ConfirmOutcome, requestLog: Log): Promise<PaymentResult> {
    const { bookingId } = outcome;
    if (outcome.kind === 'succeeded') {
      const batched = await payer.pay(bookingId, userId);
      if (batched === 'paid') return { bookingId, status: 'paid' };
      if (batched === 'not-found') throw new NotFoundError(msg('tickets.bookingNotFound'), 'BOOKING_NOT_FOUND');
    }
    const result = await db.transaction(async (tx) => {
      const booking = await lockBookingForSettlement(tx, bookingId, userId);
      if (!booking) throw new NotFoundError(msg('tickets.bookingNotFound'), 'BOOKING_NOT_FOUND');
      if (booking.status === 'paid') return { bookingId: booking.id, status: 'paid' as const };
      if (booking.status === 'refunded') throw new ConflictError('BOOKING_REFUNDED', refundMessage(booking));
      if (booking.status !== 'pending' && booking.eventDeleted) return { eventGone: true as const };
      if (booking.status !== 'pending' || booking.holdLapsed) {
        return { ended: true as const, lapsedEventId: booking.holdLapsed ? booking.eventId : undefined };
      }
      if (booking.eventDeleted) {
        // The event was deleted while the buyer was on the payment page. A processor that decides on the server
        // charges nothing (Stripe, which charges in the browser, refunds instead): the hold ends here and its
        // tickets go back.
        await endLockedHold(tx, booking, 'endForDeletedEvent', storedText('payment.eventGone'));
        return { eventGone: true as const };
      }
      if (outcome.kind !== 'succeeded') {
        await recordPaymentFailure(tx, booking.id, outcome.failure.message);
        return { failure: outcome.failure };
      }
      await settleLockedBooking(tx, booking, { provider: provider.name });
      return { bookingId: booking.id, status: 'paid' as const };
    });
    if ('ended' in result) {
      if (result.lapsedEventId) {
        // A courtesy: the expiry job gives these tickets back at its next run anyway, so a failure here must
        // not turn the buyer's 409 into a 500.
        await releaseLapsedHoldsOfEvent(pool, result.lapsedEventId).catch((err: unknown) => {
          requestLog.warn(
            { err, eventId: result.lapsedEventId },
            'lapsed holds not released at once; the expiry job will',
          );
        });
      }
      throw new ConflictError('HOLD_ENDED', msg('payment.holdEnded'));
    }
    if ('eventGone' in result) throw new ConflictError('EVENT_GONE', msg('payment.eventGone'));
    if ('failure' in result && result.failure) {
      const { failure } = result;
      throw new CardError('code' in failure ? failure.code : 'card_declined', failure.message);
    }
    return { bookingId, status: 'paid' };
  }

  /**
   * A verified provider event. Each event id is handled once (recorded in payment_events in the same
   * transaction as its effect); events may arrive late, twice or out of order, and a paid booking never
   * moves back.
   */
  async function settleEvent(event: VerifiedEvent, requestLog: Log): Promise<{ duplicate: boolean }> {
    const { outcome } = event;
    const handled = await db.transaction(async (tx) => {
      const fresh = await claimPaymentEvent(tx, { id: event.id, type: event.type, bookingId: event.bookingId });
      if (!fresh) return { duplicate: true };
      if (!outcome) return { duplicate: false };
      const booking = await lockBookingForSettlement(tx, outcome.bookingId);
      if (!booking) {
        requestLog.warn({ eventId: event.id, bookingId: outcome.bookingId }, 'payment event for an unknown booking');
        return { duplicate: false };
      }
      if (booking.paymentIntentId && outcome.reference && booking.paymentIntentId !== outcome.reference) {
        requestLog.warn(
          { eventId: event.id, bookingId: booking.id },
          'payment event for another payment of the booking',
        );
        return { duplicate: false };
      }
      if (outcome.kind === 'succeeded') {
        const currency = outcome.currency?.toLowerCase();
        if (outcome.amountPiasters !== booking.totalPiasters || currency !== 'egp') {
          requestLog.error(
            { eventId: event.id, bookingId: booking.id },
            'the amount paid does not match the booking; not marking it paid',
          );
          return { duplicate: false };
        }
        const settled = await settleLockedBooking(tx, booking, {
          provider: provider.name,
          paymentIntentId: outcome.reference,
        });
        return { duplicate: false, refund: settled.refund ? outcome.reference : undefined };
      }
      if (outcome.kind === 'attempt-failed') {
        await recordPaymentFailure(tx, booking.id, outcome.failure.message);
      } else if (booking.status === 'pending') {
        await endLockedHold(tx, booking, 'cancelPayment', outcome.message);
      }
      return { duplicate: false };
    });
    if ('refund' in handled && handled.refund && outcome) {
      await refund(handled.refund, outcome.bookingId, 'refunded a payment that arrived after its hold ended');
    }
    return { duplicate: handled.duplicate };
  }

  return {
    /** Holds this process made (paid without a read first); exposed for diagnostics and tests. */
    recentHolds,

    async reserve(input: ReserveInput): Promise<Booking> {
      const outcome = await reserver.reserve(input);
      switch (outcome.kind) {
        case 'not-found':
          throw new NotFoundError(msg('payment.eventNotFound'), 'EVENT_NOT_FOUND');
        case 'closed':
          throw new ConflictError('SALES_CLOSED', msg('payment.salesClosed'), { available: 0 });
        case 'refused':
          throw outcome.available === 0
            ? new ConflictError('EVENT_SOLD_OUT', msg('payment.soldOut'), { available: 0 })
            : new ConflictError(
                'NOT_ENOUGH_TICKETS',
                msg('payment.notEnoughTickets', { available: outcome.available }),
                { available: outcome.available },
              );
        case 'existing': {
          const booking = await getBooking(outcome.bookingId, input.userId);
          if (booking.event.id !== input.eventId || booking.quantity !== input.quantity) {
            // A replay must be the same request; anything else is a client bug worth saying out loud.
            throw new AppError(422, 'IDEMPOTENCY_KEY_REUSED', msg('payment.idempotencyKeyReused'));
          }
          return booking;
        }
        case 'created': {
          const { row, event } = outcome;
          if (provider.name === 'simulated') {
            if (input.buyer) {
              recentHolds.remember({
                id: row.id,
                userId: input.userId,
                eventId: event.id,
                quantity: row.quantity,
                totalPiasters: row.totalPiasters,
                userEmail: input.buyer.email,
                userName: input.buyer.name,
                userLanguage: input.buyer.language,
                title: event.title,
                eventDate: event.eventDate,
                startTime: event.startTime,
                endTime: event.endTime,
              });
            }
            return toBookingDto(row, event.id, event, { provider: 'simulated' });
          }
          return toBookingDto(row, event.id, event, await startPayment(row));
        }
      }
    },

    /** The caller's booking as it is: reading it changes nothing. */
    getBooking,

    /**
     * Starts the booking's payment with the provider, or brings it up to date: the payment is started on first
     * need (its reservation could not reach the provider), and money the provider already took is settled (the
     * success page may come before the webhook). Answers the booking.
     */
    async syncPayment(id: string, userId: string): Promise<Booking> {
      const row = await findOwn(id, userId);
      if (provider.name !== 'simulated' && row.paymentProvider !== 'simulated' && row.status === 'pending') {
        if (!row.paymentIntentId) {
          return toBookingDto(row, row.eventId, row, await startPayment(row));
        }
        try {
          const payment = await provider.status(row.paymentIntentId);
          if (payment.status === 'succeeded' && payment.bookingId === row.id) {
            const settled = await db.transaction((tx) =>
              settleBookingPaid(tx, row.id, { provider: provider.name, paymentIntentId: payment.reference }),
            );
            if (settled?.refund) await refund(payment.reference, row.id, 'refunded a payment made too late');
          }
        } catch (err) {
          log.error({ err, bookingId: row.id }, 'payment provider call failed');
        }
      }
      return getBooking(id, userId);
    },

    async myBookings(userId: string): Promise<MyBookings> {
      const rows = await findPaidBookingsOfUser(pool, userId, todayIn(deps.timeZone), deps.timeZone);
      const toTicket = (row: (typeof rows)[number]): Ticket => {
        const { start, end } = eventInstants(row, deps.timeZone);
        return {
          id: row.id,
          eventId: row.eventId,
          title: row.title,
          imageUrl: row.imageUrl,
          eventDate: row.eventDate,
          weekday: weekdayOf(row.eventDate),
          startTime: hhmm(row.startTime),
          endTime: hhmm(row.endTime),
          quantity: row.quantity,
          totalPiasters: row.totalPiasters,
          paidAt: row.paidAt ? row.paidAt.toISOString() : null,
          location: row.location,
          startsAt: start.toISOString(),
          endsAt: end.toISOString(),
          historyReason: row.historyReason,
        };
      };
      return {
        tickets: rows.filter((r) => r.historyReason === null).map(toTicket),
        history: rows
          .filter((r) => r.historyReason !== null)
          .reverse()
          .map(toTicket),
      };
    },

    async myHold(userId: string, eventId: string): Promise<MyHold> {
      const found = isUuid(eventId) ? await findUnexpiredHold(pool, eventId, userId) : undefined;
      if (!found) throw new NotFoundError(msg('payment.eventNotFound'), 'EVENT_NOT_FOUND');
      const { hold } = found;
      return { hold: hold ? { id: hold.id, quantity: hold.quantity, expiresAt: hold.expiresAt.toISOString() } : null };
    },

    /** The buyer lets their hold go (cancelHold); 409 once paid or while a payment of it is being settled. */
    async cancelHold(id: string, userId: string): Promise<Booking> {
      const row = await findOwn(id, userId);
      // Only a hold still on (pending, not run out) takes the event's lock: anything else answers as it is.
      if (row.status === 'pending' && row.expiresAt.getTime() > Date.now()) {
        const ended = await releaseHoldOfUser(
          pool,
          { eventId: row.eventId, bookingId: row.id, userId },
          storedText('payment.holdCancelled'),
        );
        if (ended === 'busy') throw new ConflictError('PAYMENT_IN_PROGRESS', msg('payment.holdBusy'));
        for (const hold of ended) recentHolds.forget(hold.id);
        cancelPayments(ended);
      }
      const booking = await getBooking(id, userId);
      if (booking.status === 'paid') throw new ConflictError('BOOKING_PAID', msg('payment.holdPaid'));
      return booking;
    },

    /** The expiry job: every lapsed hold ends (expire) and gives its tickets back. How many ended. */
    async expireHolds(): Promise<number> {
      let total = 0;
      for (let round = 0; round < 20; round++) {
        const eventIds = await findEventsWithLapsedHolds(pool, 1000);
        if (eventIds.length === 0) break;
        let expiredThisRound = 0;
        for (const eventId of eventIds) {
          const expired = await releaseLapsedHoldsOfEvent(pool, eventId);
          expiredThisRound += expired.length;
          cancelPayments(expired);
        }
        total += expiredThisRound;
        if (expiredThisRound === 0) break;
      }
      return total;
    },

    /**
     * An event was deleted: its holds end at once (endForDeletedEvent) and give their tickets back, and their
     * provider payments are cancelled. Best effort: a hold left pending here is refused at payment (EVENT_GONE)
     * or refunded, and the expiry job ends it in time.
     */
    async endHoldsOfDeletedEvent(eventId: string, requestLog: Log): Promise<void> {
      try {
        for (;;) {
          const ended = await releaseLapsedHoldsOfEvent(pool, eventId, DELETED_HOLDS_BATCH, {
            failureMessage: storedText('payment.eventGone'),
            ofDeletedEvent: true,
          });
          cancelPayments(ended);
          if (ended.length < DELETED_HOLDS_BATCH) return;
        }
      } catch (err) {
        requestLog.warn({ err, eventId }, 'the holds of a deleted event were not ended at once; the expiry job will');
      }
    },

    settleConfirmed,
    settleEvent,
  };
}

export type TicketingService = ReturnType<typeof createTicketingService>;
