import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { eventInputSchema } from '../../../contracts/admin';
import { addDays, formatTime12, todayIn, weekdayOf } from '../../../contracts/dates';
import { i18nOf } from '../../../contracts/i18n/all';
import { messageText } from '../../../contracts/i18n/text';
import { createCatalogueService } from '../../features/catalogue/service';
import { uploadImage } from '../admin-fixtures';
import { setupTestApp } from '../helpers';
import { describeResponse, insertEvent } from './support';

/**
 * Date rules under any process time zone. `npm run test:hard` runs this file with the process under
 * TZ=UTC, Africa/Cairo, Pacific/Auckland and America/Los_Angeles; `npm test` runs it once in the ambient
 * zone. Every answer below must be the same in all of them: "today" is always asked of APP_TIMEZONE.
 */

const processZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** [instant, APP_TIMEZONE, the calendar date there] around midnights and daylight-saving changes. */
const EDGES: Array<[string, string, string]> = [
  // Cairo: UTC+2 in winter, UTC+3 from the last Friday of April (2026-04-24 00:00 → 01:00).
  ['2026-01-15T21:59:00Z', 'Africa/Cairo', '2026-01-15'],
  ['2026-01-15T22:00:00Z', 'Africa/Cairo', '2026-01-16'],
  ['2026-04-23T21:59:00Z', 'Africa/Cairo', '2026-04-23'],
  ['2026-04-23T22:00:00Z', 'Africa/Cairo', '2026-04-24'],
  ['2026-06-15T20:59:00Z', 'Africa/Cairo', '2026-06-15'],
  ['2026-06-15T21:00:00Z', 'Africa/Cairo', '2026-06-16'],
  // Auckland: NZDT (UTC+13) ends 2026-04-05 03:00 → 02:00 NZST (UTC+12); starts 2026-09-27 02:00 → 03:00.
  ['2026-04-04T10:59:00Z', 'Pacific/Auckland', '2026-04-04'],
  ['2026-04-04T11:00:00Z', 'Pacific/Auckland', '2026-04-05'],
  ['2026-04-05T11:59:00Z', 'Pacific/Auckland', '2026-04-05'],
  ['2026-04-05T12:00:00Z', 'Pacific/Auckland', '2026-04-06'],
  ['2026-09-26T11:59:00Z', 'Pacific/Auckland', '2026-09-26'],
  ['2026-09-26T12:00:00Z', 'Pacific/Auckland', '2026-09-27'],
  // Los Angeles: PST → PDT on 2026-03-08 at 02:00; PDT → PST on 2026-11-01 at 02:00.
  ['2026-03-08T07:59:00Z', 'America/Los_Angeles', '2026-03-07'],
  ['2026-03-08T08:00:00Z', 'America/Los_Angeles', '2026-03-08'],
  ['2026-03-09T06:59:00Z', 'America/Los_Angeles', '2026-03-08'],
  ['2026-03-09T07:00:00Z', 'America/Los_Angeles', '2026-03-09'],
  ['2026-11-01T06:59:00Z', 'America/Los_Angeles', '2026-10-31'],
  ['2026-11-01T07:00:00Z', 'America/Los_Angeles', '2026-11-01'],
  ['2026-11-02T07:59:00Z', 'America/Los_Angeles', '2026-11-01'],
  ['2026-11-02T08:00:00Z', 'America/Los_Angeles', '2026-11-02'],
  // UTC itself, and the zones 25 hours apart.
  ['2026-12-31T23:59:59Z', 'UTC', '2026-12-31'],
  ['2027-01-01T00:00:00Z', 'UTC', '2027-01-01'],
  ['2026-06-15T10:30:00Z', 'Pacific/Kiritimati', '2026-06-16'],
  ['2026-06-15T10:30:00Z', 'Pacific/Pago_Pago', '2026-06-14'],
];

describe(`date rules with the process in ${processZone}`, () => {
  it.each(EDGES)('at %s "today" in %s is %s', (instant, zone, expected) => {
    expect(todayIn(zone, new Date(instant))).toBe(expected);
  });

  it.each(EDGES)('around %s, "today" in %s is remembered only while it holds', (instant, zone) => {
    // todayIn remembers the date for the rest of the minute: sweep the edge every 250 ms, in order, and
    // compare with a date formatted afresh each time.
    const fresh = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    const edge = new Date(instant).getTime();
    for (let at = edge - 90_000; at <= edge + 90_000; at += 250) {
      expect(todayIn(zone, new Date(at)), new Date(at).toISOString()).toBe(fresh.format(new Date(at)));
    }
  });

  it.each([
    ['2026-03-07', 'Saturday'],
    ['2026-03-08', 'Sunday'],
    ['2026-03-29', 'Sunday'],
    ['2026-04-05', 'Sunday'],
    ['2026-04-24', 'Friday'],
    ['2026-09-27', 'Sunday'],
    ['2026-10-25', 'Sunday'],
    ['2026-11-01', 'Sunday'],
    ['2028-02-29', 'Tuesday'],
    ['2027-01-01', 'Friday'],
  ])('shows %s as a %s', (date, weekday) => {
    expect(weekdayOf(date)).toBe(weekday);
  });

  it.each([
    ['00:00', '12:00 AM'],
    ['00:30', '12:30 AM'],
    ['02:30', '02:30 AM'],
    ['11:59', '11:59 AM'],
    ['12:00', '12:00 PM'],
    ['12:01:00', '12:01 PM'],
    ['23:59', '11:59 PM'],
  ])('prints %s as %s', (time, printed) => {
    expect(formatTime12(time)).toBe(printed);
  });

  it.each([
    ['2026-03-07', 1, '2026-03-08'],
    ['2026-03-08', 1, '2026-03-09'],
    ['2026-04-04', 1, '2026-04-05'],
    ['2026-10-31', 1, '2026-11-01'],
    ['2026-11-01', -1, '2026-10-31'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2028-02-28', 1, '2028-02-29'],
  ])('adds days across daylight-saving changes: %s + %i = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it.each(EDGES)('at %s in %s, a start date of today (%s) is allowed and yesterday is not', (instant, zone) => {
    const today = todayIn(zone, new Date(instant));
    const base = {
      title: 'Edge',
      host: 'Host',
      location: 'Cairo',
      description: 'Around midnight',
      price: '100',
      tickets: '10',
      categoryId: 'music',
      startTime: '19:00',
      endTime: '22:00',
      imageUrl: '/uploads/eventImg/00000000-0000-0000-0000-000000000000.webp',
    };
    const errorsFor = (startDate: string) => {
      const result = eventInputSchema(today).safeParse({
        ...base,
        startDate,
        endDate: startDate,
        eventDate: startDate,
      });
      return result.success
        ? []
        : result.error.issues.filter((i) => i.path[0] === 'startDate').map((i) => messageText(i18nOf('en'), i.message));
    };
    expect(errorsFor(today)).toEqual([]);
    expect(errorsFor(addDays(today, -1))).toEqual(['Start date must be today or later']);
  });
});

const cairo = await setupTestApp();
const losAngeles = await setupTestApp({ config: { timeZone: 'America/Los_Angeles' } });
afterAll(async () => {
  await cairo.close();
  await losAngeles.close();
});

describe(`the server’s date rules with the process in ${processZone}`, () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  async function createEventAt(ctx: typeof cairo, instant: string, startDate: string) {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(instant));
    const admin = await ctx.createUser({ role: 'admin' });
    const imageUrl = await uploadImage(ctx, admin);
    return ctx.request(admin, {
      method: 'POST',
      url: '/api/admin/events',
      payload: {
        title: `Edge ${instant}`,
        host: 'Host',
        location: 'Cairo',
        description: 'Created around midnight',
        price: 100,
        tickets: 10,
        categoryId: 'music',
        startDate,
        endDate: startDate,
        eventDate: startDate,
        startTime: '19:00',
        endTime: '22:00',
        imageUrl,
      },
    });
  }

  it('refuses yesterday in Cairo although it is still that day in UTC', async () => {
    // 21:30 UTC on 15 June is 00:30 on 16 June in Cairo (UTC+3).
    const refused = await createEventAt(cairo, '2026-06-15T21:30:00Z', '2026-06-15');
    expect(refused.statusCode, describeResponse(refused)).toBe(400);
    expect(refused.json().errors?.startDate).toBe('Start date must be today or later');
    const accepted = await createEventAt(cairo, '2026-06-15T21:30:00Z', '2026-06-16');
    expect(accepted.statusCode, describeResponse(accepted)).toBe(201);
  });

  it('accepts today in Los Angeles although UTC has moved on to the next day', async () => {
    // 07:59 UTC on 8 March is 23:59 on 7 March in Los Angeles, the night the clocks go forward.
    const accepted = await createEventAt(losAngeles, '2026-03-08T07:59:00Z', '2026-03-07');
    expect(accepted.statusCode, describeResponse(accepted)).toBe(201);
  });

  it.each(EDGES.filter(([, zone]) => zone !== 'Pacific/Kiritimati' && zone !== 'Pacific/Pago_Pago'))(
    'archives at %s in %s only what ended before %s',
    async (instant, zone, today) => {
      const endedYesterday = await insertEvent(cairo.database, {
        startDate: addDays(today, -3),
        endDate: addDays(today, -1),
        eventDate: addDays(today, -1),
      });
      const endsToday = await insertEvent(cairo.database, {
        startDate: addDays(today, -3),
        endDate: today,
        eventDate: today,
      });
      const archived = await createCatalogueService({ db: cairo.database.db, timeZone: zone }).archivePastEvents(
        new Date(instant),
      );
      expect(archived).toContain(endedYesterday.id);
      expect(archived).not.toContain(endsToday.id);
    },
  );

  it('shows event dates and times exactly as stored, even on a night whose 02:30 does not exist', async () => {
    const event = await insertEvent(cairo.database, {
      startDate: '2030-03-10',
      endDate: '2030-03-10',
      eventDate: '2030-03-10',
      startTime: '02:30',
      endTime: '23:59',
    });
    const res = await cairo.app.inject({ method: 'GET', url: `/api/events/${event.id}` });
    expect(res.statusCode, describeResponse(res)).toBe(200);
    expect(res.json()).toMatchObject({
      startDate: '2030-03-10',
      endDate: '2030-03-10',
      eventDate: '2030-03-10',
      startTime: '02:30',
      endTime: '23:59',
    });
  });
});
