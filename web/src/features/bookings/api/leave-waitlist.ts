import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WaitlistList } from '../../../../../contracts/waitlist';
import { api } from '../../../lib/api-client';
import { eventDetailQueryKey } from '../../catalogue/api/get-event';
import { myHoldQueryKey } from './get-my-hold';
import { myWaitlistQueryKey } from './get-my-waitlist';

/** Takes the signed-in user off an event's waitlist (an offer they hold is declined). 404 NOT_WAITING. */
export function leaveWaitlist(eventId: string): Promise<{ left: true }> {
  return api.delete<{ left: true }>(`/api/events/${encodeURIComponent(eventId)}/waitlist`);
}

/** The event's entry leaves the list at once (left entries are not listed); the list and the event are read again. */
export function useLeaveWaitlist(eventId: string) {
  const queryClient = useQueryClient();
  const readAgain = () => {
    void queryClient.invalidateQueries({ queryKey: myWaitlistQueryKey });
    void queryClient.invalidateQueries({ queryKey: eventDetailQueryKey(eventId) });
    void queryClient.invalidateQueries({ queryKey: myHoldQueryKey(eventId) });
  };
  return useMutation({
    mutationFn: () => leaveWaitlist(eventId),
    onSuccess: () => {
      queryClient.setQueryData<WaitlistList>(myWaitlistQueryKey, (list) =>
        list ? { items: list.items.filter((item) => item.eventId !== eventId) } : list,
      );
      readAgain();
    },
    onError: readAgain,
  });
}
