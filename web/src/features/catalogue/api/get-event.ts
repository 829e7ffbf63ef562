import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EventDto } from '../../../../../contracts/catalogue';
import { api } from '../../../lib/api-client';

export const eventDetailQueryKey = (id: string) => ['events', 'detail', id] as const;

export function getEvent(id: string, signal?: AbortSignal): Promise<EventDto> {
  return api.get<EventDto>(`/api/events/${encodeURIComponent(id)}`, { signal });
}

export function getEventQueryOptions(id: string) {
  return queryOptions({ queryKey: eventDetailQueryKey(id), queryFn: ({ signal }) => getEvent(id, signal) });
}

export function useEvent(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getEventQueryOptions(id), enabled: options.enabled ?? true });
}
