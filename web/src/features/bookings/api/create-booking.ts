import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Booking, CreateBookingBody } from '../../../../../contracts/bookings';
import { api } from '../../../lib/api-client';
import { bookingQueryKey } from './get-booking';

/** Reserves tickets. The key makes a retried click (double submit, flaky network) return the same booking. */
export function createBooking(body: CreateBookingBody, idempotencyKey: string): Promise<Booking> {
  return api.post<Booking>('/api/bookings', body, { headers: { 'idempotency-key': idempotencyKey } });
}

export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CreateBookingBody; idempotencyKey: string }) =>
      createBooking(body, idempotencyKey),
    onSuccess: (booking) => queryClient.setQueryData(bookingQueryKey(booking.id), booking),
  });
}
