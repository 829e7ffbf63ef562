import type { PaymentProvider } from '../../domain/payments';
import type { AppConfig } from '../../env';
import { createSimulatedProvider } from './simulated';
import { createStripeProvider } from './stripe';

/** Stripe when its keys are configured, otherwise the built-in simulated processor. */
export function createPaymentProvider(config: Pick<AppConfig, 'stripe'>): PaymentProvider {
  return config.stripe ? createStripeProvider(config.stripe) : createSimulatedProvider();
}
