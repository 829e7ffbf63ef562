import { inArray } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { events } from '../../db/schema';
import { setupTestApp } from '../../test/helpers';
import { createCatalogueService } from './service';
import { insertEvent } from './test-events';

const ctx = await setupTestApp();
afterAll(() => ctx.close());
const db = ctx.database.db;

/** The catalogue service's archiving, run as if APP_TIMEZONE were `timeZone`. */
function archivePastEvents(timeZone: string, now?: Date) {
  return createCatalogueService({ db, timeZone }).archivePastEvents(now);
}

beforeEach(async () => {
  await db.delete(events);
});

/** An event that ends on `endDate` (and started a few days before). */
function endingOn(endDate: string, title = `ends ${endDate}`) {
  return insertEvent(db, { title, startDate: '2026-03-01', endDate, eventDate: endDate });
}

async function state(ids: string[]) {
  const rows = await db
    .select({ id: events.id, isDeleted: events.isDeleted, deletedAt: events.deletedAt, version: events.version })
    .from(events)
    .where(inArray(events.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, r]));
}

describe('archivePastEvents', () => {
  it('archives an event that ended yesterday in Cairo while it is still today in UTC', async () => {
    // 22:30 UTC on 10 March is 00:30 on 11 March in Cairo (UTC+2).
    const now = new Date('2026-03-10T22:30:00Z');
    const endedTenth = await endingOn('2026-03-10');
    const endsEleventh = await endingOn('2026-03-11');

    expect(await archivePastEvents('UTC', now)).toEqual([]);
    expect((await state([endedTenth.id]))[endedTenth.id]?.isDeleted).toBe(false);

    expect(await archivePastEvents('Africa/Cairo', now)).toEqual([endedTenth.id]);
    const after = await state([endedTenth.id, endsEleventh.id]);
    expect(after[endedTenth.id]).toMatchObject({ isDeleted: true, version: 2 });
    expect(after[endedTenth.id]?.deletedAt).toBeInstanceOf(Date);
    expect(after[endsEleventh.id]).toMatchObject({ isDeleted: false, version: 1, deletedAt: null });
  });

  it('keeps an event that ends today in Cairo until Cairo midnight', async () => {
    const endsToday = await endingOn('2026-04-20');
    // 21:59 UTC is 23:59 in Cairo: still the 20th there.
    expect(await archivePastEvents('Africa/Cairo', new Date('2026-04-20T21:59:00Z'))).toEqual([]);
    // One minute after Cairo midnight.
    expect(await archivePastEvents('Africa/Cairo', new Date('2026-04-20T22:01:00Z'))).toEqual([endsToday.id]);
  });

  it('archives by UTC while the app zone still says today, the reverse edge', async () => {
    // 03:00 UTC on 12 May is 20:00 on 11 May in Los Angeles: yesterday in UTC, today there.
    const now = new Date('2026-05-12T03:00:00Z');
    const endedEleventh = await endingOn('2026-05-11');
    expect(await archivePastEvents('America/Los_Angeles', now)).toEqual([]);
    expect((await state([endedEleventh.id]))[endedEleventh.id]?.isDeleted).toBe(false);
    expect(await archivePastEvents('UTC', now)).toEqual([endedEleventh.id]);
  });

  it('leaves already deleted events alone', async () => {
    const deletedAt = new Date('2026-01-01T00:00:00Z');
    const gone = await insertEvent(db, {
      startDate: '2026-01-01',
      endDate: '2026-01-02',
      eventDate: '2026-01-02',
      isDeleted: true,
      deletedAt,
    });
    await archivePastEvents('Africa/Cairo', new Date('2026-06-01T12:00:00Z'));
    expect((await state([gone.id]))[gone.id]).toMatchObject({ isDeleted: true, version: 1, deletedAt });
  });

  it('runs at start-up under the scheduler, so past events never show in the list', async () => {
    const past = await insertEvent(db, { startDate: '2025-01-01', endDate: '2025-01-02', eventDate: '2025-01-02' });
    const ran = await ctx.app.scheduler.runNow('archive-past-events', () => archivePastEvents('Africa/Cairo'));
    expect(ran).toBe(true);
    expect((await state([past.id]))[past.id]?.isDeleted).toBe(true);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/events/${past.id}` });
    expect(res.statusCode).toBe(404);
  });
});
