/**
 * Tickets follow bookings: a paid booking holds exactly its tickets 1..quantity, of which all but those given
 * back (refunded_quantity) are valid, and a booking that is not paid has no valid ticket. Checked after the booking suites' tests, the payment races and every crash round,
 * so that whatever path pays or ends a booking (batched payments, late payments, webhooks, expiry, a crash in
 * between), the door sees what the money says.
 */
export const TICKETS_NOT_FOLLOWING_BOOKINGS = `
  SELECT b.id, b.status, b.quantity, b.refunded_quantity,
         count(t.id)::int AS tickets,
         count(t.id) FILTER (WHERE t.voided_at IS NULL)::int AS valid,
         coalesce(array_agg(t.number ORDER BY t.number) FILTER (WHERE t.id IS NOT NULL), '{}') AS numbers
    FROM bookings b LEFT JOIN tickets t ON t.booking_id = b.id
   GROUP BY b.id
  HAVING (b.status = 'paid' AND (count(t.id) <> b.quantity OR count(DISTINCT t.number) <> b.quantity
                                 OR min(t.number) <> 1 OR max(t.number) <> b.quantity
                                 OR count(t.id) FILTER (WHERE t.voided_at IS NULL) <> b.quantity - b.refunded_quantity))
      OR (b.status <> 'paid' AND count(t.id) FILTER (WHERE t.voided_at IS NULL) > 0)
   LIMIT 20`;

export interface TicketMismatch {
  id: string;
  status: string;
  quantity: number;
  tickets: number;
  valid: number;
  numbers: number[];
}
