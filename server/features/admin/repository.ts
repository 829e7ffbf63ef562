import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { EventValues } from '../../../contracts/admin';
import type { DbOrTx } from '../../db/client';
import { categories, events } from '../../db/schema';
import { eventCategoryJoin, eventColumns, titleKey, titleStartsWith } from '../../domain/events';

function activeWhere(q: string): SQL | undefined {
  const active = eq(events.isDeleted, false);
  if (!q) return active;
  return and(active, titleStartsWith(q));
}

export async function listActiveEvents(db: DbOrTx, options: { q: string; limit: number; offset: number }) {
  const where = activeWhere(options.q);
  const [totals] = await db.select({ n: count() }).from(events).where(where);
  const rows = await db
    .select(eventColumns)
    .from(events)
    .innerJoin(categories, eventCategoryJoin)
    .where(where)
    .orderBy(titleKey, asc(events.title), asc(events.id))
    .limit(options.limit)
    .offset(options.offset);
  return { rows, total: totals?.n ?? 0 };
}

export async function findActiveEvent(db: DbOrTx, id: string) {
  const [row] = await db
    .select(eventColumns)
    .from(events)
    .innerJoin(categories, eventCategoryJoin)
    .where(and(eq(events.id, id), eq(events.isDeleted, false)));
  return row;
}

export async function listCategories(db: DbOrTx) {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.position), asc(categories.name));
}

export async function categoryExists(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id));
  return row !== undefined;
}

export async function insertEvent(db: DbOrTx, values: EventValues): Promise<string> {
  const [row] = await db
    .insert(events)
    .values({ ...values, ticketsAvailable: values.capacity })
    .returning({ id: events.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/**
 * Writes an edit in one conditional statement. The capacity moves available tickets by the same delta
 * (held + sold = capacity − available stays as it is), and only if the new capacity still covers what
 * is held or sold at that instant — so concurrent bookings or a second admin can never push
 * availability out of range. Returns false when nothing was written (see `findEventState` for why).
 */
export async function updateEvent(
  db: DbOrTx,
  id: string,
  values: EventValues,
  expectedVersion: number | undefined,
): Promise<boolean> {
  const rows = await db
    .update(events)
    .set({
      ...values,
      ticketsAvailable: sql`${events.ticketsAvailable} + (${values.capacity}::integer - ${events.capacity})`,
      version: sql`${events.version} + 1`,
    })
    .where(
      and(
        eq(events.id, id),
        eq(events.isDeleted, false),
        sql`${events.capacity} - ${events.ticketsAvailable} <= ${values.capacity}::integer`,
        expectedVersion === undefined ? undefined : eq(events.version, expectedVersion),
      ),
    )
    .returning({ id: events.id });
  return rows.length > 0;
}

/** Capacity, availability and state of an event, deleted or not. */
export async function findEventState(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      capacity: events.capacity,
      ticketsAvailable: events.ticketsAvailable,
      isDeleted: events.isDeleted,
      version: events.version,
    })
    .from(events)
    .where(eq(events.id, id));
  return row;
}

export async function softDeleteEvent(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(events)
    .set({ isDeleted: true, deletedAt: sql`now()`, version: sql`${events.version} + 1` })
    .where(and(eq(events.id, id), eq(events.isDeleted, false)))
    .returning({ id: events.id });
  return rows.length > 0;
}

/** The picture and version of an active event, its row locked until the transaction ends (another edit waits). */
export async function lockEventImage(
  db: DbOrTx,
  id: string,
): Promise<{ imageUrl: string; version: number } | undefined> {
  const [row] = await db
    .select({ imageUrl: events.imageUrl, version: events.version })
    .from(events)
    .where(and(eq(events.id, id), eq(events.isDeleted, false)))
    // Not FOR UPDATE: a booking's foreign-key check (FOR KEY SHARE) need not wait for an admin's edit.
    .for('no key update');
  return row;
}

/**
 * Whether an event (deleted or not) shows this picture. The row found is locked FOR SHARE until the
 * transaction ends: that event cannot move to another picture meanwhile, so the picture stays shown.
 */
export async function lockEventShowingImage(db: DbOrTx, imageUrl: string): Promise<boolean> {
  const [row] = await db
    .select({ id: events.id })
    .from(events)
    .where(eq(events.imageUrl, imageUrl))
    .limit(1)
    .for('share');
  return row !== undefined;
}
