import { describe, expect, it } from 'vitest';
import type { PaymentChoice } from '../../../../../contracts/bookings';
import { wallClockIn } from '../../../../../contracts/wall-clock';
import { choiceLabelKey, defaultChoice } from './payment-choices';
import { localMobile } from './phone';

const paymobCard: PaymentChoice = { provider: 'paymob', method: 'card' };
const paymobWallet: PaymentChoice = { provider: 'paymob', method: 'wallet' };
const paymobCash: PaymentChoice = { provider: 'paymob', method: 'cash' };
const simulatedCard: PaymentChoice = { provider: 'simulated', method: 'card' };
const choices = [paymobCard, paymobWallet, paymobCash, simulatedCard];

describe('defaultChoice', () => {
  it("starts at the booking's own payment when it is offered", () => {
    expect(defaultChoice(choices, { provider: 'paymob', method: 'cash' })).toEqual(paymobCash);
  });

  it('starts at the provider a reservation started at once, which has no method yet', () => {
    expect(defaultChoice(choices, { provider: 'simulated', method: null })).toEqual(simulatedCard);
  });

  it('starts at the first choice when the booking has no payment, or one no longer offered', () => {
    expect(defaultChoice(choices, { provider: null, method: null })).toEqual(paymobCard);
    expect(defaultChoice(choices, { provider: 'stripe', method: 'card' })).toEqual(paymobCard);
  });

  it('has nothing to start at when nothing is offered', () => {
    expect(defaultChoice([], { provider: null, method: null })).toBeUndefined();
  });
});

describe('choiceLabelKey', () => {
  it("names Paymob's methods one by one and the card processors by their own names", () => {
    expect(choices.map(choiceLabelKey)).toEqual([
      'payment.methodPaymobCard',
      'payment.methodPaymobWallet',
      'payment.methodPaymobCash',
      'payment.methodSimulated',
    ]);
    expect(choiceLabelKey({ provider: 'stripe', method: 'card' })).toBe('payment.methodStripe');
  });
});

describe('wallClockIn', () => {
  it("reads an instant on the app's wall clock, across midnight", () => {
    expect(wallClockIn('2026-12-05T17:30:00.000Z', 'Africa/Cairo')).toEqual({ date: '2026-12-05', time: '19:30' });
    expect(wallClockIn('2026-12-05T22:15:00.000Z', 'Africa/Cairo')).toEqual({ date: '2026-12-06', time: '00:15' });
  });
});

describe('localMobile', () => {
  it('writes a kept number as it is typed in Egypt', () => {
    expect(localMobile('+201012345678')).toBe('01012345678');
    expect(localMobile(null)).toBe('');
    expect(localMobile('0020 101 234 5678')).toBe('0020 101 234 5678');
  });
});
