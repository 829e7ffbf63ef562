import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminRefundAnswer } from '../../../../../contracts/refunds';
import { api } from '../../../lib/api-client';

/** The organiser refunds a paid booking whole, whatever the event's policy (no fee). 502 REFUND_FAILED. */
export function refundBooking(bookingId: string): Promise<AdminRefundAnswer> {
  return api.post<AdminRefundAnswer>(`/api/admin/bookings/${encodeURIComponent(bookingId)}/refund`);
}

/** After it, or a refusal (its failure is then listed on the booking), the attendees are read again. */
export function useRefundBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bookingId: string) => refundBooking(bookingId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'attendees'] }),
  });
}
