import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CancelBookingAnswer } from '../../../../../contracts/refunds';
import { api } from '../../../lib/api-client';
import { eventDetailQueryKey } from '../../catalogue/api/get-event';
import { getMyBookingsQueryOptions } from './get-my-bookings';
import { getMyTicketsQueryOptions } from './get-my-tickets';
import { refundQuoteKey } from './get-refund-quote';

/**
 * Cancels `quantity` of a paid booking's tickets and refunds them by the event's policy. 409 REFUNDS_CLOSED,
 * NOT_REFUNDABLE, TOO_MANY_TICKETS or REFUND_IN_PROGRESS; 502 REFUND_FAILED (the booking stays as it was).
 */
export function cancelBooking(bookingId: string, quantity: number): Promise<CancelBookingAnswer> {
  return api.post<CancelBookingAnswer>(`/api/bookings/${encodeURIComponent(bookingId)}/cancel`, { quantity });
}

/** After it, or a refusal (the booking may have changed meanwhile), Your Tickets and the tickets are read again. */
export function useCancelBooking(booking: { id: string; eventId: string }) {
  const queryClient = useQueryClient();
  const readAgain = () => {
    void queryClient.invalidateQueries({ queryKey: eventDetailQueryKey(booking.eventId) });
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: getMyBookingsQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: getMyTicketsQueryOptions().queryKey }),
    ]);
  };
  return useMutation({
    mutationFn: (quantity: number) => cancelBooking(booking.id, quantity),
    // Awaited: the dialog closes onto the lists as they now are (a booking cancelled whole has left them).
    onSuccess: readAgain,
    // Refused: the quote is asked again too (the deadline may have passed: the dialog then says so).
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: refundQuoteKey(booking.id) });
      void readAgain();
    },
  });
}
