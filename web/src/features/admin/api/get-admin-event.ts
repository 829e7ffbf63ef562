import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EventDto } from '../../../../../contracts/catalogue';
import { api } from '../../../lib/api-client';

export function getAdminEvent(id: string, signal?: AbortSignal): Promise<EventDto> {
  return api.get<EventDto>(`/api/admin/events/${encodeURIComponent(id)}`, { signal });
}

export function getAdminEventQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['admin', 'event', id],
    queryFn: ({ signal }) => getAdminEvent(id, signal),
    staleTime: 0,
  });
}

export function useAdminEvent(id: string, enabled = true) {
  return useQuery({ ...getAdminEventQueryOptions(id), enabled });
}
