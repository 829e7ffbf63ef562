import { z } from 'zod';
import { PAYMENT_METHODS } from './dashboard-labels';
import { addDays, daysBetween, isValidDate } from './dates';
import { msg } from './i18n/text';
import type { MessageKey } from './i18n/types';

export {
  LIVE_SALES_EVENT,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type PaymentMethodKey,
} from './dashboard-labels';

/**
 * The organiser's dashboard (admins only):
 * - GET /api/admin/dashboard?from=&to=&eventId= → the figures of every event together, or of one event, over
 *   the calendar days from..to (inclusive, days in APP_TIMEZONE; both default to the last DASHBOARD_DEFAULT_DAYS
 *   days ending today).
 * - GET /api/admin/orders.csv and /api/admin/attendees.csv with the same query → the orders and the tickets
 *   behind those figures (UTF-8 with a BOM, formula characters escaped).
 * - GET /api/admin/live → Server-Sent Events: the catalogue's `change` messages and a `sales` message {eventId}
 *   whenever a booking of that event is paid or given back or one of its tickets is checked in.
 *
 * What the figures mean, so that they always agree with the orders (the CSV gives the same sums):
 * - a sale is a booking paid in the range, counted on the day it was paid: `ticketsSold`, `grossPiasters`;
 * - a refund is money given back in the range (a buyer's cancellation, the organiser's refund, a cancelled event),
 *   counted on the day it was made: `ticketsRefunded`, `refundedPiasters`; `netPiasters` = gross − refunded;
 * - `checkedIn` counts tickets first admitted in the range that are still valid;
 * - `capacity`, `ticketsValid` (tickets buyers hold now), `checkedInTotal` and `waitlist` are the events' state now.
 * Bookings of deleted events keep their money in the range's figures; the per-event list shows live events only.
 */

export const DASHBOARD_DEFAULT_DAYS = 30;
/** The longest range one request may ask for (two years of days). */
export const DASHBOARD_MAX_DAYS = 731;
/** Arrivals at the door are counted per this many minutes. */
export const ARRIVALS_BUCKET_MINUTES = 15;

const dayParam = z.string().max(20).refine(isValidDate, msg('dashboard.dayInvalid')).optional();

/** Both ends given and real dates (a field's own check reports a bad one). */
function bothDays(q: { from?: string; to?: string }): boolean {
  return q.from !== undefined && q.to !== undefined && isValidDate(q.from) && isValidDate(q.to);
}

export const dashboardQuerySchema = z
  .object({
    from: dayParam,
    to: dayParam,
    eventId: z.string().max(200).optional(),
  })
  .refine((q) => !bothDays(q) || (q.from as string) <= (q.to as string), {
    message: msg('dashboard.rangeReversed'),
    path: ['to'],
  })
  .refine((q) => !bothDays(q) || daysBetween(q.from as string, q.to as string) < DASHBOARD_MAX_DAYS, {
    message: msg('dashboard.rangeTooLong', { max: DASHBOARD_MAX_DAYS }),
    path: ['from'],
  });
export type DashboardQuery = z.output<typeof dashboardQuerySchema>;

const count = z.number().int();

export const dashboardDaySchema = z.object({
  /** YYYY-MM-DD in the app's time zone; every day of the range is there, quiet ones with zeros. */
  day: z.string(),
  ticketsSold: count,
  ticketsRefunded: count,
  grossPiasters: count,
  refundedPiasters: count,
  checkedIn: count,
});
export type DashboardDay = z.infer<typeof dashboardDaySchema>;

export const dashboardHourSchema = z.object({
  /** 'YYYY-MM-DDTHH' in the app's time zone: the hour's start (a day of a DST change has 23 or 25). */
  hour: z.string(),
  ticketsSold: count,
  grossPiasters: count,
});

export const dashboardMethodSchema = z.object({
  method: z.enum(PAYMENT_METHODS),
  bookings: count,
  grossPiasters: count,
});

export const dashboardEventSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  eventDate: z.string(),
  startTime: z.string(),
  capacity: count,
  /** Tickets buyers hold now (sold and not given back). */
  ticketsValid: count,
  /** Of those, checked in. */
  checkedIn: count,
  /** People waiting on the waitlist now. */
  waitlist: count,
  cancelled: z.boolean(),
});
export type DashboardEvent = z.infer<typeof dashboardEventSchema>;

export const dashboardArrivalSchema = z.object({
  /** 'HH:MM' in the app's time zone: the start of the bucket. */
  at: z.string(),
  checkedIn: count,
  /** Check-ins of the day so far, this bucket's included. */
  running: count,
});

export const dashboardSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  /** The one event asked for, else null (every event). */
  event: dashboardEventSchema.nullable(),
  ticketsSold: count,
  ticketsRefunded: count,
  grossPiasters: count,
  refundedPiasters: count,
  netPiasters: count,
  checkedIn: count,
  capacity: count,
  ticketsValid: count,
  checkedInTotal: count,
  waitlist: count,
  byDay: z.array(dashboardDaySchema),
  /** A one-day range: that day's sales per hour; otherwise empty. */
  byHour: z.array(dashboardHourSchema),
  byMethod: z.array(dashboardMethodSchema),
  funnel: z.object({
    /** Event pages opened (counted on the server, no cookies). */
    views: count,
    /** Reservations made: a buyer choosing again while holding tickets is still one, on the day of the first choice. */
    reservations: count,
    /** Bookings paid. */
    paid: count,
  }),
  /** Live events, soonest first (every event) or the one event. */
  events: z.array(dashboardEventSchema),
  /** One event: its day's check-ins per ARRIVALS_BUCKET_MINUTES, from the first to the last; otherwise null. */
  arrivals: z.object({ day: z.string(), buckets: z.array(dashboardArrivalSchema) }).nullable(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** The orders CSV's header row, in column order: the message key of each heading. */
export const ORDERS_CSV_COLUMNS = [
  'dashboard.orderColumns.order',
  'dashboard.orderColumns.event',
  'dashboard.orderColumns.eventDate',
  'dashboard.orderColumns.name',
  'dashboard.orderColumns.email',
  'dashboard.orderColumns.method',
  'dashboard.orderColumns.paidAt',
  'dashboard.orderColumns.tickets',
  'dashboard.orderColumns.paid',
  'dashboard.orderColumns.refundedAt',
  'dashboard.orderColumns.ticketsRefunded',
  'dashboard.orderColumns.refunded',
  'dashboard.orderColumns.status',
] as const satisfies readonly MessageKey[];

/** The days a query asks for: both given, or the last DASHBOARD_DEFAULT_DAYS days ending `today` for what is missing. */
export function resolveRange(query: { from?: string; to?: string }, today: string): { from: string; to: string } {
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, 1 - DASHBOARD_DEFAULT_DAYS);
  return { from, to };
}

/** The range's days, or the message key of why they cannot be given (a range longer than DASHBOARD_MAX_DAYS). */
export function checkedRange(
  query: { from?: string; to?: string },
  today: string,
): { from: string; to: string } | { error: string } {
  const range = resolveRange(query, today);
  if (daysBetween(range.from, range.to) >= DASHBOARD_MAX_DAYS) {
    return { error: msg('dashboard.rangeTooLong', { max: DASHBOARD_MAX_DAYS }) };
  }
  return range;
}
