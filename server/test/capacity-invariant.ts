/**
 * Where an event's tickets are, straight from the database: capacity = available + held + offered + sold at every
 * moment, with 0 ≤ available. Held: pending holds a buyer made; offered: pending holds the waitlist made
 * (bookings.waitlist_entry_id, contracts/waitlist.ts); sold: paid tickets not given back. The booking tests, the
 * crash rounds, the many-process storm and the benchmark all check it with this one query.
 */
export interface CapacityParts {
  id: string;
  title: string;
  capacity: number;
  available: number;
  held: number;
  offered: number;
  sold: number;
}

/** Each event's parts; `where` narrows the events (e.g. `e.id = $1`). */
export function capacityPartsQuery(where = 'true'): string {
  return `SELECT e.id, e.title, e.capacity, e.tickets_available AS available,
            COALESCE(sum(b.quantity) FILTER (WHERE b.status = 'pending' AND b.waitlist_entry_id IS NULL), 0)::int AS held,
            COALESCE(sum(b.quantity) FILTER (WHERE b.status = 'pending' AND b.waitlist_entry_id IS NOT NULL), 0)::int
              AS offered,
            COALESCE(sum(b.quantity - b.refunded_quantity) FILTER (WHERE b.status = 'paid'), 0)::int AS sold
       FROM events e LEFT JOIN bookings b ON b.event_id = e.id
      WHERE ${where}
      GROUP BY e.id ORDER BY e.title`;
}

/** Whether the event's tickets add up (and none is below zero). */
export function capacityAddsUp(parts: Omit<CapacityParts, 'id' | 'title'>): boolean {
  return parts.available >= 0 && parts.available + parts.held + parts.offered + parts.sold === parts.capacity;
}
