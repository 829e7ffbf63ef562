import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MyHold } from '../../../../../contracts/bookings';
import { api } from '../../../lib/api-client';
import { eventDetailQueryKey } from '../../catalogue/api/get-event';
import { bookingQueryKey } from './get-booking';
import { myHoldQueryKey } from './get-my-hold';

/** Lets the signed-in user's pending hold on an event go: its tickets go back on sale at once. */
export function releaseHold(eventId: string): Promise<MyHold> {
  return api.delete<MyHold>(`/api/me/holds/${encodeURIComponent(eventId)}`);
}

/**
 * For the booking `bookingId` on its event: afterwards the booking, the hold and the event are read again. The
 * caller hears the outcome before those answers come (they are not awaited): the booking's, saying 'cancelled',
 * replaces the payment page's form, and with it the caller.
 */
export function useReleaseHold(bookingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseHold,
    onSettled: (_data, _error, eventId) => {
      for (const queryKey of [bookingQueryKey(bookingId), myHoldQueryKey(eventId), eventDetailQueryKey(eventId)]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
