import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentConfig } from '../../../../../contracts/bookings';
import { api } from '../../../lib/api-client';

/** Which card provider the server uses: Stripe (with its publishable key) or the simulated processor. */
export function getPaymentConfig(): Promise<PaymentConfig> {
  return api.get<PaymentConfig>('/api/payments/config');
}

export function getPaymentConfigQueryOptions() {
  return queryOptions({ queryKey: ['payments', 'config'], queryFn: getPaymentConfig, staleTime: 5 * 60_000 });
}

export function usePaymentConfig() {
  return useQuery(getPaymentConfigQueryOptions());
}
