import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Booking, PaymobStartAnswer, PaymobStartBody } from '../../../../../contracts/bookings';
import { ApiError, api } from '../../../lib/api-client';
import { bookingQueryKey } from './get-booking';

/**
 * Pays a held booking with Paymob: card and wallet answer the hosted checkout to go to, kiosk cash the bill
 * reference to pay against and by when.
 */
export function startPaymobPayment(body: PaymobStartBody): Promise<PaymobStartAnswer> {
  return api.post<PaymobStartAnswer>('/api/payments/paymob/start', body);
}

export function useStartPaymobPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startPaymobPayment,
    onSuccess: (answer, body) => {
      if (!('reference' in answer)) return;
      // The page shows the reference at once; the booking read again says the rest (its hold now lasts hours).
      queryClient.setQueryData<Booking>(bookingQueryKey(body.bookingId), (booking) => {
        if (!booking) return booking;
        const { clientSecret: _stripes, ...payment } = booking.payment;
        return {
          ...booking,
          expiresAt: answer.expiresAt,
          payment: { ...payment, provider: 'paymob', method: 'cash', cashReference: answer.reference },
        };
      });
      void queryClient.invalidateQueries({ queryKey: bookingQueryKey(body.bookingId) });
    },
    onError: (error, body) => {
      // The hold ended, was paid or lost its event meanwhile: the booking read again says which.
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: bookingQueryKey(body.bookingId) });
      }
    },
  });
}
