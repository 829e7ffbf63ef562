import type pg from 'pg';
import type { Booking, MyBookings, MyHold, Ticket } from '../../../contracts/bookings';
import { todayIn, weekdayOf } from '../../../contracts/dates';
import { isUuid } from '../../../contracts/ids';
import { messages } from '../../../contracts/messages';
import { Batcher, type Waiting } from '../../db/batcher';
import type { Db } from '../../db/client';
import { AppError, ConflictError, NotFoundError } from '../../plugins/errors';
import { type Payments, settleBookingPaid } from '../../plugins/payments';
import {
  type BookingRow,
  findBookingOfUser,
  findEventsWithLapsedHolds,
  findPaidBookingsOfUser,
  findUnexpiredHold,
  type LockedEvent,
  type NewBookingRow,
  releaseHoldOfUser,
  releaseLapsedHoldsOfEvent,
  reserveBatch,
  setPaymentIntent,
} from './repository';

/**
 * Reservations. Every reservation for one event must pass through that event's row, which makes the
 * row a hot spot when an event goes on sale. Instead of one transaction per buyer queueing on the row
 * lock, this process gathers the reservations that arrive while a transaction for the event is running
 * and serves them together in the next one, a single statement (eventry_reserve_tickets, server/db/migrations/repeatable/):
 * lock the row once, release the buyers' previous holds, allocate in arrival order, one multi-row INSERT,
 * one commit, and no round trip to this process while the row is locked. Correctness does not depend on
 * the batching (the row lock, the conditional UPDATE and the CHECK do the work), so several processes
 * can batch independently against the same database.
 */

const MAX_BATCH = 256;
/** Ids that reach the database: anything else is simply not found (a 404, never a cast error's 500). */
/** Transactions per event at once: one holding the row, one queued behind it on the lock. */
const IN_FLIGHT = 2;

export interface ReserveInput {
  userId: string;
  eventId: string;
  quantity: number;
  idempotencyKey: string | undefined;
  /** The buyer as their session shows them: a new hold is remembered with it for a read-free payment. */
  buyer?: { name: string; email: string };
}

type Outcome =
  | { kind: 'created'; row: NewBookingRow; event: LockedEvent }
  | { kind: 'existing'; bookingId: string }
  | { kind: 'refused'; available: number }
  | { kind: 'not-found' }
  | { kind: 'closed' };

type Pending = Waiting<ReserveInput, Outcome>;

export class Reserver {
  /** One line per event: the reservations waiting for a transaction of that event. */
  private readonly batcher = new Batcher<ReserveInput, Outcome>((eventId, batch) => this.runBatch(eventId, batch), {
    maxBatch: MAX_BATCH,
    inFlight: IN_FLIGHT,
  });

  constructor(
    private readonly pool: pg.Pool,
    private readonly payments: Payments,
    private readonly onReleased: (released: Array<{ paymentIntentId: string | null }>) => void,
  ) {}

  reserve(input: ReserveInput): Promise<Outcome> {
    return this.batcher.submit(input.eventId, input);
  }

  /** One statement for a batch of reservations of one event. Resolves every item except the deferred ones. */
  private async runBatch(eventId: string, batch: Pending[]): Promise<Pending[]> {
    // The database function takes distinct buyers. A repeat of a buyer's request with the same
    // Idempotency-Key shares the first one's answer; any other second request waits for the next batch.
    const items: Pending[] = [];
    const followers = new Map<Pending, Pending>();
    const deferred: Pending[] = [];
    const firstOfUser = new Map<string, Pending>();
    for (const item of batch) {
      const first = firstOfUser.get(item.input.userId);
      if (!first) {
        firstOfUser.set(item.input.userId, item);
        items.push(item);
      } else if (item.input.idempotencyKey !== undefined && item.input.idempotencyKey === first.input.idempotencyKey) {
        followers.set(item, first);
      } else {
        deferred.push(item);
      }
    }

    const result = await reserveBatch(this.pool, {
      eventId,
      userIds: items.map((item) => item.input.userId),
      quantities: items.map((item) => item.input.quantity),
      keys: items.map((item) => item.input.idempotencyKey ?? null),
      holdMinutes: this.payments.holdMinutes,
      provider: this.payments.provider,
      today: todayIn(this.payments.timeZone),
    });
    const outcomes = new Map<Pending, Outcome>();
    for (const [i, item] of items.entries()) {
      if (result.status !== 'ok') {
        outcomes.set(item, { kind: result.status });
        continue;
      }
      const decided = result.items[i];
      if (!decided) throw new Error('eventry_reserve_tickets answered fewer items than it was given');
      outcomes.set(item, decided.kind === 'created' ? { ...decided, event: result.event } : decided);
    }
    for (const [item, outcome] of outcomes) item.resolve(outcome);
    for (const [item, first] of followers) {
      const outcome = outcomes.get(first) as Outcome;
      item.resolve(outcome.kind === 'created' ? { kind: 'existing', bookingId: outcome.row.id } : outcome);
    }
    if (result.status === 'ok' && result.releasedIntentIds.length > 0) {
      this.onReleased(result.releasedIntentIds.map((paymentIntentId) => ({ paymentIntentId })));
    }
    return deferred;
  }
}

// ---------------------------------------------------------------------------
// Reading bookings
// ---------------------------------------------------------------------------

function hhmm(time: string): string {
  return time.slice(0, 5);
}

type BookingFields = Pick<
  BookingRow,
  'id' | 'status' | 'quantity' | 'unitPricePiasters' | 'totalPiasters' | 'expiresAt' | 'paidAt' | 'failureMessage'
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
  const status = booking.status === 'pending' && booking.expiresAt.getTime() <= Date.now() ? 'expired' : booking.status;
  return {
    id: booking.id,
    status,
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

export interface BookingsService {
  reserve(input: ReserveInput): Promise<Booking>;
  getBooking(id: string, userId: string): Promise<Booking>;
  myBookings(userId: string): Promise<MyBookings>;
  myHold(userId: string, eventId: string): Promise<MyHold>;
  cancelHold(id: string, userId: string): Promise<Booking>;
  expireHolds(): Promise<number>;
}

/**
 * Cancels the Stripe PaymentIntents of holds that ended (replaced, expired, their event deleted). Best effort:
 * such a hold's PaymentIntent should not be payable any more; if it is paid anyway, settlement takes the
 * tickets again or refunds.
 */
export function cancelReleasedIntents(
  payments: Payments,
  log: { warn(obj: object, msg: string): void },
  released: Array<{ paymentIntentId: string | null }>,
): void {
  const stripe = payments.stripe;
  if (!stripe) return;
  for (const { paymentIntentId } of released) {
    if (paymentIntentId) {
      stripe.cancelIntent(paymentIntentId).catch((err: unknown) => log.warn({ err }, 'could not cancel intent'));
    }
  }
}

export function createBookingsService(
  db: Db,
  pool: pg.Pool,
  payments: Payments,
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void },
  /** Where reservation batches run (Database.reservationPool); `pool` when not given. */
  reservationPool: pg.Pool = pool,
): BookingsService {
  const cancelIntents = (released: Array<{ paymentIntentId: string | null }>) =>
    cancelReleasedIntents(payments, log, released);
  const reserver = new Reserver(reservationPool, payments, cancelIntents);

  /** Stripe: the booking's PaymentIntent, created on first need (the booking id is the idempotency key). */
  async function stripePayment(row: BookingRow): Promise<{ payment: Booking['payment']; row: BookingRow }> {
    const stripe = payments.stripe;
    if (!stripe || row.paymentProvider === 'simulated') return { payment: { provider: 'simulated' }, row };
    if (row.status !== 'pending' && !row.paymentIntentId) return { payment: { provider: 'stripe' }, row };
    try {
      if (!row.paymentIntentId) {
        const intent = await stripe.createIntent({ id: row.id, totalPiasters: row.totalPiasters, userId: row.userId });
        await setPaymentIntent(pool, row.id, intent.id);
        return { payment: { provider: 'stripe', clientSecret: intent.clientSecret }, row };
      }
      const intent = await stripe.retrieveIntent(row.paymentIntentId);
      if (intent.status === 'succeeded' && row.status === 'pending' && intent.bookingId === row.id) {
        // The success page got here before the webhook: settle now (the webhook will find it done).
        const settled = await db.transaction((tx) =>
          settleBookingPaid(tx, row.id, { provider: 'stripe', paymentIntentId: intent.id }),
        );
        if (settled?.refund) await stripe.refund(intent.id, row.id);
        const fresh = await findBookingOfUser(pool, row.id, row.userId);
        return { payment: { provider: 'stripe' }, row: fresh ?? row };
      }
      return {
        payment: { provider: 'stripe', ...(row.status === 'pending' ? { clientSecret: intent.clientSecret } : {}) },
        row,
      };
    } catch (err) {
      // SPEC §8: a payment-intent failure is logged only; the page shows 'Unexpected state' on Pay.
      log.error({ err, bookingId: row.id }, 'Stripe PaymentIntent call failed');
      return { payment: { provider: 'stripe' }, row };
    }
  }

  async function getBooking(id: string, userId: string): Promise<Booking> {
    if (!isUuid(id)) {
      throw new NotFoundError('Booking not found', 'BOOKING_NOT_FOUND');
    }
    const row = await findBookingOfUser(pool, id, userId);
    if (!row) throw new NotFoundError('Booking not found', 'BOOKING_NOT_FOUND');
    if (payments.provider === 'stripe') {
      const result = await stripePayment(row);
      return toBookingDto(result.row, result.row.eventId, result.row, result.payment);
    }
    return toBookingDto(row, row.eventId, row, { provider: 'simulated' });
  }

  return {
    async reserve(input) {
      const outcome = await reserver.reserve(input);
      switch (outcome.kind) {
        case 'not-found':
          throw new NotFoundError('Event not found', 'EVENT_NOT_FOUND');
        case 'closed':
          throw new ConflictError('SALES_CLOSED', 'Ticket sales for this event have ended.', { available: 0 });
        case 'refused':
          throw outcome.available === 0
            ? new ConflictError('EVENT_SOLD_OUT', messages.payment.soldOut, { available: 0 })
            : new ConflictError(
                'NOT_ENOUGH_TICKETS',
                messages.payment.notEnoughTickets.replace('{available}', String(outcome.available)),
                { available: outcome.available },
              );
        case 'existing': {
          const booking = await getBooking(outcome.bookingId, input.userId);
          if (booking.event.id !== input.eventId || booking.quantity !== input.quantity) {
            // A replay must be the same request; anything else is a client bug worth saying out loud.
            throw new AppError(
              422,
              'IDEMPOTENCY_KEY_REUSED',
              'This Idempotency-Key was already used for another reservation.',
            );
          }
          return booking;
        }
        case 'created': {
          const { row, event } = outcome;
          const dto = toBookingDto(row, event.id, event, { provider: payments.provider });
          if (payments.provider === 'simulated' && input.buyer) {
            payments.recentHolds.remember({
              id: row.id,
              userId: input.userId,
              eventId: event.id,
              quantity: row.quantity,
              totalPiasters: row.totalPiasters,
              userEmail: input.buyer.email,
              userName: input.buyer.name,
              title: event.title,
              eventDate: event.eventDate,
              startTime: event.startTime,
              endTime: event.endTime,
            });
          }
          if (payments.provider === 'stripe') {
            const full = await findBookingOfUser(pool, row.id, input.userId);
            if (full) dto.payment = (await stripePayment(full)).payment;
          }
          return dto;
        }
      }
    },

    getBooking,

    async myBookings(userId) {
      const rows = await findPaidBookingsOfUser(pool, userId, todayIn(payments.timeZone), payments.timeZone);
      const toTicket = (row: (typeof rows)[number]): Ticket => ({
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
        historyReason: row.historyReason,
      });
      return {
        tickets: rows.filter((r) => r.historyReason === null).map(toTicket),
        history: rows
          .filter((r) => r.historyReason !== null)
          .reverse()
          .map(toTicket),
      };
    },

    async myHold(userId, eventId) {
      const found = isUuid(eventId) ? await findUnexpiredHold(pool, eventId, userId) : undefined;
      if (!found) throw new NotFoundError('Event not found', 'EVENT_NOT_FOUND');
      const { hold } = found;
      return { hold: hold ? { id: hold.id, quantity: hold.quantity, expiresAt: hold.expiresAt.toISOString() } : null };
    },

    async cancelHold(id, userId) {
      const row = isUuid(id) ? await findBookingOfUser(pool, id, userId) : undefined;
      if (!row) throw new NotFoundError('Booking not found', 'BOOKING_NOT_FOUND');
      // Only a hold still on (pending, not run out) takes the event's lock: anything else answers as it is.
      if (row.status === 'pending' && row.expiresAt.getTime() > Date.now()) {
        const ended = await releaseHoldOfUser(
          pool,
          { eventId: row.eventId, bookingId: row.id, userId },
          messages.payment.holdCancelled,
        );
        if (ended === 'busy') throw new ConflictError('PAYMENT_IN_PROGRESS', messages.payment.holdBusy);
        for (const hold of ended) payments.recentHolds.forget(hold.id);
        cancelIntents(ended);
      }
      const booking = await getBooking(id, userId);
      if (booking.status === 'paid') throw new ConflictError('BOOKING_PAID', messages.payment.holdPaid);
      return booking;
    },

    async expireHolds() {
      let total = 0;
      for (let round = 0; round < 20; round++) {
        const eventIds = await findEventsWithLapsedHolds(pool, 1000);
        if (eventIds.length === 0) break;
        let expiredThisRound = 0;
        for (const eventId of eventIds) {
          const expired = await releaseLapsedHoldsOfEvent(pool, eventId);
          expiredThisRound += expired.length;
          cancelIntents(expired);
        }
        total += expiredThisRound;
        if (expiredThisRound === 0) break;
      }
      return total;
    },
  };
}
