import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyBookings } from '../../../../../contracts/bookings';
import { api } from '../../../lib/api-client';

/** The signed-in user's paid bookings ('Your Tickets' and 'Your History') and those waiting for kiosk cash. */
export function getMyBookings(): Promise<MyBookings> {
  return api.get<MyBookings>('/api/me/bookings');
}

export function getMyBookingsQueryOptions() {
  return queryOptions({ queryKey: ['me', 'bookings'], queryFn: getMyBookings, staleTime: 0 });
}

export function useMyBookings() {
  return useQuery(getMyBookingsQueryOptions());
}
