import type pg from 'pg';
import { todayIn } from '../../../contracts/dates';
import { Batcher, type Waiting } from '../../db/batcher';
import type { ProviderName } from '../../domain/payments';
import { type LockedEvent, type NewBookingRow, type PaymentOfEndedHold, reserveBatch } from './repository';

/**
 * Reservations. Every reservation for one event must pass through that event's row, which makes the
 * row a hot spot when an event goes on sale. Instead of one transaction per buyer queueing on the row
 * lock, this process gathers the reservations that arrive while a transaction for the event is running
 * and serves them together in the next one, a single statement (eventry_reserve_tickets, sql/):
 * lock the row once, release the buyers' previous holds, allocate in arrival order, one multi-row INSERT,
 * one commit, and no round trip to this process while the row is locked. Correctness does not depend on
 * the batching (the row lock, the conditional UPDATE and the CHECK do the work), so several processes
 * can batch independently against the same database.
 */

const MAX_BATCH = 256;
/** Transactions per event at once: one holding the row, one queued behind it on the lock. */
const IN_FLIGHT = 2;

export interface ReserveInput {
  userId: string;
  eventId: string;
  quantity: number;
  idempotencyKey: string | undefined;
  /** The buyer as their session shows them: a new hold is remembered with it for a read-free payment. */
  buyer?: { name: string; email: string; language: string | null };
}

export type Outcome =
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
    private readonly settings: { holdMinutes: number; provider: ProviderName | null; timeZone: string },
    private readonly onReleased: (released: PaymentOfEndedHold[]) => void,
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
      holdMinutes: this.settings.holdMinutes,
      provider: this.settings.provider,
      today: todayIn(this.settings.timeZone),
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
    if (result.status === 'ok' && result.released.length > 0) {
      this.onReleased(result.released);
    }
    return deferred;
  }
}
