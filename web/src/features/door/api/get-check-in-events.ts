import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CheckInEvents } from '../../../../../contracts/tickets';
import { api } from '../../../lib/api-client';

export function getCheckInEvents(): Promise<CheckInEvents> {
  return api.get<CheckInEvents>('/api/check-in/events');
}

export const checkInEventsKey = ['check-in', 'events'] as const;

export function getCheckInEventsQueryOptions() {
  return queryOptions({ queryKey: checkInEventsKey, queryFn: getCheckInEvents, staleTime: 0 });
}

/** The events whose door the user keeps, with their counts: refreshed while the page is open (live at the door). */
export function useCheckInEvents() {
  return useQuery({ ...getCheckInEventsQueryOptions(), refetchInterval: 10_000 });
}
