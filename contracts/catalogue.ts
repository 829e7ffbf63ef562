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
