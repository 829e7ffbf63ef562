import { z } from 'zod';
import { SEARCH_QUERY_MAX_LENGTH } from './constants';

export const categorySchema = z.object({ id: z.string(), name: z.string() });
export type Category = z.infer<typeof categorySchema>;

/** An event as the API shows it. Money is integer piasters; times are 24-hour 'HH:MM' (the UI prints 12-hour). */
export const eventSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  host: z.string(),
  location: z.string(),
  description: z.string(),
  pricePiasters: z.number().int(),
  capacity: z.number().int(),
  ticketsAvailable: z.number().int(),
  startDate: z.string(),
  endDate: z.string(),
  eventDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  imageUrl: z.string(),
  categoryId: z.string(),
  categoryName: z.string(),
  isDeleted: z.boolean(),
  version: z.number().int(),
  /** Refund policy (contracts/refunds.ts): buyers may cancel until this many hours before the start; 0: never. */
  refundHoursBefore: z.number().int(),
  /** The percentage kept when a buyer cancels. */
  cancellationFeePercent: z.number().int(),
  /**
   * The last instant a buyer may cancel (ISO): `refundHoursBefore` before the start in APP_TIMEZONE, which the
   * browser does not know; null when the event gives no refunds. Past it, the page says the time has passed.
   */
  refundsUntil: z.string().nullable(),
  /** When the organiser cancelled the event (ISO), or null: its page says 'This event has been cancelled'. */
  cancelledAt: z.string().nullable(),
});
export type EventDto = z.infer<typeof eventSchema>;

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    pageCount: z.number().int(),
    total: z.number().int(),
  });
}

/** Free text searched as a case-insensitive title prefix; longer input is cut, never rejected. */
export const searchQuerySchema = z
  .string()
  .optional()
  .transform((v) => (v ?? '').trim().slice(0, SEARCH_QUERY_MAX_LENGTH));

/**
 * The page of a list query: missing, malformed or below 1 means page 1; above `max` means `max` (the
 * server then answers the last page there is, as for any page past the last).
 */
export function pageQueryParam(max: number) {
  // Number() rather than z.coerce, which refuses Infinity (it would mean page 1).
  return z
    .unknown()
    .optional()
    .transform((value) => {
      const page = Number(value);
      if (page > max) return max;
      return Number.isInteger(page) && page >= 1 ? page : 1;
    });
}

/** Query of GET /api/events. A missing, malformed or non-positive page means page 1; past the last is clamped. */
export const eventsQuerySchema = z.object({
  /** A category id or name; an unknown one (however long) simply matches nothing. */
  category: z
    .string()
    .optional()
    .transform((v) => v?.trim().slice(0, 200)),
  q: searchQuerySchema,
  page: pageQueryParam(1_000_000),
});
export type EventsQuery = z.input<typeof eventsQuerySchema>;

export const eventsPageSchema = pageSchema(eventSchema);
export type EventsPage = z.infer<typeof eventsPageSchema>;

export const categoriesResponseSchema = z.array(categorySchema);

/** One hit of the header's live search: just enough for an image and a title. */
export const eventSearchHitSchema = z.object({ id: z.uuid(), title: z.string(), imageUrl: z.string() });
export type EventSearchHit = z.infer<typeof eventSearchHitSchema>;
export const eventSearchQuerySchema = z.object({ q: searchQuerySchema });
export const eventSearchResponseSchema = z.object({ items: z.array(eventSearchHitSchema) });
export type EventSearchResponse = z.infer<typeof eventSearchResponseSchema>;

/** Path of GET /api/events/:id. Any string is accepted; a malformed id is simply not found (404). */
export const eventIdParamsSchema = z.object({ id: z.string().max(200) });

/**
 * What GET /api/events/live sends in each `change` message: an event was inserted, updated (price,
 * availability, soft delete...) or deleted. `resync` messages (no data) mean "changes may have been missed,
 * refetch everything".
 */
export const liveEventChangeSchema = z.object({
  op: z.enum(['insert', 'update', 'delete']),
  id: z.uuid(),
  ticketsAvailable: z.number().int(),
  isDeleted: z.boolean(),
  version: z.number().int(),
});
export type LiveEventChange = z.infer<typeof liveEventChangeSchema>;
// The message names live in a zod-free module (the web's first load uses them).
export { LIVE_CHANGE_EVENT, LIVE_READY_EVENT, LIVE_RESYNC_EVENT } from './live';
