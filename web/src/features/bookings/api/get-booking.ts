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

/**
 * The booking after the server has started its payment with the provider, or brought it up to date: a payment
 * the provider already took is settled (the success page may come before the provider's webhook), and one its
 * reservation could not start is started. Reading the booking (getBooking) changes nothing.
 */
export async function syncBookingPayment(id: string): Promise<Booking> {
  const booking = await api.post<Booking>(`/api/bookings/${encodeURIComponent(id)}/payment`);
  noteServerClock(lastAnswer);
  return booking;
}

export function getBookingQueryOptions(id: string, sync = false) {
  return queryOptions({
    queryKey: bookingQueryKey(id),
    queryFn: () => (sync ? syncBookingPayment(id) : getBooking(id)),
    staleTime: 0,
  });
}

/**
 * With `pollWhilePending`, refetches every second while the booking is still pending; with `syncPayment`, each
 * fetch brings its payment up to date (syncBookingPayment).
 */
export function useBooking(
  id: string,
  options: { pollWhilePending?: boolean; enabled?: boolean; syncPayment?: boolean } = {},
) {
  return useQuery({
    ...getBookingQueryOptions(id, options.syncPayment),
    enabled: options.enabled ?? id !== '',
    refetchInterval: (query) => (options.pollWhilePending && query.state.data?.status === 'pending' ? 1_000 : false),
  });
}
