import { addDays, todayIn } from '../../../contracts/dates';
import type { DbOrTx } from '../../db/client';
import { events } from '../../db/schema';

let counter = 0;

/** Inserts an event straight into the table (tests only): a future, active event unless told otherwise. */
export async function insertEvent(db: DbOrTx, overrides: Partial<typeof events.$inferInsert> = {}) {
  counter += 1;
  const today = todayIn('Africa/Cairo');
  const eventDate = overrides.eventDate ?? addDays(today, 30);
  const capacity = overrides.capacity ?? 100;
  const [row] = await db
    .insert(events)
    .values({
      title: `Test event ${counter}`,
      host: 'Test Host',
      location: 'Cairo',
      description: 'A test event',
      pricePiasters: 15_000,
      capacity,
      ticketsAvailable: capacity,
      startDate: overrides.startDate ?? today,
      endDate: overrides.endDate ?? eventDate,
      eventDate,
      startTime: '19:00',
      endTime: '22:00',
      imageUrl: '/uploads/eventImg/test.webp',
      categoryId: 'music',
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('insert failed');
  return row;
}
