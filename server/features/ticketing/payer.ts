import { Batcher, type Waiting } from '../../db/batcher';
import type { Queryable } from '../../db/client';
import type { ProviderName } from '../../domain/payments';
import {
  findBookingsForSettlement,
  type HeldBooking,
  payPendingBookings,
  payRememberedHolds,
  wakeMailWorkers,
} from './payment-repository';
import { RecentHolds } from './recent-holds';

const BATCH = 256;
/** Wake-ups of the mail workers after batched payments: at most one per this many ms. */
const WAKE_GAP_MS = 100;

type Paying = { bookingId: string; userId: string };
/** 'locked': the booking is not simply pending, or it changed meanwhile; it is settled under its lock. */
export type PayingOutcome = 'paid' | 'not-found' | 'locked';

/**
 * Accepted payments without a provider reference (the simulated processor), many at once. Payments arriving
 * while a batch runs wait for the next one (db/batcher.ts), and a batch needs no transaction: the holds this
 * process made and remembers are paid with their confirmation emails in one statement that re-checks them
 * (payRememberedHolds); the others are read, then those still pending become paid the same way
 * (payPendingBookings). One commit and one WAL flush for the whole batch: an on-sale pays at the rate its
 * buyers reserve. See docs/decisions/010-simulated-payments-in-batches.md.
 */
export class BatchedPayer {
  private readonly batcher = new Batcher<Paying, PayingOutcome>((_key, batch) => this.run(batch), {
    maxBatch: BATCH,
    inFlight: 2,
  });
  private lastWake = 0;
  private wakePending = false;

  constructor(
    private readonly pool: Queryable,
    private readonly provider: ProviderName,
    /** Holds this process made: those are paid without a read first. */
    private readonly holds: RecentHolds = new RecentHolds(0),
  ) {}

  pay(bookingId: string, userId: string): Promise<PayingOutcome> {
    return this.batcher.submit('pay', { bookingId, userId });
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
    const paidUnread = await payRememberedHolds(this.pool, remembered, this.provider);
    // A hold is remembered with its owner: only the owner's request has paid it.
    const paidKeys = new Set<string>();
    for (const hold of remembered) {
      if (!paidUnread.has(hold.id)) continue;
      paidKeys.add(`${hold.id} ${hold.userId}`);
      this.holds.forget(hold.id);
    }
    const unread = [...distinct].filter(([key]) => !paidKeys.has(key)).map(([, input]) => input);
    const seen = unread.length > 0 ? await findBookingsForSettlement(this.pool, unread) : [];
    const paid = await payPendingBookings(this.pool, seen, this.provider);
    if (paidUnread.size > 0 || paid.size > 0) this.wakeMailWorkersSoon();
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

  /**
   * Wakes the mail workers after a batch committed, in a statement nobody waits for. The payment batches of an
   * on-sale commit dozens of times a second: those of the same tenth of a second share one wake-up (every
   * NOTIFY is a transaction that queues for the same lock as the reservations' notifying commits). The
   * workers' one-second poll makes up for a wake-up that is lost.
   */
  private wakeMailWorkersSoon(): void {
    if (this.wakePending) return;
    const wake = () => {
      this.wakePending = false;
      this.lastWake = Date.now();
      wakeMailWorkers(this.pool).catch(() => {});
    };
    const wait = this.lastWake + WAKE_GAP_MS - Date.now();
    if (wait <= 0) {
      wake();
      return;
    }
    this.wakePending = true;
    setTimeout(wake, wait).unref();
  }
}
