import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Me } from '../../../../../contracts/accounts';
import { ApiError, api } from '../../../lib/api-client';

/** The signed-in user, or null when signed out (the API answers null, or 401 for a session that has ended). */
export async function getMe(): Promise<Me | null> {
  try {
    return await api.get<Me | null>('/api/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const meQueryKey = ['me'] as const;

export function getMeQueryOptions() {
  return queryOptions({ queryKey: meQueryKey, queryFn: getMe, staleTime: 60_000 });
}

export function useMe() {
  return useQuery(getMeQueryOptions());
}
