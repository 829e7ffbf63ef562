import { describe, expect, it } from 'vitest';
import { ticketsLeftFor } from './tickets-left';

describe('ticketsLeftFor', () => {
  const now = Date.parse('2026-11-26T01:00:00Z');
  const hold = { id: '5b0e8a4e-0b7c-4a57-9d8e-1f2a3b4c5d6e', quantity: 1, expiresAt: '2026-11-26T01:05:00.000Z' };

  it("adds the buyer's own unexpired hold to a count read since the page opened", () => {
    expect(ticketsLeftFor(1, hold, { countIsFresh: true, now })).toEqual({ available: 2, held: 1 });
  });

  it('is the count alone without a hold', () => {
    expect(ticketsLeftFor(7, null, { countIsFresh: true, now })).toEqual({ available: 7, held: 0 });
    expect(ticketsLeftFor(7, undefined, { countIsFresh: true, now })).toEqual({ available: 7, held: 0 });
  });

  it('does not add the hold to a count cached from before the page opened (it may predate the hold)', () => {
    expect(ticketsLeftFor(2, hold, { countIsFresh: false, now })).toEqual({ available: 2, held: 0 });
  });

  it('does not add a hold that has run out on the server clock, released or not', () => {
    const end = Date.parse(hold.expiresAt);
    expect(ticketsLeftFor(2, hold, { countIsFresh: true, now: end })).toEqual({ available: 2, held: 0 });
    expect(ticketsLeftFor(2, hold, { countIsFresh: true, now: end + 1_000 })).toEqual({ available: 2, held: 0 });
    expect(ticketsLeftFor(2, hold, { countIsFresh: true, now: end - 1 })).toEqual({ available: 3, held: 1 });
  });
});
