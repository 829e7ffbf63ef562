import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Booking } from '../../../../../contracts/bookings';
import { api } from '../../../lib/api-client';
import { eventDetailQueryKey } from '../../catalogue/api/get-event';
import { bookingQueryKey } from './get-booking';
import { myHoldQueryKey } from './get-my-hold';

/**
 * Cancels the signed-in user's pending reservation: its tickets go back on sale at once. Answers the booking
 * (cancelled, or as it had already ended); 409 once it is paid or while a payment of it is being settled.
 */
export function cancelHold(bookingId: string): Promise<Booking> {
  return api.delete<Booking>(`/api/bookings/${encodeURIComponent(bookingId)}/hold`);
}

/**
 * Whether the answer is the buyer's own cancellation (now or by an earlier call), not a hold that had ended
 * otherwise: run out, or 'cancelled' by a newer reservation made in another tab, whose tickets are still held.
 */
export function cancelledByBuyer(booking: Booking): boolean {
  return booking.endedReason === 'cancelled_by_buyer';
}

/**
 * For the payment page of `booking`. After a cancellation its booking is not read again while the page is
 * still up (the answer already says 'cancelled'; the page moves on to the event), only marked stale; when it
 * had ended otherwise (run out) or was refused, it is read again at once: it may have become paid.
 */
export function useCancelHold(booking: { id: string; eventId: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelHold(booking.id),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({
        queryKey: bookingQueryKey(booking.id),
        refetchType: cancelledByBuyer(answer) ? 'none' : 'active',
      });
      void queryClient.invalidateQueries({ queryKey: myHoldQueryKey(booking.eventId) });
      void queryClient.invalidateQueries({ queryKey: eventDetailQueryKey(booking.eventId) });
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: bookingQueryKey(booking.id) }),
  });
}
