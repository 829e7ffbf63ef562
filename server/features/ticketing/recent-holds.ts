import type { HeldBooking } from './payment-repository';

/**
 * What this process told buyers about the holds it just made: the booking, its event and its buyer, as
 * the confirmation email shows them. Paying such a hold needs no read first (payRememberedHolds): the
 * paying statement itself checks that the booking is still pending and that every remembered field is
 * still true, so a stale or missing entry only means the usual read. Only a hint, never the truth: it
 * is bounded (the oldest entries go first) and private to the process.
 */
export class RecentHolds {
  private readonly holds = new Map<string, HeldBooking>();

  constructor(private readonly maxEntries = 10_000) {}

  remember(hold: HeldBooking): void {
    this.holds.delete(hold.id);
    this.holds.set(hold.id, hold);
    if (this.holds.size > this.maxEntries) {
      const oldest = this.holds.keys().next().value;
      if (oldest !== undefined) this.holds.delete(oldest);
    }
  }

  /** The remembered hold of this booking, if it is this user's. */
  get(bookingId: string, userId: string): HeldBooking | undefined {
    const hold = this.holds.get(bookingId);
    return hold?.userId === userId ? hold : undefined;
  }

  forget(bookingId: string): void {
    this.holds.delete(bookingId);
  }

  get size(): number {
    return this.holds.size;
  }
}
