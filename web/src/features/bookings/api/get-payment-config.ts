import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentConfig } from '../../../../../contracts/bookings';
import { api } from '../../../lib/api-client';

/**
 * The ways to pay the server offers, in order (Stripe, the simulated processor, Paymob's card, wallet and kiosk
 * cash), the provider a reservation starts at once, and Stripe's publishable key.
 */
export function getPaymentConfig(): Promise<PaymentConfig> {
  return api.get<PaymentConfig>('/api/payments/config');
}

export function getPaymentConfigQueryOptions() {
  return queryOptions({ queryKey: ['payments', 'config'], queryFn: getPaymentConfig, staleTime: 5 * 60_000 });
}

export function usePaymentConfig() {
  return useQuery(getPaymentConfigQueryOptions());
}
