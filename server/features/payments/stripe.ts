import Stripe from 'stripe';
import { z } from 'zod';
import { CURRENCY } from '../../../contracts/constants';
import { i18nOf } from '../../../contracts/i18n/all';
import { msg } from '../../../contracts/i18n/text';
import { isUuid } from '../../../contracts/ids';
import type { PaymentOutcome, PaymentProvider, ProviderPayment, VerifiedEvent } from '../../domain/payments';
import type { AppConfig } from '../../env';
import { AppError } from '../../plugins/errors';

/** The events this adapter reads; any other verified event is acknowledged and recorded, nothing more. */
const HANDLED = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.canceled']);

/**
 * What the adapter reads of a signed event. A signed body of another shape (one sent by hand with the secret,
 * an API version that moved a field) is refused with a 400 that says so, instead of failing deep in the
 * handler as a 500 (Stripe retries either, and its dashboard shows the answer); the fields it does not read
 * may be anything.
 */
const stripeEventShape = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.looseObject({ object: z.looseObject({}) }),
});
const paymentIntentShape = z.looseObject({
  id: z.string().min(1).max(255),
  amount: z.number().int(),
  currency: z.string(),
  metadata: z.record(z.string(), z.string()).nullish(),
  last_payment_error: z.looseObject({ message: z.string().nullish() }).nullish(),
  cancellation_reason: z.string().nullish(),
});
type IntentFields = z.infer<typeof paymentIntentShape>;

function summarise(intent: Stripe.PaymentIntent): ProviderPayment {
  return {
    reference: intent.id,
    status: intent.status,
    clientSecret: intent.client_secret ?? undefined,
    bookingId: intent.metadata?.bookingId,
    amountPiasters: intent.amount,
    lastErrorMessage: intent.last_payment_error?.message ?? undefined,
  };
}

/** What a verified PaymentIntent event says about its booking (the booking id is the intent's metadata). */
function outcomeOf(type: string, intent: IntentFields, bookingId: string): PaymentOutcome {
  if (type === 'payment_intent.succeeded') {
    return {
      kind: 'succeeded',
      bookingId,
      reference: intent.id,
      amountPiasters: intent.amount,
      currency: intent.currency,
    };
  }
  if (type === 'payment_intent.payment_failed') {
    const message = intent.last_payment_error?.message ?? i18nOf('en').t('payment.unexpectedState');
    return { kind: 'attempt-failed', bookingId, reference: intent.id, failure: { message } };
  }
  return { kind: 'canceled', bookingId, reference: intent.id, message: intent.cancellation_reason ?? null };
}

/** Stripe (when its keys are configured): PaymentIntents, created for a booking and paid in the browser. */
export function createStripeProvider(stripeConfig: NonNullable<AppConfig['stripe']>): PaymentProvider {
  const api = stripeConfig.apiUrl ? new URL(stripeConfig.apiUrl) : undefined;
  const stripe = new Stripe(stripeConfig.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
  const webhookSecret = stripeConfig.webhookSecret;

  function verifyWebhook(rawBody: Buffer, signature: string): VerifiedEvent {
    if (!webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set');
    let event: unknown;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, 300);
    } catch {
      throw new AppError(400, 'INVALID_SIGNATURE', msg('payment.signatureInvalid'));
    }
    const shape = stripeEventShape.safeParse(event);
    if (!shape.success) throw new AppError(400, 'INVALID_EVENT', msg('payment.eventUnreadable'));
    const { id, type } = shape.data;
    if (!HANDLED.has(type)) return { id, type, bookingId: null, outcome: undefined };
    const intent = paymentIntentShape.safeParse(shape.data.data.object);
    if (!intent.success) throw new AppError(400, 'INVALID_EVENT', msg('payment.eventUnreadable'));
    const metadataId = intent.data.metadata?.bookingId;
    const bookingId = metadataId && isUuid(metadataId) ? metadataId : null;
    return { id, type, bookingId, outcome: bookingId ? outcomeOf(type, intent.data, bookingId) : undefined };
  }

  return {
    name: 'stripe',
    publishableKey: stripeConfig.publishableKey,
    methods: ['card'],
    async start(booking) {
      const intent = await stripe.paymentIntents.create(
        {
          // Integer piasters: total EGP × 100, as Stripe expects the smallest currency unit.
          amount: booking.totalPiasters,
          currency: CURRENCY.toLowerCase(),
          metadata: { bookingId: booking.id, userId: booking.userId },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: `booking-${booking.id}` },
      );
      return summarise(intent);
    },
    async status(reference) {
      return summarise(await stripe.paymentIntents.retrieve(reference));
    },
    async cancel(reference) {
      await stripe.paymentIntents.cancel(reference);
    },
    async refund(reference, { key, amountPiasters }) {
      await stripe.refunds.create(
        { payment_intent: reference, ...(amountPiasters === undefined ? {} : { amount: amountPiasters }) },
        { idempotencyKey: `refund-${key}` },
      );
    },
    verifyWebhook: webhookSecret === undefined ? undefined : verifyWebhook,
    verifyConfirm: undefined,
    eventOf: undefined,
  };
}
