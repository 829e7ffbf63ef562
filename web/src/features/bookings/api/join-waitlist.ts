import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JoinWaitlistBody, WaitlistItem, WaitlistList } from '../../../../../contracts/waitlist';
import { api } from '../../../lib/api-client';
import { eventDetailQueryKey } from '../../catalogue/api/get-event';
import { myWaitlistQueryKey } from './get-my-waitlist';

/**
 * Puts the signed-in user on a sold-out event's waitlist. 409 TICKETS_AVAILABLE (tickets came back: reserve
 * them), ALREADY_WAITING, HOLDING_TICKETS or EVENT_CLOSED; 404 for an unknown event.
 */
export function joinWaitlist(eventId: string, body: JoinWaitlistBody): Promise<WaitlistItem> {
  return api.post<WaitlistItem>(`/api/events/${encodeURIComponent(eventId)}/waitlist`, body);
}

/** The entry answered takes the event's place in the list at once; the list and the event are read again. */
export function useJoinWaitlist(eventId: string) {
  const queryClient = useQueryClient();
  const readAgain = () => {
    void queryClient.invalidateQueries({ queryKey: myWaitlistQueryKey });
    void queryClient.invalidateQueries({ queryKey: eventDetailQueryKey(eventId) });
  };
  return useMutation({
    mutationFn: (body: JoinWaitlistBody) => joinWaitlist(eventId, body),
    onSuccess: (item) => {
      queryClient.setQueryData<WaitlistList>(myWaitlistQueryKey, (list) =>
        list ? { items: [item, ...list.items.filter((other) => other.eventId !== eventId)] } : { items: [item] },
      );
      readAgain();
    },
    onError: readAgain,
  });
}
