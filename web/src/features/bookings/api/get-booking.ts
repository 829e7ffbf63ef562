import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Booking } from '../../../../../contracts/bookings';
import { api } from '../../../lib/api-client';

export const bookingQueryKey = (id: string) => ['bookings', id] as const;

/** One of the signed-in user's bookings, with its real status (404 for anyone else's). */
export function getBooking(id: string): Promise<Booking> {
  return api.get<Booking>(`/api/bookings/${encodeURIComponent(id)}`);
}

export function getBookingQueryOptions(id: string) {
  return queryOptions({ queryKey: bookingQueryKey(id), queryFn: () => getBooking(id), staleTime: 0 });
}

/** With `pollWhilePending`, refetches every second while the booking is still pending. */
export function useBooking(id: string, options: { pollWhilePending?: boolean; enabled?: boolean } = {}) {
  return useQuery({
    ...getBookingQueryOptions(id),
    enabled: options.enabled ?? id !== '',
    refetchInterval: (query) => (options.pollWhilePending && query.state.data?.status === 'pending' ? 1_000 : false),
  });
}
