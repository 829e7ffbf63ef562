import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { EventsPage } from '../../../../../contracts/catalogue';
import { ALL_CATEGORIES } from '../../../../../contracts/constants';
import { api, toQuery } from '../../../lib/api-client';

export interface EventsParams {
  /** A category id or name; 'all' (or nothing) means every category. */
  category?: string;
  q?: string;
  page?: number;
}

/** Every events query (lists, detail, search) lives under this key, so live updates can refresh them together. */
export const eventsQueryKey = ['events'] as const;
export const eventListsQueryKey = ['events', 'list'] as const;

export function getEvents({ category, q, page }: EventsParams, signal?: AbortSignal): Promise<EventsPage> {
  const query = toQuery({
    category: category && category !== ALL_CATEGORIES ? category : undefined,
    q: q?.trim() || undefined,
    page: page && page > 1 ? page : undefined,
  });
  return api.get<EventsPage>(`/api/events${query}`, { signal });
}

export function getEventsQueryOptions(params: EventsParams) {
  const key = { category: params.category ?? ALL_CATEGORIES, q: params.q?.trim() ?? '', page: params.page ?? 1 };
  return queryOptions({
    queryKey: [...eventListsQueryKey, key],
    queryFn: ({ signal }) => getEvents(key, signal),
    placeholderData: keepPreviousData,
  });
}

export function useEvents(params: EventsParams) {
  return useQuery(getEventsQueryOptions(params));
}
