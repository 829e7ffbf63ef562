import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WaitlistItem, WaitlistList } from '../../../../../contracts/waitlist';
import { api, lastAnswer } from '../../../lib/api-client';
import { noteServerClock, serverNow } from '../../../lib/server-clock';

export const myWaitlistQueryKey = ['me', 'waitlist'] as const;

/** While waiting, the place in line is asked again this often: others leave, or decline, meanwhile. */
const WAITING_REFRESH_MS = 60_000;

/**
 * The signed-in user's latest waitlist entry of each event, newest first (entries they left are not listed). Its
 * answer also sets the server's clock: an offer is held until an instant of the server's.
 */
export async function getMyWaitlist(signal?: AbortSignal): Promise<WaitlistList> {
  const list = await api.get<WaitlistList>('/api/me/waitlist', { signal });
  noteServerClock(lastAnswer);
  return list;
}

export function getMyWaitlistQueryOptions() {
  return queryOptions({ queryKey: myWaitlistQueryKey, queryFn: ({ signal }) => getMyWaitlist(signal), staleTime: 0 });
}

/**
 * When to ask again: just after the first offer held runs out (it is then 'expired'), or, while an entry
 * waits, every minute (a place moves up, or tickets are offered, without a change to the event that the live
 * stream would bring).
 */
export function waitlistRefetchInterval(items: WaitlistItem[] | undefined): number | false {
  if (!items) return false;
  const ends = items.flatMap((item) => (item.offer ? [Date.parse(item.offer.expiresAt)] : []));
  const untilEnd =
    ends.length > 0 ? Math.max(1_000, Math.min(...ends) - serverNow() + 1_000) : Number.POSITIVE_INFINITY;
  const waiting = items.some((item) => item.status === 'waiting') ? WAITING_REFRESH_MS : Number.POSITIVE_INFINITY;
  const next = Math.min(untilEnd, waiting);
  return Number.isFinite(next) ? next : false;
}

export function useMyWaitlist(options: { enabled?: boolean } = {}) {
  return useQuery({
    ...getMyWaitlistQueryOptions(),
    enabled: options.enabled ?? true,
    refetchInterval: (query) => waitlistRefetchInterval(query.state.data?.items),
  });
}
