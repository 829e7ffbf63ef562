import type { Booking, PaymentChoice } from '../../../../../contracts/bookings';
import type { MessageKey } from '../../../../../contracts/i18n/types';

const PAYMOB_LABELS = {
  card: 'payment.methodPaymobCard',
  wallet: 'payment.methodPaymobWallet',
  cash: 'payment.methodPaymobCash',
} as const satisfies Record<PaymentChoice['method'], MessageKey>;

/** A choice as one word, for a radio's value and a test's hold on it ('paymob-cash'). */
export function choiceId(choice: PaymentChoice): string {
  return `${choice.provider}-${choice.method}`;
}

export function sameChoice(a: PaymentChoice, b: PaymentChoice): boolean {
  return a.provider === b.provider && a.method === b.method;
}

/** What the buyer reads for a way to pay: Stripe and the simulated processor take cards only. */
export function choiceLabelKey(choice: PaymentChoice): MessageKey {
  if (choice.provider === 'stripe') return 'payment.methodStripe';
  if (choice.provider === 'simulated') return 'payment.methodSimulated';
  return PAYMOB_LABELS[choice.method];
}

/**
 * The way to pay the page starts at: the booking's own payment when it is offered (a buyer back at the page finds
 * what they chose; a reservation started at once has its provider and no method yet), else the first offered.
 */
export function defaultChoice(
  choices: readonly PaymentChoice[],
  payment: Pick<Booking['payment'], 'provider' | 'method'>,
): PaymentChoice | undefined {
  return (
    choices.find((choice) => choice.provider === payment.provider && choice.method === payment.method) ??
    (payment.method === null ? choices.find((choice) => choice.provider === payment.provider) : undefined) ??
    choices[0]
  );
}
