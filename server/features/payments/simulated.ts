import {
  CARD_ERROR_MESSAGES,
  type CardErrorCode,
  passesLuhn,
  type SimulatedConfirmBody,
  TEST_CARDS,
} from '../../../contracts/bookings';
import { i18nOf } from '../../../contracts/i18n/all';
import type { CardFailure, ConfirmOutcome, PaymentProvider } from '../../domain/payments';

/** A refusal with Stripe's code and its English words, as Stripe gives them (and as the booking records them). */
function refused(code: CardErrorCode): { ok: false } & CardFailure {
  return { ok: false, code, message: i18nOf('en').t(CARD_ERROR_MESSAGES[code]) };
}

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
    return refused('incorrect_number');
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (card.expMonth < 1 || card.expMonth > 12) {
    return refused('invalid_expiry');
  }
  const [thisYear, thisMonth] = today.split('-').map(Number) as [number, number];
  if (year < thisYear || (year === thisYear && card.expMonth < thisMonth)) {
    return refused('expired_card');
  }
  if (digits === TEST_CARDS.declined) return refused('card_declined');
  if (digits === TEST_CARDS.insufficientFunds) return refused('insufficient_funds');
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
    methods: ['card'],
    start: async () => undefined,
    status: nothingThere,
    cancel: async () => {},
    refund: async () => {},
    verifyWebhook: undefined,
    eventOf: undefined,
    verifyConfirm(body, today): ConfirmOutcome {
      const decision = decideSimulatedCard(body, today);
      if (decision.ok) return { kind: 'succeeded', bookingId: body.bookingId };
      const { code, message } = decision;
      return { kind: 'attempt-failed', bookingId: body.bookingId, failure: { code, message } };
    },
  };
}
