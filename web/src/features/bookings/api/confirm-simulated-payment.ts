import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaymentResult, SimulatedConfirmBody } from '../../../../../contracts/bookings';
import { api } from '../../../lib/api-client';
import { bookingQueryKey } from './get-booking';

/** Pays with the simulated processor; the server decides the outcome from the card. */
export function confirmSimulatedPayment(body: SimulatedConfirmBody): Promise<PaymentResult> {
  return api.post<PaymentResult>('/api/payments/simulated/confirm', body);
}

/** Shared by every confirm in flight: the payment page holds back a cancellation meanwhile. */
export const confirmSimulatedPaymentKey = ['payments', 'simulated', 'confirm'] as const;

export function useConfirmSimulatedPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: confirmSimulatedPaymentKey,
    mutationFn: confirmSimulatedPayment,
    onSettled: (_data, _error, body) => queryClient.invalidateQueries({ queryKey: bookingQueryKey(body.bookingId) }),
  });
}
