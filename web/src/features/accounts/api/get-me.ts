import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Me } from '../../../../../contracts/accounts';
import { ApiError, api, reportSessionEnded } from '../../../lib/api-client';

/** The signed-in user, or null when signed out (the API answers null, or 401 for a session that has ended). */
export async function getMe(): Promise<Me | null> {
  try {
    const me = await api.get<Me | null>('/api/me');
    // No session cookie at all (it expired with its session, or another tab signed out): if the app still
    // shows a user, their session has ended, as with a 401 (web/src/app/session-end.ts; a visitor is no news).
    if (me === null) reportSessionEnded();
    return me;
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
