import { and, asc, count, eq, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Category, EventSearchHit } from '../../../contracts/catalogue';
import type { DbOrTx } from '../../db/client';
import { categories, events } from '../../db/schema';
import { eventCategoryJoin, eventColumns, titleKey, titleStartsWith, toEventDto } from '../../domain/events';

export interface EventFilter {
  /** A category id ('music') or name, case-insensitively ('Food & Drink'), resolved inside the query. */
  categoryIdOrName?: string;
  /** Lower-cased title prefix; matched literally (LIKE wildcards are escaped). */
  titlePrefix?: string;
}

/** Events on sale in the lists and searches: not deleted, not cancelled (a cancelled one keeps its own page). */
function activeEventsWhere(filter: EventFilter): SQL | undefined {
  const conditions: SQL[] = [eq(events.isDeleted, false), isNull(events.cancelledAt)];
  if (filter.categoryIdOrName !== undefined)
    conditions.push(eq(events.categoryId, categoryIdQuery(filter.categoryIdOrName)));
  if (filter.titlePrefix) {
    conditions.push(titleStartsWith(filter.titlePrefix));
  }
  return and(...conditions);
}

export async function listCategories(db: DbOrTx): Promise<Category[]> {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.position), asc(categories.name));
}

/** The id of a category given by its id ('music') or its name, case-insensitively ('Food & Drink'); an id wins. */
function categoryIdQuery(idOrName: string): SQL {
  return sql`(SELECT ${categories.id} FROM ${categories}
    WHERE ${categories.id} = ${idOrName} OR lower(${categories.name}) = lower(${idOrName})
    ORDER BY ${categories.id} = ${idOrName} DESC LIMIT 1)`;
}

export async function countActiveEvents(db: DbOrTx, filter: EventFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(events).where(activeEventsWhere(filter));
  return row?.n ?? 0;
}

/**
 * One page of active events in running order (event date, then start time; id keeps equal rows stable across
 * pages) and, in the same query, how many match in all. `total` is undefined when the page is empty (nothing
 * matches, or the offset is past the last one).
 */
export async function listActiveEventsPage(
  db: DbOrTx,
  filter: EventFilter,
  limit: number,
  offset: number,
  timeZone: string,
) {
  const rows = await db
    .select({ ...eventColumns, total: sql<number>`count(*) OVER ()`.mapWith(Number) })
    .from(events)
    .innerJoin(categories, eventCategoryJoin)
    .where(activeEventsWhere(filter))
    .orderBy(asc(events.eventDate), asc(events.startTime), asc(events.id))
    .limit(limit)
    .offset(offset);
  return {
    items: rows.map(({ total: _total, ...row }) => toEventDto(row, timeZone)),
    total: rows[0]?.total,
  };
}

export async function findActiveEvent(db: DbOrTx, id: string, timeZone: string) {
  const [row] = await db
    .select(eventColumns)
    .from(events)
    .innerJoin(categories, eventCategoryJoin)
    .where(and(eq(events.id, id), eq(events.isDeleted, false)));
  return row ? toEventDto(row, timeZone) : undefined;
}

export async function searchActiveTitles(db: DbOrTx, titlePrefix: string, limit: number): Promise<EventSearchHit[]> {
  return db
    .select({ id: events.id, title: events.title, imageUrl: events.imageUrl })
    .from(events)
    .where(activeEventsWhere({ titlePrefix }))
    .orderBy(titleKey, asc(events.eventDate), asc(events.id))
    .limit(limit);
}

/** Soft-deletes every active event that ended before `today` ('YYYY-MM-DD'); returns their ids. */
export async function archiveEventsEndedBefore(db: DbOrTx, today: string): Promise<string[]> {
  const rows = await db
    .update(events)
    .set({ isDeleted: true, deletedAt: sql`now()`, version: sql`${events.version} + 1` })
    .where(and(eq(events.isDeleted, false), lt(events.endDate, today)))
    .returning({ id: events.id });
  return rows.map((r) => r.id);
}
