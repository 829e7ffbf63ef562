import { describe, expect, it } from 'vitest';
import type { HeldBooking } from './payment-repository';
import { RecentHolds } from './recent-holds';

const hold = (id: string, userId = 'u1'): HeldBooking => ({
  id,
  userId,
  eventId: 'e1',
  quantity: 1,
  totalPiasters: 15_000,
  userEmail: 'buyer@example.com',
  userName: 'Buyer',
  userLanguage: null,
  title: 'Show',
  eventDate: '2026-12-24',
  startTime: '20:00:00',
  endTime: '23:00:00',
});

describe('RecentHolds', () => {
  it('finds a hold only with its owner, and forgets it on request', () => {
    const holds = new RecentHolds();
    holds.remember(hold('b1', 'owner'));
    expect(holds.get('b1', 'owner')?.id).toBe('b1');
    expect(holds.get('b1', 'intruder')).toBeUndefined();
    holds.forget('b1');
    expect(holds.get('b1', 'owner')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the oldest first', () => {
    const holds = new RecentHolds(3);
    for (const id of ['a', 'b', 'c']) holds.remember(hold(id));
    holds.remember(hold('a')); // remembered again: now the newest
    holds.remember(hold('d'));
    expect(holds.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((id) => holds.get(id, 'u1') !== undefined)).toEqual([true, false, true, true]);
  });
});
