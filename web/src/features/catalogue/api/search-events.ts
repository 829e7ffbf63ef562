import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { EventSearchResponse } from '../../../../../contracts/catalogue';
import { api, toQuery } from '../../../lib/api-client';

export function searchEvents(q: string, signal?: AbortSignal): Promise<EventSearchResponse> {
  return api.get<EventSearchResponse>(`/api/events/search${toQuery({ q })}`, { signal });
}

export function searchEventsQueryOptions(q: string) {
  const text = q.trim();
  return queryOptions({
    queryKey: ['events', 'search', text.toLowerCase()],
    queryFn: ({ signal }) => searchEvents(text, signal),
    enabled: text.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** The header's live search (pass an already debounced text). */
export function useSearchEvents(q: string) {
  return useQuery(searchEventsQueryOptions(q));
}
