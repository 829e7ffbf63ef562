import { todayIn } from '../../../contracts/dates';
import type { Queryable } from '../../db/client';
import { addPageViews, isLiveEvent } from './repository';

/** How often the views counted in memory are written. */
export const VIEWS_FLUSH_MS = 5_000;
/** Distinct (event, day) pairs kept between writes: made-up ids cannot grow the memory past this. */
const MAX_PENDING = 10_000;

/**
 * Event pages opened, for the dashboard's funnel: counted in this process's memory and added to `page_views`
 * every few seconds (and when the app closes), so that a page view costs no database write of its own. Views of
 * ids that are no event are dropped when written. A crash loses at most the last few seconds' views.
 */
export function createViewCounter({ db, timeZone }: { db: Queryable; timeZone: string }) {
  let pending = new Map<string, number>();
  /** Ids already looked up (true: a live event); forgotten when it grows past MAX_PENDING. */
  let known = new Map<string, boolean>();

  /** Whether `eventId` is an event not deleted (asked once per id, then remembered). */
  async function exists(eventId: string): Promise<boolean> {
    const seen = known.get(eventId);
    if (seen !== undefined) return seen;
    const live = await isLiveEvent(db, eventId);
    if (known.size >= MAX_PENDING) known = new Map();
    known.set(eventId, live);
    return live;
  }

  function count(eventId: string): void {
    const key = `${eventId}|${todayIn(timeZone)}`;
    const seen = pending.get(key);
    if (seen === undefined && pending.size >= MAX_PENDING) return;
    pending.set(key, (seen ?? 0) + 1);
  }

  async function flush(): Promise<void> {
    if (pending.size === 0) return;
    const writing = pending;
    pending = new Map();
    const rows = [...writing].map(([key, views]): [string, string, number] => {
      const [eventId = '', day = ''] = key.split('|');
      return [eventId, day, views];
    });
    try {
      await addPageViews(db, rows);
    } catch (error) {
      // The database is away: keep the counts for the next write.
      for (const [key, views] of writing) pending.set(key, (pending.get(key) ?? 0) + views);
      throw error;
    }
  }

  return { count, exists, flush };
}

export type ViewCounter = ReturnType<typeof createViewCounter>;
