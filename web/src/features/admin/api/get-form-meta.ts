import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminFormMeta } from '../../../../../contracts/admin';
import { api } from '../../../lib/api-client';

/** Today in the app's time zone (for the date rules) and the categories of the dropdown. */
export function getFormMeta(signal?: AbortSignal): Promise<AdminFormMeta> {
  return api.get<AdminFormMeta>('/api/admin/form-meta', { signal });
}

export function getFormMetaQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'form-meta'],
    queryFn: ({ signal }) => getFormMeta(signal),
    staleTime: 5 * 60_000,
  });
}

export function useFormMeta() {
  return useQuery(getFormMetaQueryOptions());
}
