import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RefundQuote } from '../../../../../contracts/refunds';
import { api, toQuery } from '../../../lib/api-client';

/** What cancelling `quantity` of a paid booking's tickets would give back now, and whether it is still allowed. */
export function getRefundQuote(bookingId: string, quantity: number, signal?: AbortSignal): Promise<RefundQuote> {
  return api.get<RefundQuote>(`/api/bookings/${encodeURIComponent(bookingId)}/refund-quote${toQuery({ quantity })}`, {
    signal,
  });
}

export const refundQuoteKey = (bookingId: string) => ['bookings', bookingId, 'refund-quote'] as const;

/**
 * Asked afresh each time the dialog opens (the deadline may have passed meanwhile); while the buyer steps the
 * quantity, the last amount stays shown until the next one comes.
 */
export function getRefundQuoteQueryOptions(bookingId: string, quantity: number) {
  return queryOptions({
    queryKey: [...refundQuoteKey(bookingId), quantity],
    queryFn: ({ signal }) => getRefundQuote(bookingId, quantity, signal),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

export function useRefundQuote(bookingId: string, quantity: number, enabled: boolean) {
  return useQuery({ ...getRefundQuoteQueryOptions(bookingId, quantity), enabled });
}
