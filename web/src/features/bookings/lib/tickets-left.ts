import type { MyHold } from '../../../../../contracts/bookings';

/**
 * How many tickets the buyer may choose on the ticket page: the event's tickets left, plus those of their
 * own pending hold, which a new reservation replaces (eventry_reserve_tickets counts them towards it).
 * The hold counts only
 * - beside a count read since the page opened: a cached count from before the buyer reserved would count
 *   those tickets twice;
 * - until it runs out on the server's clock: a released hold's tickets are in the count already, and one
 *   that ran out but is not released yet is no longer the buyer's to count (too few, never too many).
 */
export function ticketsLeftFor(
  ticketsAvailable: number,
  hold: MyHold['hold'] | undefined,
  { countIsFresh, now }: { countIsFresh: boolean; now: number },
): { available: number; held: number } {
  const held = countIsFresh && hold && Date.parse(hold.expiresAt) > now ? hold.quantity : 0;
  return { available: ticketsAvailable + held, held };
}
