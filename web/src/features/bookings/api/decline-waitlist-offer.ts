import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WaitlistItem, WaitlistList } from '../../../../../contracts/waitlist';
import { api } from '../../../lib/api-client';
import { eventDetailQueryKey } from '../../catalogue/api/get-event';
import { bookingQueryKey } from './get-booking';
import { myHoldQueryKey } from './get-my-hold';
import { myWaitlistQueryKey } from './get-my-waitlist';

/** Says no to the tickets held for the signed-in user: they go to the next in line. 404 NO_OFFER. */
export function declineWaitlistOffer(eventId: string): Promise<WaitlistItem> {
  return api.post<WaitlistItem>(`/api/me/waitlist/${encodeURIComponent(eventId)}/decline`);
}

/**
 * The entry answered ('declined') replaces the event's in the list at once; the list, the event, the hold and
 * the offer's booking are read again.
 */
export function useDeclineWaitlistOffer(item: Pick<WaitlistItem, 'eventId' | 'offer'>) {
  const queryClient = useQueryClient();
  const { eventId } = item;
  const bookingId = item.offer?.bookingId;
  const readAgain = () => {
    void queryClient.invalidateQueries({ queryKey: myWaitlistQueryKey });
    void queryClient.invalidateQueries({ queryKey: eventDetailQueryKey(eventId) });
    void queryClient.invalidateQueries({ queryKey: myHoldQueryKey(eventId) });
    if (bookingId) void queryClient.invalidateQueries({ queryKey: bookingQueryKey(bookingId) });
  };
  return useMutation({
    mutationFn: () => declineWaitlistOffer(eventId),
    onSuccess: (answer) => {
      queryClient.setQueryData<WaitlistList>(myWaitlistQueryKey, (list) =>
        list ? { items: list.items.map((other) => (other.eventId === eventId ? answer : other)) } : list,
      );
      readAgain();
    },
    onError: readAgain,
  });
}
