import { z } from 'zod';
import { bookingSchema, ticketQuantitySchema } from './bookings';

/**
 * Refunds and cancellations (issue 36). An event's refund policy: a buyer may cancel paid tickets until
 * `refundHoursBefore` hours before the event starts (0: no refunds), and gets back what they paid for them less
 * `cancellationFeePercent`. The organiser refunds in full whatever the policy, and may cancel the whole event.
 * Money is integer piasters throughout; a refund never exceeds what was paid.
 *
 * - GET /api/bookings/:id/refund-quote?quantity= → RefundQuote (what cancelling `quantity` tickets gives back)
 * - POST /api/bookings/:id/cancel { quantity? } → CancelAnswer; 409 REFUNDS_CLOSED / NOT_REFUNDABLE /
 *   TOO_MANY_TICKETS / REFUND_IN_PROGRESS, 502 REFUND_FAILED (the booking stays as it was)
 * - POST /api/admin/bookings/:id/refund → AdminRefundAnswer (the whole booking, no fee)
 * - POST /api/admin/events/:id/cancel → CancelEventAnswer ('This event has been cancelled' on its page)
 */

export const REFUND_HOURS_DEFAULT = 48;
export const REFUND_HOURS_MAX = 8760;
export const CANCELLATION_FEE_DEFAULT = 0;

/** The fee kept on cancelling tickets that cost `paidPiasters`: the percentage, rounded to the nearest piaster. */
export function refundOf(paidPiasters: number, feePercent: number): { refundPiasters: number; feePiasters: number } {
  const feePiasters = Math.floor((paidPiasters * feePercent + 50) / 100);
  return { refundPiasters: paidPiasters - feePiasters, feePiasters };
}

/** The last moment a buyer may cancel: `hoursBefore` hours before the event starts; null when refunds are off. */
export function refundDeadline(eventStart: Date, hoursBefore: number): Date | null {
  return hoursBefore > 0 ? new Date(eventStart.getTime() - hoursBefore * 3_600_000) : null;
}

export const refundQuoteQuerySchema = z.object({
  quantity: z
    .string()
    .regex(/^\d{1,2}$/, { message: 'payment.quantityWhole' })
    .optional()
    .transform((value) => (value === undefined ? undefined : Number(value))),
});

export const refundQuoteSchema = z.object({
  /** The tickets the quote is for (the booking's remaining ones when no quantity was asked). */
  quantity: z.number().int(),
  refundPiasters: z.number().int(),
  feePiasters: z.number().int(),
  /** Until when the buyer may cancel (ISO instant); null when the event's policy gives no refunds. */
  allowedUntil: z.string().nullable(),
  /** Whether cancelling is allowed now. */
  allowed: z.boolean(),
});
export type RefundQuote = z.infer<typeof refundQuoteSchema>;

export const cancelBookingBodySchema = z.strictObject({ quantity: ticketQuantitySchema.optional() });
export type CancelBookingBody = z.infer<typeof cancelBookingBodySchema>;

export const cancelBookingAnswerSchema = z.object({ refundPiasters: z.number().int(), booking: bookingSchema });
export type CancelBookingAnswer = z.infer<typeof cancelBookingAnswerSchema>;

export const adminRefundAnswerSchema = z.object({
  refundPiasters: z.number().int(),
  bookingId: z.uuid(),
  status: z.enum(['paid', 'refunded']),
});
export type AdminRefundAnswer = z.infer<typeof adminRefundAnswerSchema>;

export const cancelEventAnswerSchema = z.object({
  /** Paid bookings whose refund was started (the job finishes any a crash interrupted). */
  refunds: z.number().int(),
  /** Holds ended. */
  holdsEnded: z.number().int(),
});
export type CancelEventAnswer = z.infer<typeof cancelEventAnswerSchema>;
