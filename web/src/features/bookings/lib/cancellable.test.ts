import { describe, expect, it } from 'vitest';
import { cancellableTickets } from './cancellable';

describe('cancellableTickets', () => {
  const deadline = '2026-12-03T17:30:00.000Z';
  const before = Date.parse(deadline) - 60_000;

  it('is every ticket not given back yet while the deadline is ahead', () => {
    expect(cancellableTickets({ quantity: 3, refundedQuantity: 0, refundableUntil: deadline }, before)).toBe(3);
    expect(cancellableTickets({ quantity: 3, refundedQuantity: 2, refundableUntil: deadline }, before)).toBe(1);
  });

  it('is none once the deadline has come', () => {
    const at = Date.parse(deadline);
    expect(cancellableTickets({ quantity: 3, refundedQuantity: 0, refundableUntil: deadline }, at)).toBe(0);
    expect(cancellableTickets({ quantity: 3, refundedQuantity: 0, refundableUntil: deadline }, at + 1)).toBe(0);
  });

  it('is none without a deadline (no refunds) or with every ticket given back', () => {
    expect(cancellableTickets({ quantity: 2, refundedQuantity: 0, refundableUntil: null }, before)).toBe(0);
    expect(cancellableTickets({ quantity: 2, refundedQuantity: 2, refundableUntil: deadline }, before)).toBe(0);
  });
});
