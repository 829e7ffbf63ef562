import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Booking } from '../../../../../contracts/bookings';
import { api, lastAnswer } from '../../../lib/api-client';
import { noteServerClock } from '../../../lib/server-clock';

export const bookingQueryKey = (id: string) => ['bookings', id] as const;

/**
 * One of the signed-in user's bookings, with its real status (404 for anyone else's). Its answer also sets
 * the server's clock for the hold's countdown (HoldCountdown), so a device whose clock is wrong still
 * counts down to the moment the server's hold ends.
 */
export async function getBooking(id: string): Promise<Booking> {
  const booking = await api.get<Booking>(`/api/bookings/${encodeURIComponent(id)}`);
  noteServerClock(lastAnswer);
  return booking;
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
