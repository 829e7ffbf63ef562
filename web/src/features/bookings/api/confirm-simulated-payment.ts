import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaymentResult, SimulatedConfirmBody } from '../../../../../contracts/bookings';
import { api } from '../../../lib/api-client';
import { bookingQueryKey } from './get-booking';

/** Pays with the simulated processor; the server decides the outcome from the card. */
export function confirmSimulatedPayment(body: SimulatedConfirmBody): Promise<PaymentResult> {
  return api.post<PaymentResult>('/api/payments/simulated/confirm', body);
}

export function useConfirmSimulatedPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmSimulatedPayment,
    onSettled: (_data, _error, body) => queryClient.invalidateQueries({ queryKey: bookingQueryKey(body.bookingId) }),
  });
}
