import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminEventsPage } from '../../../../../contracts/admin';
import { api, toQuery } from '../../../lib/api-client';

export interface AdminEventsParams {
  q: string;
  page: number;
}

export const adminEventsKey = ['admin', 'events'] as const;

export function getAdminEvents(params: AdminEventsParams, signal?: AbortSignal): Promise<AdminEventsPage> {
  return api.get<AdminEventsPage>(`/api/admin/events${toQuery({ q: params.q, page: params.page })}`, { signal });
}

export function getAdminEventsQueryOptions(params: AdminEventsParams) {
  return queryOptions({
    queryKey: [...adminEventsKey, params],
    queryFn: ({ signal }) => getAdminEvents(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useAdminEvents(params: AdminEventsParams) {
  return useQuery(getAdminEventsQueryOptions(params));
}
