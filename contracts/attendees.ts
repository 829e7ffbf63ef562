import { z } from 'zod';
import type { MessageKey } from './i18n/types';
import { ticketStatusSchema } from './tickets';

/**
 * The organiser's list of who holds a ticket to an event (admins only):
 * - GET /api/admin/events/:id/attendees?q=&page= → one page of tickets (ATTENDEES_PAGE_SIZE) with the event's
 *   counts; `q` matches the buyer's name or email (case-insensitive, anywhere in them) or the start of a short
 *   code as typed (lower case, dashes and spaces allowed: contracts/tickets.ts normalizeShortCode). A page past
 *   the last answers the last page. A malformed page or a q longer than ATTENDEES_QUERY_MAX is a 400.
 * - GET /api/admin/events/:id/attendees.csv → every ticket of the event, the same columns, as CSV (UTF-8 with a
 *   BOM, times in the app's time zone, cells that a spreadsheet would run as a formula prefixed with ').
 * An unknown or deleted event is a 404.
 */

export const ATTENDEES_PAGE_SIZE = 50;
export const ATTENDEES_QUERY_MAX = 200;
/** How often the attendees page asks again while it is visible: counts move during the event. */
export const ATTENDEES_POLL_MS = 5000;

export const attendeesParamsSchema = z.object({ id: z.string().max(200) });

export const attendeesQuerySchema = z.object({
  q: z
    .string()
    .max(ATTENDEES_QUERY_MAX)
    .optional()
    .transform((value) => (value ?? '').trim()),
  page: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, { message: 'attendees.pageInvalid' })
    .optional()
    .transform((value) => (value === undefined ? 1 : Number(value))),
});
export type AttendeesQuery = z.output<typeof attendeesQuerySchema>;

/** One ticket of the event and its buyer. Times are ISO instants (the page shows them in `timeZone`). */
export const attendeeSchema = z.object({
  ticketId: z.uuid(),
  bookingId: z.uuid(),
  number: z.number().int(),
  /** The booking's quantity: 'Ticket {number} of {of}'. */
  of: z.number().int(),
  code: z.string(),
  name: z.string(),
  email: z.string(),
  status: ticketStatusSchema,
  /** When the booking was paid. */
  boughtAt: z.string().nullable(),
  checkedInAt: z.string().nullable(),
  /** Who checked it in (their name as it was then). */
  checkedInBy: z.string().nullable(),
  /** Devices that admitted it offline before they knew of each other: shown as 'Admitted twice'. */
  admittedTwice: z.boolean(),
  /** Whether the booking can still be refunded by the organiser (paid, with tickets left). */
  refundable: z.boolean(),
  /** What refunding the booking now gives back: what was paid for its tickets not given back yet. */
  refundPiasters: z.number().int(),
  /** Why the booking's last refund failed at the payment provider (the booking stays paid), or null. */
  refundFailure: z.string().nullable(),
});
export type Attendee = z.infer<typeof attendeeSchema>;

export const attendeeCountsSchema = z.object({
  /** Tickets not voided. */
  sold: z.number().int(),
  /** Of those, checked in. */
  checkedIn: z.number().int(),
  /** Tickets admitted more than once. */
  admittedTwice: z.number().int(),
});
export type AttendeeCounts = z.infer<typeof attendeeCountsSchema>;

export const attendeesPageSchema = z.object({
  event: z.object({
    id: z.uuid(),
    title: z.string(),
    eventDate: z.string(),
    startTime: z.string(),
    endTime: z.string(),
  }),
  /** The app's time zone (APP_TIMEZONE): the times of the page are shown in it. */
  timeZone: z.string(),
  counts: attendeeCountsSchema,
  items: z.array(attendeeSchema),
  page: z.number().int(),
  pageCount: z.number().int(),
  /** Tickets matching `q` (all of the event's without one), voided ones included. */
  total: z.number().int(),
});
export type AttendeesPage = z.infer<typeof attendeesPageSchema>;

/** The CSV's header row, in column order: the message key of each heading. */
export const ATTENDEES_CSV_COLUMNS = [
  'attendees.columns.name',
  'attendees.columns.email',
  'attendees.columns.code',
  'attendees.columns.ticket',
  'attendees.columns.status',
  'attendees.columns.boughtAt',
  'attendees.columns.checkedInAt',
  'attendees.columns.checkedInBy',
  'attendees.columns.admittedTwice',
] as const satisfies readonly MessageKey[];

/** A status as the organiser reads it: its message key. */
export function attendeeStatusLabel(status: Attendee['status']): MessageKey {
  if (status === 'checked_in') return 'attendees.statusCheckedIn';
  return status === 'void' ? 'attendees.statusVoid' : 'attendees.statusValid';
}
