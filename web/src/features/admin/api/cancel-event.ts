import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CancelEventAnswer } from '../../../../../contracts/refunds';
import { api } from '../../../lib/api-client';
import { eventDetailQueryKey } from '../../catalogue/api/get-event';

/**
 * Cancels an event (unlike deleting it, it stays listed, as cancelled): every paid booking is refunded in full,
 * holds end, nothing more is sold, and the buyers are emailed. Answers how many refunds were started.
 */
export function cancelEvent(id: string): Promise<CancelEventAnswer> {
  return api.post<CancelEventAnswer>(`/api/admin/events/${encodeURIComponent(id)}/cancel`);
}

/** Every admin query (the list's badge, the attendees' refunds) and the event's public page are read again. */
export function useCancelEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => cancelEvent(id),
    onSettled: (_answer, _error, id) => {
      void queryClient.invalidateQueries({ queryKey: eventDetailQueryKey(id) });
      return queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}
