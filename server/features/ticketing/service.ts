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
import type {
  ConfirmOutcome,
  PaymentMethod,
  PaymentProvider,
  PaymentProviders,
  ProviderName,
  VerifiedEvent,
} from '../../domain/payments';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../plugins/errors';
import { BatchedPayer } from './payer';
import { claimPaymentEvent, endLockedHold, lockBookingForSettlement, recordPaymentFailure } from './payment-repository';
import { RecentHolds } from './recent-holds';
import { createRefunds, endHoldsOfCancelledEvent } from './refunds';
import {
  type BookingRow,
  findAwaitingCashOfUser,
  findBookingByPayment,
  findBookingOfUser,
  findBuyer,
  findEventsWithLapsedHolds,
  findPaidBookingsOfUser,
  findPaymentOfBooking,
  findQuietPayments,
  findReplacedPaymentsToAsk,
  findUnexpiredHold,
  type LockedEvent,
  markReplacedPaymentAsked,
  type PaymentOfEndedHold,
  releaseHoldOfUser,
  releaseLapsedHoldsOfEvent,
  rememberPhone,
  setPaymentIntent,
  switchPayment,
} from './repository';
import { type ReserveInput, Reserver } from './reserver';
import { refundMessage, settleBookingPaid, settleLockedBooking } from './settlement';
import { storedText } from './stored-text';
import { createWaitlist } from './waitlist';

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
  providers: PaymentProviders;
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
  const { db, pool, providers, log } = deps;
  /** The provider a reservation starts at once (Stripe, or the simulated processor); none with Paymob alone. */
  const primary = providers.primary;
  const recentHolds = new RecentHolds();
  /**
   * Cancels the provider's payments of holds that ended (replaced, expired, cancelled, their event deleted).
   * Best effort: such a payment should not be payable any more; if it is paid anyway, settlement takes the
   * tickets again or refunds.
   */
  const cancelPayments = (ended: PaymentOfEndedHold[]) => {
    for (const { paymentProvider, paymentIntentId } of ended) {
      const provider = providers.get(paymentProvider);
      if (paymentIntentId && provider) {
        provider.cancel(paymentIntentId).catch((err: unknown) => log.warn({ err }, 'could not cancel a payment'));
      }
    }
  };
  const reserver = new Reserver(
    deps.reservationPool ?? pool,
    { holdMinutes: deps.holdMinutes, provider: primary?.name ?? null, timeZone: deps.timeZone },
    cancelPayments,
  );
  const payer = new BatchedPayer(pool, 'simulated', recentHolds);
  const refunds = createRefunds({
    db,
    pool,
    providers,
    timeZone: deps.timeZone,
    log,
    endHolds: async (eventId) => {
      const ended = await endHoldsOfCancelledEvent(pool, eventId);
      for (const hold of ended) recentHolds.forget(hold.id);
      cancelPayments(ended);
      return ended.length;
    },
  });

  const waitlist = createWaitlist({
    pool,
    timeZone: deps.timeZone,
    holdsEnded: (ended) => {
      for (const hold of ended) recentHolds.forget(hold.id);
      cancelPayments(ended);
    },
  });

  /** Gives back money a settlement decided to refund; the booking already says so. */
  async function refund(provider: PaymentProvider, reference: string, bookingId: string, why: string): Promise<void> {
    try {
      // A payment given back whole is keyed by itself: a booking paid twice has each payment refunded once.
      await provider.refund(reference, { key: reference });
      log.info({ bookingId, provider: provider.name }, why);
    } catch (err) {
      log.error({ err, bookingId }, 'refund failed: the booking is marked refunded, refund it by hand at the provider');
    }
  }

  /**
   * The payment part of a booking as the browser needs it, read from the provider (nothing changes). A failed
   * call is logged only: the page then shows 'Unexpected state' on Pay.
   */
  async function paymentOf(row: BookingRow & { buyerPhone?: string | null }): Promise<Booking['payment']> {
    const base: Booking['payment'] = {
      provider: row.paymentProvider,
      method: row.paymentMethod,
      cashReference: row.status === 'pending' ? row.cashReference : null,
      phone: row.buyerPhone ?? null,
    };
    const provider = providers.get(row.paymentProvider);
    // Only Stripe's form needs something read back (its client secret).
    if (provider?.name !== 'stripe' || row.status !== 'pending' || !row.paymentIntentId) return base;
    try {
      const payment = await provider.status(row.paymentIntentId);
      return { ...base, clientSecret: payment.clientSecret };
    } catch (err) {
      log.error({ err, bookingId: row.id }, 'payment provider call failed');
      return base;
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

  /**
   * Starts the primary provider's payment of a pending booking that has none of it yet (its reservation could not
   * reach Stripe, or the buyer comes back to Stripe from Paymob); what the browser needs to pay it.
   */
  async function startPayment(
    booking: { id: string; totalPiasters: number; userId: string },
    current?: PaymentOfEndedHold,
  ): Promise<Booking['payment']> {
    const name = primary?.name ?? null;
    const none = { provider: name, method: null, cashReference: null };
    if (!primary) return none;
    try {
      const started = await primary.start(booking);
      if (!started) return none;
      if (current?.paymentProvider && current.paymentProvider !== primary.name) {
        const ended = await switchPayment(
          pool,
          { bookingId: booking.id, userId: booking.userId },
          { provider: primary.name, reference: started.reference, method: 'card', cashReference: null, payBy: null },
        );
        if (ended) cancelPayments([ended]);
      } else {
        await setPaymentIntent(pool, booking.id, started.reference);
      }
      return { provider: primary.name, method: 'card', cashReference: null, clientSecret: started.clientSecret };
    } catch (err) {
      log.error({ err, bookingId: booking.id }, 'payment provider call failed');
      return none;
    }
  }

  /**
   * The buyer chose a provider's method on the payment page (Paymob's card, wallet or kiosk cash): its payment is
   * started and becomes the hold's, replacing (and cancelling) the one it had. Kiosk cash keeps the hold until
   * `cashHours` from now, never past the event's start. 409 when the hold is not one that may be paid.
   */
  async function startChosenPayment(
    request: {
      bookingId: string;
      userId: string;
      provider: PaymentProvider;
      method: PaymentMethod;
      /** A mobile number typed on the payment page (kept for next time); else the one kept. */
      phone: string | undefined;
      cashHours: number;
    },
    requestLog: Log,
  ): Promise<{ checkoutUrl: string } | { reference: string; amountPiasters: number; expiresAt: string }> {
    const row = await findOwn(request.bookingId, request.userId);
    if (row.status === 'paid') throw new ConflictError('BOOKING_PAID', msg('payment.holdPaid'));
    if (row.status !== 'pending' || row.expiresAt.getTime() <= Date.now()) {
      throw new ConflictError('HOLD_ENDED', msg('payment.holdEnded'));
    }
    if (row.isDeleted) throw new ConflictError('EVENT_GONE', msg('payment.eventGone'));
    if (!request.provider.methods.includes(request.method)) {
      throw new AppError(422, 'METHOD_UNAVAILABLE', msg('payment.methodUnavailable'));
    }
    const buyer = await findBuyer(pool, request.userId);
    const phone = request.phone ?? buyer?.phone;
    if (!buyer || !phone)
      throw new ValidationError({ phone: msg('payment.phoneRequired') }, msg('payment.phoneRequired'));
    if (request.phone) await rememberPhone(pool, request.userId, request.phone);
    const cash = request.method === 'cash';
    const { start } = eventInstants(row, deps.timeZone);
    const payBy = cash
      ? new Date(Math.min(Date.now() + request.cashHours * 3_600_000, start.getTime()))
      : row.expiresAt;
    if (payBy.getTime() <= Date.now()) throw new ConflictError('HOLD_ENDED', msg('payment.holdEnded'));
    let started: Awaited<ReturnType<PaymentProvider['start']>>;
    try {
      started = await request.provider.start({
        id: row.id,
        totalPiasters: row.totalPiasters,
        userId: row.userId,
        method: request.method,
        buyer: { name: buyer.name, email: buyer.email, phone },
        item: { title: row.title, quantity: row.quantity, unitPricePiasters: row.unitPricePiasters },
        payBy,
      });
    } catch (err) {
      requestLog.error({ err, bookingId: row.id }, 'payment provider call failed');
      throw new AppError(502, 'PROVIDER_UNAVAILABLE', msg('payment.providerUnavailable'));
    }
    if (!started || (cash && !started.cashReference) || (!cash && !started.checkoutUrl)) {
      requestLog.error({ bookingId: row.id }, 'the payment provider answered without what the buyer needs');
      throw new AppError(502, 'PROVIDER_UNAVAILABLE', msg('payment.providerUnavailable'));
    }
    const previous = await switchPayment(
      pool,
      { bookingId: row.id, userId: request.userId },
      {
        provider: request.provider.name,
        reference: started.reference,
        method: request.method,
        cashReference: started.cashReference ?? null,
        payBy: cash ? payBy : null,
      },
    ).catch((error: unknown) => {
      // The provider answered with a payment another booking already has: its ids cannot be trusted right now.
      if ((error as { code?: string }).code !== '23505') throw error;
      requestLog.error({ bookingId: row.id, reference: started.reference }, 'the provider reused a payment id');
      throw new AppError(502, 'PROVIDER_UNAVAILABLE', msg('payment.providerUnavailable'));
    });
    // The hold ended (or was paid) while the provider answered: what it started is never paid for this hold.
    if (!previous) throw new ConflictError('HOLD_ENDED', msg('payment.holdEnded'));
    if (previous.paymentIntentId && previous.paymentIntentId !== started.reference) cancelPayments([previous]);
    if (cash) {
      return {
        reference: started.cashReference as string,
        amountPiasters: row.totalPiasters,
        expiresAt: payBy.toISOString(),
      };
    }
    return { checkoutUrl: started.checkoutUrl as string };
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
      await settleLockedBooking(tx, booking, { provider: 'simulated' });
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
   * Money taken by a payment that is not the booking's current one is the booking's only if the provider says so:
   * a callback's signature may not cover which booking it names (Paymob signs the order, not our reference), so a
   * signed event of one booking's payment, replayed naming another, must not pay that other. 400 when the
   * provider says the payment is another booking's; 502 when it cannot be asked (the provider sends it again).
   */
  async function checkPaymentIsTheBookings(
    provider: PaymentProvider,
    bookingId: string,
    reference: string,
    requestLog: Log,
  ): Promise<void> {
    const current = await findPaymentOfBooking(pool, bookingId);
    if (!current || current.paymentIntentId === reference) return;
    let payment: Awaited<ReturnType<PaymentProvider['status']>>;
    try {
      payment = await provider.status(reference);
    } catch (err) {
      requestLog.error({ err, bookingId }, 'payment provider call failed');
      throw new AppError(502, 'PROVIDER_UNAVAILABLE', msg('payment.providerUnavailable'));
    }
    if (payment.bookingId !== bookingId) {
      requestLog.warn({ bookingId, reference }, 'a payment event naming a booking the payment is not for: refused');
      throw new AppError(400, 'PAYMENT_NOT_OF_BOOKING', msg('payment.paymentNotOfBooking'));
    }
  }

  /**
   * A verified event of `provider`. Each event id is handled once (recorded in payment_events in the same
   * transaction as its effect); events may arrive late, twice or out of order, and a paid booking never
   * moves back. Money taken by a payment that is not the booking's own (an earlier attempt, another provider) pays
   * a booking still waiting for it, and is refunded when the booking was paid already: nobody pays twice.
   */
  async function settleEvent(
    provider: PaymentProvider,
    event: VerifiedEvent,
    requestLog: Log,
  ): Promise<{ duplicate: boolean }> {
    const { outcome } = event;
    if (outcome?.kind === 'succeeded' && outcome.reference) {
      await checkPaymentIsTheBookings(provider, outcome.bookingId, outcome.reference, requestLog);
    }
    const handled = await db.transaction(async (tx) => {
      const fresh = await claimPaymentEvent(tx, { id: event.id, type: event.type, bookingId: event.bookingId });
      if (!fresh) return { duplicate: true };
      if (!outcome) return { duplicate: false };
      const booking = await lockBookingForSettlement(tx, outcome.bookingId);
      if (!booking) {
        requestLog.warn({ eventId: event.id, bookingId: outcome.bookingId }, 'payment event for an unknown booking');
        return { duplicate: false };
      }
      const otherPayment = Boolean(
        outcome.reference && booking.paymentIntentId && booking.paymentIntentId !== outcome.reference,
      );
      if (outcome.kind === 'succeeded') {
        const currency = outcome.currency?.toLowerCase();
        if (outcome.amountPiasters !== booking.totalPiasters || currency !== 'egp') {
          requestLog.error(
            { eventId: event.id, bookingId: booking.id },
            'the amount paid does not match the booking; not marking it paid',
          );
          // Thrown inside the transaction: the event is not recorded as handled, and the provider hears a 400.
          throw new AppError(400, 'AMOUNT_MISMATCH', msg('payment.amountMismatch'));
        }
        if (otherPayment && (booking.status === 'paid' || booking.status === 'refunded')) {
          requestLog.warn(
            { eventId: event.id, bookingId: booking.id },
            'a second payment of a booking already settled: refunding it',
          );
          return { duplicate: false, refund: outcome.reference };
        }
        // The reference that took the money becomes the booking's (settlement records it).
        const settled = await settleLockedBooking(tx, booking, {
          provider: provider.name,
          paymentIntentId: outcome.reference,
        });
        return { duplicate: false, refund: settled.refund ? outcome.reference : undefined };
      }
      if (otherPayment) {
        requestLog.warn(
          { eventId: event.id, bookingId: booking.id },
          'payment event for another payment of the booking',
        );
        return { duplicate: false };
      }
      if (outcome.kind === 'attempt-failed') {
        await recordPaymentFailure(tx, booking.id, outcome.failure.message);
      } else if (booking.status === 'pending') {
        await endLockedHold(tx, booking, 'cancelPayment', outcome.message);
      }
      return { duplicate: false };
    });
    if ('refund' in handled && handled.refund && outcome) {
      await refund(provider, handled.refund, outcome.bookingId, 'refunded a payment the booking could not keep');
    }
    return { duplicate: handled.duplicate };
  }

  /**
   * Asks the booking's provider about its payment and settles money it took that no webhook has told of yet (the
   * success page may come first; a callback may never come). Changes nothing when the provider has nothing to
   * tell or cannot be reached (logged).
   */
  async function reconcile(
    row: Pick<BookingRow, 'id' | 'status' | 'paymentProvider' | 'paymentIntentId' | 'totalPiasters'>,
    requestLog: Log,
  ): Promise<void> {
    const provider = providers.get(row.paymentProvider);
    if (!provider || provider.name === 'simulated' || !row.paymentIntentId) return;
    if (row.status === 'paid' || row.status === 'refunded') return;
    try {
      const payment = await provider.status(row.paymentIntentId);
      if (payment.status !== 'succeeded' || payment.bookingId !== row.id) return;
      if (payment.amountPiasters !== row.totalPiasters || (payment.currency ?? 'egp') !== 'egp') {
        requestLog.error({ bookingId: row.id }, 'the amount paid does not match the booking; not marking it paid');
        return;
      }
      const settled = await db.transaction((tx) =>
        settleBookingPaid(tx, row.id, { provider: provider.name, paymentIntentId: payment.reference }),
      );
      if (settled?.refund) await refund(provider, payment.reference, row.id, 'refunded a payment made too late');
    } catch (err) {
      requestLog.error({ err, bookingId: row.id }, 'payment provider call failed');
    }
  }

  /**
   * A payment the hold had before the buyer chose another way to pay, now that it can no longer be paid: money it
   * took is settled as its callback would have settled it (the same event, handled once with the callback: it pays
   * the booking still waiting, or is refunded). Asked about once; again on the next run when the provider could not
   * be reached.
   */
  async function reconcileReplaced(
    payment: { provider: ProviderName; reference: string; bookingId: string },
    requestLog: Log,
  ): Promise<void> {
    const provider = providers.get(payment.provider);
    if (!provider?.eventOf) return;
    try {
      const event = await provider.eventOf(payment.reference);
      if (event?.outcome?.kind === 'succeeded' && event.outcome.bookingId === payment.bookingId) {
        await settleEvent(provider, event, requestLog);
      }
      await markReplacedPaymentAsked(pool, payment.provider, payment.reference);
    } catch (err) {
      requestLog.error({ err, bookingId: payment.bookingId }, 'payment provider call failed');
    }
  }

  return {
    /** The providers configured (the routes and tests settle their events with them). */
    providers,
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
          if (primary?.name !== 'stripe') {
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
            const payment = { provider: primary?.name ?? null, method: null, cashReference: null };
            return toBookingDto(row, event.id, event, payment);
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
    async syncPayment(id: string, userId: string, restart?: ProviderName): Promise<Booking> {
      const row = await findOwn(id, userId);
      if (row.status === 'pending' && row.expiresAt.getTime() > Date.now() && primary?.name === 'stripe') {
        // Stripe's form needs a PaymentIntent: the reservation could not start one, or the buyer comes back to it.
        const current = { paymentProvider: row.paymentProvider, paymentIntentId: row.paymentIntentId };
        if (!row.paymentIntentId || (restart === 'stripe' && row.paymentProvider !== 'stripe')) {
          return toBookingDto(row, row.eventId, row, await startPayment(row, current));
        }
      }
      await reconcile(row, log);
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
          unitPricePiasters: row.unitPricePiasters,
          refundedQuantity: row.refundedQuantity,
          refundedPiasters: row.refundedPiasters,
          refundableUntil:
            row.historyReason === null && row.status === 'paid' && row.refundedQuantity < row.quantity
              ? (refunds.deadlineOf(row)?.toISOString() ?? null)
              : null,
          cancellationFeePercent: row.cancellationFeePercent,
        };
      };
      const awaiting = await findAwaitingCashOfUser(pool, userId);
      return {
        tickets: rows.filter((r) => r.historyReason === null).map(toTicket),
        history: rows
          .filter((r) => r.historyReason !== null)
          .reverse()
          .map(toTicket),
        awaiting: awaiting.map((row) => ({
          bookingId: row.id,
          eventId: row.eventId,
          title: row.title,
          eventDate: row.eventDate,
          startTime: hhmm(row.startTime),
          endTime: hhmm(row.endTime),
          quantity: row.quantity,
          totalPiasters: row.totalPiasters,
          cashReference: row.cashReference as string,
          expiresAt: row.expiresAt.toISOString(),
        })),
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
    startChosenPayment,
    refunds,
    waitlist,

    /**
     * The buyer is back from a provider's checkout for its payment `reference`: the booking is read back from the
     * provider and settled if the money was taken (the callback may not have come yet). The booking as it is then,
     * or undefined when no booking has that payment.
     */
    async returnFromProvider(
      provider: PaymentProvider,
      reference: string,
      requestLog: Log,
    ): Promise<{ id: string; eventId: string; status: Booking['status'] } | undefined> {
      const row = await findBookingByPayment(pool, provider.name, reference);
      if (!row) return undefined;
      await reconcile(row, requestLog);
      const after = (await findBookingByPayment(pool, provider.name, reference)) ?? row;
      return { id: after.id, eventId: after.eventId, status: after.status };
    },

    /**
     * The reconciliation job: Paymob bookings whose callback has not come after a while, still held or ended
     * within the last day, are read back from the provider and settled. How many were asked about.
     */
    async reconcileQuiet(olderThanSeconds = 60, limit = 50): Promise<number> {
      const rows = await findQuietPayments(pool, olderThanSeconds, limit);
      for (const row of rows) await reconcile(row, log);
      const replaced = await findReplacedPaymentsToAsk(pool, limit);
      for (const payment of replaced) await reconcileReplaced(payment, log);
      return rows.length + replaced.length;
    },
  };
}

export type TicketingService = ReturnType<typeof createTicketingService>;
