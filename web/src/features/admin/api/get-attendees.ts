import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ATTENDEES_POLL_MS, type AttendeesPage } from '../../../../../contracts/attendees';
import { api, toQuery } from '../../../lib/api-client';

export interface AttendeesParams {
  eventId: string;
  q: string;
  page: number;
}

export function getAttendees(params: AttendeesParams, signal?: AbortSignal): Promise<AttendeesPage> {
  const query = toQuery({ q: params.q, page: params.page > 1 ? params.page : undefined });
  return api.get<AttendeesPage>(`/api/admin/events/${encodeURIComponent(params.eventId)}/attendees${query}`, {
    signal,
  });
}

/** The address of the event's CSV (a download: the browser fetches it with the session cookie). */
export function attendeesCsvUrl(eventId: string): string {
  return `/api/admin/events/${encodeURIComponent(eventId)}/attendees.csv`;
}

/**
 * Live during the event: asked again every few seconds while the page is visible (TanStack Query stops
 * polling in a hidden tab, and asks at once when it shows again).
 */
export function getAttendeesQueryOptions(params: AttendeesParams) {
  return queryOptions({
    queryKey: ['admin', 'attendees', params],
    queryFn: ({ signal }) => getAttendees(params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: ATTENDEES_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: 0,
    retry: (failures, error) => failures < 2 && !(error instanceof Error && 'status' in error && error.status === 404),
  });
}

export function useAttendees(params: AttendeesParams) {
  return useQuery(getAttendeesQueryOptions(params));
}
