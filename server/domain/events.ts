import { eq, type SQL, sql } from 'drizzle-orm';
import { eventInstants } from '../../contracts/calendar';
import type { EventDto } from '../../contracts/catalogue';
import { refundDeadline } from '../../contracts/refunds';
import { categories, events } from '../db/schema';
import { titleSearchKey } from '../db/title-search';

/**
 * The one mapping from an events row to its API shape, shared by every feature that shows events.
 * Select `eventColumns` from `events` joined with `categories` on `eventCategoryJoin`.
 */
export const eventColumns = {
  id: events.id,
  title: events.title,
  host: events.host,
  location: events.location,
  description: events.description,
  pricePiasters: events.pricePiasters,
  capacity: events.capacity,
  ticketsAvailable: events.ticketsAvailable,
  startDate: events.startDate,
  endDate: events.endDate,
  eventDate: events.eventDate,
  startTime: events.startTime,
  endTime: events.endTime,
  imageUrl: events.imageUrl,
  categoryId: events.categoryId,
  categoryName: categories.name,
  isDeleted: events.isDeleted,
  version: events.version,
  refundHoursBefore: events.refundHoursBefore,
  cancellationFeePercent: events.cancellationFeePercent,
  cancelledAt: events.cancelledAt,
};

export const eventCategoryJoin = eq(categories.id, events.categoryId);

type EventRow = { [K in keyof typeof eventColumns]: unknown } & {
  startTime: string;
  endTime: string;
  cancelledAt: Date | null;
};

/** 'HH:MM:SS' from PostgreSQL → 'HH:MM'. */
export function hhmm(time: string): string {
  return time.slice(0, 5);
}

/** The API's event; its start (for `refundsUntil`) is read in `timeZone`, APP_TIMEZONE. */
export function toEventDto(row: EventRow, timeZone: string): EventDto {
  const dto = row as unknown as Omit<EventDto, 'refundsUntil'>;
  const { start } = eventInstants(
    { eventDate: dto.eventDate, startTime: row.startTime, endTime: row.endTime },
    timeZone,
  );
  return {
    ...dto,
    startTime: hhmm(row.startTime),
    endTime: hhmm(row.endTime),
    cancelledAt: row.cancelledAt ? row.cancelledAt.toISOString() : null,
    refundsUntil: refundDeadline(start, dto.refundHoursBefore)?.toISOString() ?? null,
  };
}

/**
 * An event's title as lists sort it: lower-cased by ICU's Unicode rules, whatever the database's locale (the
 * embedded one is created with the C locale, whose lower() only knows A-Z), and sorted by ICU's root
 * collation ('Élan' between 'Eagle' and 'Fan').
 */
export const titleKey: SQL = sql`lower(${events.title} COLLATE "und-x-icu")`;

/**
 * Titles that start with `text`, in any letter case and with or without diacritics (titleSearchKey on both
 * sides); `%`, `_` and `\` typed by a user are matched literally.
 */
export function titleStartsWith(text: string): SQL {
  const literal = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql`${titleSearchKey(events.title)} LIKE (${titleSearchKey(sql`${literal}::text`)} || '%') ESCAPE '\\'`;
}
