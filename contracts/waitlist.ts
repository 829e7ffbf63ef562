import { z } from 'zod';
import { ticketQuantitySchema } from './bookings';

/**
 * The waitlist of a sold-out event (issue 36, decision 021). A signed-in user joins with the tickets they want
 * (1–10) and whether they would take fewer; tickets that come back (a hold running out, a cancellation, a refund,
 * the organiser raising the count) are offered in the same transaction, in join order, as a hold of that user's
 * for WAITLIST_OFFER_HOURS, never past the event's start. An offer is an ordinary held booking: it is paid on the
 * payment page (/payment?booking=ID) like any other, and declining or letting it run out offers its tickets on.
 *
 * - POST /api/events/:id/waitlist JoinWaitlistBody → 201 WaitlistItem; 409 TICKETS_AVAILABLE (reserve them
 *   instead) / ALREADY_WAITING / HOLDING_TICKETS (pay or cancel the hold first) / EVENT_CLOSED, 404 unknown event
 * - DELETE /api/events/:id/waitlist → 200 { left: true } (an offer held is declined); 404 NOT_WAITING
 * - GET /api/me/waitlist → WaitlistList (the latest entry of each event, newest first)
 * - POST /api/me/waitlist/:eventId/decline → 200 WaitlistItem (status 'declined'); 404 NO_OFFER
 */

export const joinWaitlistBodySchema = z.strictObject({
  quantity: ticketQuantitySchema,
  /** 'I'll take fewer': an offer of fewer tickets than asked is welcome. */
  acceptFewer: z.boolean().default(false),
});
export type JoinWaitlistBody = z.input<typeof joinWaitlistBodySchema>;

export const waitlistStatuses = ['waiting', 'offered', 'expired', 'declined', 'bought'] as const;
export type WaitlistStatus = (typeof waitlistStatuses)[number];

export const waitlistItemSchema = z.object({
  eventId: z.uuid(),
  /** The event, for the list on 'Your Tickets'. */
  title: z.string(),
  eventDate: z.string(),
  startTime: z.string(),
  quantity: z.number().int(),
  acceptFewer: z.boolean(),
  /** 1 for the first in line; null unless waiting. */
  position: z.number().int().nullable(),
  status: z.enum(waitlistStatuses),
  /** The tickets held for the user while status is 'offered'. */
  offer: z
    .object({
      bookingId: z.uuid(),
      quantity: z.number().int(),
      /** ISO instant: the hold's end, never after the event's start. */
      expiresAt: z.string(),
    })
    .optional(),
});
export type WaitlistItem = z.infer<typeof waitlistItemSchema>;

export const waitlistListSchema = z.object({ items: z.array(waitlistItemSchema) });
export type WaitlistList = z.infer<typeof waitlistListSchema>;

export const leaveWaitlistAnswerSchema = z.object({ left: z.literal(true) });
