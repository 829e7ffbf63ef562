import { type PaymentProvider, type PaymentProviders, paymentProviders } from '../../domain/payments';
import type { AppConfig } from '../../env';
import { createPaymobProvider, type PaymobProvider } from './paymob';
import { createSimulatedProvider } from './simulated';
import { createStripeProvider } from './stripe';

/** Every provider configured: Stripe and Paymob by their keys, the simulated processor by SIMULATED_PAYMENTS. */
export function createPaymentProviders(config: Pick<AppConfig, 'stripe' | 'paymob' | 'simulatedPayments' | 'appUrl'>): {
  providers: PaymentProviders;
  paymob: PaymobProvider | undefined;
} {
  const all: PaymentProvider[] = [];
  if (config.stripe) all.push(createStripeProvider(config.stripe));
  const paymob = config.paymob ? createPaymobProvider(config.paymob, config.appUrl) : undefined;
  if (paymob) all.push(paymob);
  if (config.simulatedPayments) all.push(createSimulatedProvider());
  return { providers: paymentProviders(all), paymob };
}
