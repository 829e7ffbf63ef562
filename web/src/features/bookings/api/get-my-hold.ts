import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyHold } from '../../../../../contracts/bookings';
import { api, lastAnswer } from '../../../lib/api-client';
import { noteServerClock, serverNow } from '../../../lib/server-clock';

export const myHoldQueryKey = (eventId: string) => ['me', 'holds', eventId] as const;

/**
 * The signed-in user's unexpired pending hold on an event, or null. Reserving again replaces it and its
 * tickets count towards the new reservation, so the ticket page may offer them on top of the tickets left.
 */
export async function getMyHold(eventId: string, signal?: AbortSignal): Promise<MyHold> {
  const hold = await api.get<MyHold>(`/api/me/holds/${encodeURIComponent(eventId)}`, { signal });
  noteServerClock(lastAnswer);
  return hold;
}

export function getMyHoldQueryOptions(eventId: string) {
  return queryOptions({
    queryKey: myHoldQueryKey(eventId),
    queryFn: ({ signal }) => getMyHold(eventId, signal),
    staleTime: 0,
    // Paid, replaced or run out elsewhere (the payment page, another tab): never shown from an earlier visit.
    gcTime: 0,
  });
}

/** Asked again when the hold ends (on the server's clock), when it no longer counts. */
export function useMyHold(eventId: string) {
  return useQuery({
    ...getMyHoldQueryOptions(eventId),
    enabled: eventId !== '',
    refetchInterval: (query) => {
      const hold = query.state.data?.hold;
      return hold ? Math.max(1_000, Date.parse(hold.expiresAt) - serverNow() + 500) : false;
    },
  });
}
