import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '../../../../../contracts/dashboard';
import { ApiError, api, toQuery } from '../../../lib/api-client';

/** What the dashboard shows: a range of days (either end may be left to the server's default) and one event or all. */
export interface DashboardParams {
  from?: string;
  to?: string;
  eventId?: string;
}

export const dashboardKey = ['admin', 'dashboard'] as const;

function query(params: DashboardParams): string {
  return toQuery({ from: params.from, to: params.to, eventId: params.eventId });
}

export function getDashboard(params: DashboardParams, signal?: AbortSignal): Promise<Dashboard> {
  return api.get<Dashboard>(`/api/admin/dashboard${query(params)}`, { signal });
}

/** The orders behind the figures of the same range and scope, as CSV (a download, with the session cookie). */
export function ordersCsvUrl(params: DashboardParams): string {
  return `/api/admin/orders.csv${query(params)}`;
}

/** The tickets of those orders, as CSV. */
export function rangeAttendeesCsvUrl(params: DashboardParams): string {
  return `/api/admin/attendees.csv${query(params)}`;
}

/**
 * Asked again by the live stream (use-dashboard-live.ts), not by a timer. While another range of the same scope
 * loads, the last one stays on screen; another event's figures never stand in for this one's.
 */
export function getDashboardQueryOptions(params: DashboardParams) {
  return queryOptions({
    queryKey: [...dashboardKey, params],
    queryFn: ({ signal }) => getDashboard(params, signal),
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[2] as DashboardParams | undefined)?.eventId === params.eventId ? previous : undefined,
    staleTime: 0,
    refetchOnWindowFocus: true,
    // A refused range (400) or an unknown event (404) will not change by asking again.
    retry: (failures, error) =>
      failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
  });
}

export function useDashboard(params: DashboardParams) {
  return useQuery(getDashboardQueryOptions(params));
}
