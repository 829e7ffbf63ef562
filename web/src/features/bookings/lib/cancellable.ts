import type { Ticket } from '../../../../../contracts/bookings';

/**
 * How many of a paid booking's tickets the buyer may still cancel at `now` (the server's clock): those not given
 * back yet, while the event's refund deadline is ahead; none without a deadline (no refunds, or nothing left).
 */
export function cancellableTickets(
  ticket: Pick<Ticket, 'quantity' | 'refundedQuantity' | 'refundableUntil'>,
  now: number,
): number {
  const remaining = ticket.quantity - ticket.refundedQuantity;
  if (remaining <= 0 || !ticket.refundableUntil) return 0;
  return Date.parse(ticket.refundableUntil) > now ? remaining : 0;
}
