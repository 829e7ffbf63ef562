import { passesLuhn, type SimulatedConfirmBody, TEST_CARDS } from '../../../contracts/bookings';
import { messages } from '../../../contracts/messages';
import type { CardFailure, ConfirmOutcome, PaymentProvider } from '../../domain/payments';

/**
 * The simulated processor's decision for a card, reproducing Stripe's test cards and messages:
 * 4242… succeeds, 4000…0002 is declined, 4000…9995 has insufficient funds, any other Luhn-valid number
 * succeeds, a Luhn failure is an invalid number, a past expiry is expired.
 */
export function decideSimulatedCard(
  card: Pick<SimulatedConfirmBody, 'cardNumber' | 'expMonth' | 'expYear'>,
  today: string,
): { ok: true } | ({ ok: false } & CardFailure) {
  const digits = card.cardNumber.replace(/\s+/g, '');
  if (digits.length < 12 || digits.length > 19 || !passesLuhn(digits)) {
    return { ok: false, code: 'incorrect_number', message: messages.payment.invalidNumber };
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (card.expMonth < 1 || card.expMonth > 12) {
    return { ok: false, code: 'invalid_expiry', message: messages.payment.invalidExpiry };
  }
  const [thisYear, thisMonth] = today.split('-').map(Number) as [number, number];
  if (year < thisYear || (year === thisYear && card.expMonth < thisMonth)) {
    return { ok: false, code: 'expired_card', message: messages.payment.expiredCard };
  }
  if (digits === TEST_CARDS.declined)
    return { ok: false, code: 'card_declined', message: messages.payment.cardDeclined };
  if (digits === TEST_CARDS.insufficientFunds) {
    return { ok: false, code: 'insufficient_funds', message: messages.payment.insufficientFunds };
  }
  return { ok: true };
}

/**
 * The built-in processor used when no real provider is configured: it behaves like Stripe's test mode, and
 * the server decides each card when the browser confirms. It holds no money, so there is nothing to start,
 * read, cancel or give back.
 */
export function createSimulatedProvider(): PaymentProvider {
  const nothingThere = (reference: string) => Promise.reject(new Error(`no simulated payment ${reference}`));
  return {
    name: 'simulated',
    publishableKey: undefined,
    start: async () => undefined,
    status: nothingThere,
    cancel: async () => {},
    refund: async () => {},
    verifyWebhook: undefined,
    verifyConfirm(body, today): ConfirmOutcome {
      const decision = decideSimulatedCard(body, today);
      if (decision.ok) return { kind: 'succeeded', bookingId: body.bookingId };
      const { code, message } = decision;
      return { kind: 'attempt-failed', bookingId: body.bookingId, failure: { code, message } };
    },
  };
}
