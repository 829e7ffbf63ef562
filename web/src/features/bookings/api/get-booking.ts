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
 * reservation could not start is started. `restart: 'stripe'` goes back to Stripe from another provider's
 * payment (a buyer who started Paymob's, then chose Stripe). Reading the booking (getBooking) changes nothing.
 */
export async function syncBookingPayment(id: string, restart?: 'stripe'): Promise<Booking> {
  const query = restart ? `?restart=${restart}` : '';
  const booking = await api.post<Booking>(`/api/bookings/${encodeURIComponent(id)}/payment${query}`);
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

/** How often a booking waiting for kiosk cash is asked again: the money comes within hours, not seconds. */
const AWAITING_CASH_POLL_MS = 5_000;

/**
 * With `pollWhilePending`, refetches every second while the booking is still pending; with `pollWhileAwaitingCash`,
 * every few seconds while it waits for its kiosk cash (its page moves on once it is paid); with `syncPayment`,
 * each fetch brings its payment up to date (syncBookingPayment).
 */
export function useBooking(
  id: string,
  options: {
    pollWhilePending?: boolean;
    pollWhileAwaitingCash?: boolean;
    enabled?: boolean;
    syncPayment?: boolean;
  } = {},
) {
  return useQuery({
    ...getBookingQueryOptions(id, options.syncPayment),
    enabled: options.enabled ?? id !== '',
    refetchInterval: (query) => {
      const booking = query.state.data;
      if (booking?.status !== 'pending') return false;
      if (options.pollWhilePending) return 1_000;
      return options.pollWhileAwaitingCash && booking.payment.cashReference ? AWAITING_CASH_POLL_MS : false;
    },
  });
}
