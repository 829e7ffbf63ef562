import { describe, expect, it } from 'vitest';
import { decideSimulatedCard } from './simulated';

describe('the simulated card processor', () => {
  it('decides like Stripe test mode', () => {
    const today = '2026-06-15';
    expect(decideSimulatedCard({ cardNumber: '4242 4242 4242 4242', expMonth: 6, expYear: 26 }, today)).toEqual({
      ok: true,
    });
    expect(decideSimulatedCard({ cardNumber: '4000000000000002', expMonth: 1, expYear: 2030 }, today)).toMatchObject({
      message: 'Your card was declined.',
    });
    expect(decideSimulatedCard({ cardNumber: '4000000000009995', expMonth: 1, expYear: 30 }, today)).toMatchObject({
      message: 'Your card has insufficient funds.',
    });
    expect(decideSimulatedCard({ cardNumber: '4242424242424241', expMonth: 1, expYear: 30 }, today)).toMatchObject({
      message: 'Your card number is invalid.',
    });
    expect(decideSimulatedCard({ cardNumber: '4242424242424242', expMonth: 5, expYear: 26 }, today)).toMatchObject({
      message: "Your card's expiration date is in the past.",
    });
  });
});
