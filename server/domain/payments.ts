import type { SimulatedConfirmBody } from '../../contracts/bookings';

/**
 * What the booking module (features/ticketing) and the payment providers (features/payments) agree on. A
 * provider speaks to the outside service and says what it verified; the booking module decides what that
 * does to a booking (settlement). Neither feature imports the other: app.ts hands the provider to both.
 */

export type ProviderName = 'stripe' | 'simulated' | 'paymob';
/** How a buyer pays with a provider (bookings.payment_method); Stripe and the simulated processor take cards. */
export type PaymentMethod = 'card' | 'wallet' | 'cash';

/** What a provider is told of the booking whose payment it starts. */
export interface PaymentStart {
  id: string;
  totalPiasters: number;
  userId: string;
  /** Paymob: the method the buyer chose, who they are (it needs a name, email and phone) and what they buy. */
  method?: PaymentMethod;
  buyer?: { name: string; email: string; phone: string };
  item?: { title: string; quantity: number; unitPricePiasters: number };
  /** The last moment the payment may be made (Paymob's intention expires then). */
  payBy?: Date;
}

/** A card error as the provider words it (shown inline under the Pay button). */
export interface CardFailure {
  code: 'card_declined' | 'insufficient_funds' | 'incorrect_number' | 'expired_card' | 'invalid_expiry';
  message: string;
}

/** A payment as the provider has it (Stripe: a PaymentIntent). */
export interface ProviderPayment {
  /** The provider's id of the payment, kept on the booking (bookings.payment_intent_id). */
  reference: string;
  /** The provider's own status word ('succeeded', 'requires_payment_method', 'canceled', …). */
  status: string;
  /** What the browser needs to pay it (Stripe's client secret). */
  clientSecret: string | undefined;
  /** The booking the payment was started for, as the provider recorded it. */
  bookingId: string | undefined;
  amountPiasters: number;
  /** The provider's words for the last attempt it refused, if any. */
  lastErrorMessage: string | undefined;
  /** The currency the provider recorded, lower case ('egp'), when it says. */
  currency?: string;
  /** Paymob: the page on the provider's site where the buyer pays. */
  checkoutUrl?: string;
  /** Paymob's kiosk cash: the bill reference the buyer pays against. */
  cashReference?: string;
}

export interface RefundRequest {
  /** The refund's own id (or the booking's, for a payment given back whole): the provider's idempotency key. */
  key: string;
  amountPiasters?: number;
  refundedBefore?: number;
}

/** What a provider verified about a booking's payment, from a signed webhook or from a confirm call. */
export type PaymentOutcome =
  | { kind: 'succeeded'; bookingId: string; reference?: string; amountPiasters?: number; currency?: string }
  | { kind: 'attempt-failed'; bookingId: string; reference?: string; failure: CardFailure | { message: string } }
  | { kind: 'canceled'; bookingId: string; reference: string; message: string | null };

/** What a confirm call can verify: the money was taken, or this attempt was refused. */
export type ConfirmOutcome = Extract<PaymentOutcome, { kind: 'succeeded' | 'attempt-failed' }>;

/** A verified webhook event: handled once by its id; `outcome` when it says something about a booking. */
export interface VerifiedEvent {
  id: string;
  type: string;
  bookingId: string | null;
  outcome: PaymentOutcome | undefined;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** What the web app needs to load the provider's payment form. */
  readonly publishableKey: string | undefined;
  /** The methods it takes (Paymob: those whose integration is configured). */
  readonly methods: readonly PaymentMethod[];
  /** Starts a booking's payment; undefined when the provider needs nothing started (simulated). */
  start(booking: PaymentStart): Promise<ProviderPayment | undefined>;
  /** Reads a payment as the provider has it now. */
  status(reference: string): Promise<ProviderPayment>;
  /** The payment may no longer be made (its hold ended). */
  cancel(reference: string): Promise<void>;
  /**
   * Gives money back, once however often it is asked with the same `key`: all of the payment, or `amountPiasters`
   * of it when given (`refundedBefore`: what earlier refunds of the payment gave back).
   */
  refund(reference: string, request: RefundRequest): Promise<void>;
  /**
   * Verifies a webhook's signature (Stripe: a header; Paymob: the `hmac` query parameter) over the body and reads
   * it. Absent when the provider sends none (or it
   * is not configured); throws an AppError (400) for a forged, stale or unreadable event.
   */
  readonly verifyWebhook: ((rawBody: Buffer, signature: string) => VerifiedEvent) | undefined;
  /**
   * The event its webhook sends (or sent) for the payment as it is now, read back from the provider, with the same
   * id: a callback that never came, fetched by the reconciliation job, and handled once with the real one. Absent
   * where it is not needed: Stripe cancels a replaced payment and sends its events again for days.
   */
  readonly eventOf: ((reference: string) => Promise<VerifiedEvent | undefined>) | undefined;
  /** Decides a payment confirmed from the browser (the simulated processor); absent for real providers. */
  readonly verifyConfirm: ((body: SimulatedConfirmBody, today: string) => ConfirmOutcome) | undefined;
}

/**
 * Every provider configured. A reservation starts the primary one's payment at once (Stripe when configured,
 * else the simulated processor when it is on); Paymob's is started when the buyer chooses it on the payment page.
 * A booking's own provider (bookings.payment_provider) reads, cancels and refunds its payment.
 */
export interface PaymentProviders {
  readonly primary: PaymentProvider | undefined;
  readonly all: readonly PaymentProvider[];
  get(name: ProviderName | null | undefined): PaymentProvider | undefined;
}

export function paymentProviders(all: readonly PaymentProvider[]): PaymentProviders {
  const byName = new Map(all.map((p) => [p.name, p]));
  return {
    primary: byName.get('stripe') ?? byName.get('simulated'),
    all,
    get: (name) => (name ? byName.get(name) : undefined),
  };
}
