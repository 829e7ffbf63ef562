import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EventDto } from '../../../../../contracts/catalogue';
import { api } from '../../../lib/api-client';

/** The event being booked (availability and price as the server has them now). */
export function getTicketEvent(id: string): Promise<EventDto> {
  return api.get<EventDto>(`/api/events/${encodeURIComponent(id)}`);
}

/**
 * Asked again whenever the page opens, even when just cached: the buyer's own hold (useMyHold, asked at the
 * same time) counts on top of it, and a count from before they reserved would count those tickets twice.
 */
export function getTicketEventQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['events', 'detail', id],
    queryFn: () => getTicketEvent(id),
    staleTime: 5_000,
    refetchOnMount: 'always',
  });
}

export function useTicketEvent(id: string) {
  return useQuery(getTicketEventQueryOptions(id));
}
