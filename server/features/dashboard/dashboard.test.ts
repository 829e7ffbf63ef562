import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../../contracts/dashboard';
import { addDays, todayIn } from '../../../contracts/dates';
import { buyTickets, createTestEvent, expectCapacityInvariant } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';
import { parseCsv } from '../../test/parse-csv';
import { closeDashboardDays, eventBookingFigures, reopenDashboardDays } from './repository';

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());

const ZONE = 'Africa/Cairo';
const admin = await ctx.createUser({ role: 'admin' });

async function dashboard(query: string, user: TestUser = admin): Promise<Dashboard> {
  const res = await ctx.request(user, { method: 'GET', url: `/api/admin/dashboard?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function csv(path: string, query: string, language = 'en'): Promise<{ rows: string[][]; raw: string }> {
  const res = await ctx.request(admin, {
    method: 'GET',
    url: `/api/admin/${path}?${query}`,
    headers: { 'accept-language': language },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  return { rows: parseCsv(res.body.replace(/^\uFEFF/, '')), raw: res.body };
}

/** Moves a booking's payment to `at` (what a payment made then would have written). */
async function paidAt(bookingId: string, at: string): Promise<void> {
  await pool.query('UPDATE bookings SET paid_at = $2, created_at = $2 WHERE id = $1', [bookingId, at]);
}

describe('the figures of one event', () => {
  it('counts a sale on its day in Cairo, to the second, across midnight', async () => {
    const event = await createTestEvent(pool, { capacity: 50, pricePiasters: 15_050 });
    const buyer = await ctx.createUser();
    const late = await buyTickets(ctx, buyer, event.id, 2);
    const early = await buyTickets(ctx, buyer, event.id, 3);
    // Cairo is UTC+2 in December: 21:59:59Z is 23:59:59 on the 1st there, 22:00:00Z is midnight of the 2nd.
    await paidAt(late, '2026-12-01T21:59:59Z');
    await paidAt(early, '2026-12-01T22:00:00Z');

    const first = await dashboard(`from=2026-12-01&to=2026-12-01&eventId=${event.id}`);
    expect(first.ticketsSold).toBe(2);
    expect(first.grossPiasters).toBe(30_100);
    expect(first.byHour).toHaveLength(24);
    expect(first.byHour.at(-1)).toEqual({ hour: '2026-12-01T23', ticketsSold: 2, grossPiasters: 30_100 });

    const both = await dashboard(`from=2026-12-01&to=2026-12-02&eventId=${event.id}`);
    expect(both.byDay).toEqual([
      {
        day: '2026-12-01',
        ticketsSold: 2,
        ticketsRefunded: 0,
        grossPiasters: 30_100,
        refundedPiasters: 0,
        checkedIn: 0,
      },
      {
        day: '2026-12-02',
        ticketsSold: 3,
        ticketsRefunded: 0,
        grossPiasters: 45_150,
        refundedPiasters: 0,
        checkedIn: 0,
      },
    ]);
    expect(both.byHour).toEqual([]);
    expect(both.byMethod).toEqual([{ method: 'simulated', bookings: 2, grossPiasters: 75_250 }]);
    expect(both.funnel.paid).toBe(2);
    expect(both.event).toMatchObject({ id: event.id, capacity: 50, ticketsValid: 5, checkedIn: 0, waitlist: 0 });
    expect(both.events).toHaveLength(1);
    expect(both).toMatchObject({ capacity: 50, ticketsValid: 5, netPiasters: 75_250, timeZone: ZONE });
  });

  it('counts refunds on the day they are made and check-ins of valid tickets, live figures and arrivals', async () => {
    const event = await createTestEvent(pool, { capacity: 20, pricePiasters: 10_000 });
    const buyer = await ctx.createUser();
    const bookingId = await buyTickets(ctx, buyer, event.id, 4);
    const today = todayIn(ZONE);
    const tickets = await pool.query<{ id: string }>('SELECT id FROM tickets WHERE booking_id = $1 ORDER BY number', [
      bookingId,
    ]);
    const [first, second] = tickets.rows;
    const eventDate = (
      await pool.query<{ d: string }>('SELECT event_date::text AS d FROM events WHERE id = $1', [event.id])
    ).rows[0]?.d as string;
    // Two arrivals, moved to the event's day 20 minutes apart (a device cannot scan in the future).
    for (const [ticket, at] of [
      [first, `${eventDate}T17:05:00Z`],
      [second, `${eventDate}T17:25:00Z`],
    ] as const) {
      const synced = await ctx.request(admin, {
        method: 'POST',
        url: `/api/check-in/${event.id}/sync`,
        payload: { scans: [{ nonce: randomUUID(), ticketId: ticket?.id, scannedAt: new Date().toISOString() }] },
      });
      expect(synced.statusCode, synced.body).toBe(200);
      await pool.query('UPDATE tickets SET checked_in_at = $2 WHERE id = $1', [ticket?.id, at]);
    }
    const refunded = await ctx.request(buyer, {
      method: 'POST',
      url: `/api/bookings/${bookingId}/cancel`,
      payload: { quantity: 1 },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);

    const figures = await dashboard(`from=${today}&to=${today}&eventId=${event.id}`);
    expect(figures).toMatchObject({
      ticketsSold: 4,
      ticketsRefunded: 1,
      grossPiasters: 40_000,
      refundedPiasters: 10_000,
      netPiasters: 30_000,
      ticketsValid: 3,
    });
    // The partial refund voided the last ticket; the two admitted stay valid.
    expect(figures.checkedInTotal).toBe(2);
    expect(figures.event?.checkedIn).toBe(2);
    // Cairo is UTC+2 in winter: 17:05Z is 19:05, 17:25Z is 19:25 there.
    expect(figures.arrivals).toEqual({
      day: eventDate,
      buckets: [
        { at: '19:00', checkedIn: 1, running: 1 },
        { at: '19:15', checkedIn: 1, running: 2 },
      ],
    });
  });

  it('counts the event page’s views for the funnel, and reservations once per buyer and day', async () => {
    const event = await createTestEvent(pool, { capacity: 20 });
    for (let i = 0; i < 3; i++) {
      const res = await ctx.request(undefined, { method: 'POST', url: `/api/events/${event.id}/view` });
      expect(res.statusCode).toBe(204);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect((await ctx.request(undefined, { method: 'POST', url: '/api/events/not-an-id/view' })).statusCode).toBe(404);
    const buyer = await ctx.createUser();
    // Reserving twice (a change of quantity) is one reservation; paying makes it paid.
    for (const quantity of [1, 2]) {
      const res = await ctx.request(buyer, {
        method: 'POST',
        url: '/api/bookings',
        payload: { eventId: event.id, quantity },
      });
      expect(res.statusCode).toBe(201);
    }
    await buyTickets(ctx, await ctx.createUser(), event.id, 1);
    const today = todayIn(ZONE);
    // Views are written every few seconds.
    let figures = await dashboard(`from=${today}&to=${today}&eventId=${event.id}`);
    for (let tries = 0; figures.funnel.views < 3 && tries < 40; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      figures = await dashboard(`from=${today}&to=${today}&eventId=${event.id}`);
    }
    expect(figures.funnel).toEqual({ views: 3, reservations: 2, paid: 1 });
  });
});

describe('admins asking for different days of one event at once', () => {
  it('each get the figures of their own days, as if they had asked alone', async () => {
    const event = await createTestEvent(pool, { capacity: 100, pricePiasters: 10_000 });
    const buyer = await ctx.createUser();
    // One sale on each of twelve days, of 1 to 4 tickets.
    const quantities = [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4];
    for (const [i, quantity] of quantities.entries()) {
      const id = await buyTickets(ctx, buyer, event.id, quantity);
      await paidAt(id, `2026-10-${String(i + 1).padStart(2, '0')}T10:00:00Z`);
    }
    const ranges = [
      ['2026-10-01', '2026-10-12'],
      ['2026-10-03', '2026-10-05'],
      ['2026-10-02', '2026-10-11'],
      ['2026-10-10', '2026-10-20'],
      ['2026-09-20', '2026-10-01'],
      ['2026-10-06', '2026-10-07'],
      ['2026-10-01', '2026-10-12'],
      // One-day ranges, with their hours: shared too, and each day's hours its own.
      ['2026-10-04', '2026-10-04'],
      ['2026-10-09', '2026-10-09'],
    ];
    const query = ([from, to]: string[]) => `from=${from}&to=${to}&eventId=${event.id}`;
    const alone = [];
    for (const range of ranges) alone.push(await dashboard(query(range)));
    // Twice, all at once: the later requests join or wait for the statements the earlier ones started.
    for (let round = 0; round < 2; round++) {
      const together = await Promise.all(ranges.map((range) => dashboard(query(range))));
      expect(together).toEqual(alone);
    }
    const sold = (from: number, to: number) => quantities.slice(from - 1, to).reduce((a, b) => a + b, 0);
    expect(alone.map((d) => d.ticketsSold)).toEqual([
      sold(1, 12),
      sold(3, 5),
      sold(2, 11),
      sold(10, 12),
      1,
      sold(6, 7),
      sold(1, 12),
      sold(4, 4),
      sold(9, 9),
    ]);
    expect(alone[7]?.byHour).toHaveLength(24);
    expect(alone[7]?.byHour.reduce((total, hour) => total + hour.ticketsSold, 0)).toBe(sold(4, 4));
    expect(alone[1]?.byDay.map((day) => day.day)).toEqual(['2026-10-03', '2026-10-04', '2026-10-05']);
  });
});

describe('closed days (decision 025)', () => {
  /** The figures of `query` as they are read now, and as they are read from the orders alone (nothing closed). */
  async function keptAndLive(query: string): Promise<{ kept: Dashboard; live: Dashboard }> {
    const kept = await dashboard(query);
    const { last } = (
      await pool.query<{ last: string | null }>('SELECT max(last_day)::text AS last FROM dashboard_closed')
    ).rows[0] as { last: string | null };
    await reopenDashboardDays(pool);
    const live = await dashboard(query);
    if (last) await closeDashboardDays(pool, ZONE, last);
    return { kept, live };
  }

  async function checkIn(eventId: string, ticketId: string, at: string): Promise<void> {
    const synced = await ctx.request(admin, {
      method: 'POST',
      url: `/api/check-in/${eventId}/sync`,
      payload: { scans: [{ nonce: randomUUID(), ticketId, scannedAt: new Date().toISOString() }] },
    });
    expect(synced.statusCode, synced.body).toBe(200);
    await pool.query('UPDATE tickets SET checked_in_at = $2 WHERE id = $1', [ticketId, at]);
  }

  it('keeps a closed day equal to its orders when a booking paid on it is refunded or a scan of it comes late', async () => {
    const today = todayIn(ZONE);
    const day = addDays(today, -3);
    // The event took place three days ago; its sales were made then and the day before.
    const event = await createTestEvent(pool, { capacity: 50, pricePiasters: 10_000 });
    const buyer = await ctx.createUser();
    const early = await buyTickets(ctx, buyer, event.id, 4);
    const late = await buyTickets(ctx, buyer, event.id, 2);
    await pool.query('UPDATE events SET event_date = $2, start_date = $2, end_date = $2 WHERE id = $1', [
      event.id,
      day,
    ]);
    // 10:00 in Cairo (UTC+2 in winter) on the event's day and the day before.
    await paidAt(early, `${addDays(day, -1)}T08:00:00Z`);
    await paidAt(late, `${day}T08:00:00Z`);
    const tickets = (
      await pool.query<{ id: string }>('SELECT id FROM tickets WHERE booking_id = $1 ORDER BY number', [early])
    ).rows.map((row) => row.id);
    await checkIn(event.id, tickets[0] as string, `${day}T17:05:00Z`);
    await checkIn(event.id, tickets[1] as string, `${day}T17:20:00Z`);
    const query = `from=${addDays(day, -1)}&to=${today}&eventId=${event.id}`;
    const before = await dashboard(query);

    expect(await closeDashboardDays(pool, ZONE)).toBe(addDays(today, -1));
    const kept = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM dashboard_days WHERE event_id = $1', [
      event.id,
    ]);
    expect(kept.rows[0]?.n).toBeGreaterThan(0);
    // Read from the sums kept, the figures are those of the orders; closing again changes nothing.
    expect(await dashboard(query)).toEqual(before);
    await closeDashboardDays(pool, ZONE);
    expect(await dashboard(query)).toEqual(before);
    expect(before).toMatchObject({ ticketsSold: 6, ticketsValid: 6, checkedIn: 2, checkedInTotal: 2 });
    expect(before.arrivals?.buckets).toEqual([
      { at: '19:00', checkedIn: 1, running: 1 },
      { at: '19:15', checkedIn: 1, running: 2 },
    ]);

    // A ticket of the closed day given back today (the event moved to next month: refunds close when it is over):
    // fewer tickets held, a refund today.
    const next = addDays(today, 30);
    await pool.query('UPDATE events SET event_date = $2, start_date = $3, end_date = $2 WHERE id = $1', [
      event.id,
      next,
      addDays(day, -1),
    ]);
    const cancelled = await ctx.request(buyer, {
      method: 'POST',
      url: `/api/bookings/${early}/cancel`,
      payload: { quantity: 1 },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    let figures = await dashboard(query);
    expect(figures).toMatchObject({ ticketsValid: 5, ticketsRefunded: 1, refundedPiasters: 10_000 });
    expect(figures.byDay.at(-1)).toMatchObject({ day: today, ticketsRefunded: 1, refundedPiasters: 10_000 });

    // The refund moved into the closed day: that day's refunded figure, not today's.
    await pool.query(`UPDATE refunds SET completed_at = $2 WHERE booking_id = $1 AND status = 'succeeded'`, [
      early,
      `${day}T09:00:00Z`,
    ]);
    figures = await dashboard(query);
    expect(figures.byDay.find((d) => d.day === day)).toMatchObject({ ticketsRefunded: 1, refundedPiasters: 10_000 });
    expect(figures.byDay.at(-1)).toMatchObject({ ticketsRefunded: 0, refundedPiasters: 0 });
    expect(figures.refundedPiasters).toBe(10_000);

    // A door's device offline since the closed day syncs its scan now: admitted that day, as the device says.
    const offline = await ctx.request(admin, {
      method: 'POST',
      url: `/api/check-in/${event.id}/sync`,
      payload: { scans: [{ nonce: randomUUID(), ticketId: tickets[2], scannedAt: `${day}T17:40:00Z` }] },
    });
    expect(offline.statusCode, offline.body).toBe(200);
    figures = await dashboard(query);
    expect(figures.byDay.find((d) => d.day === day)).toMatchObject({ checkedIn: 3 });
    expect(figures).toMatchObject({ checkedIn: 3, checkedInTotal: 3 });
    // An admission of the closed day corrected to today: one fewer that day, one more today, as many in all.
    await pool.query('UPDATE tickets SET checked_in_at = now() - interval $$1 second$$ WHERE id = $1', [tickets[1]]);
    figures = await dashboard(query);
    expect(figures.byDay.find((d) => d.day === day)).toMatchObject({ checkedIn: 2 });
    expect(figures.byDay.at(-1)).toMatchObject({ checkedIn: 1 });
    expect(figures).toMatchObject({ checkedIn: 3, checkedInTotal: 3 });

    // A sale moved from one closed day to the other, and a reservation made on a closed day.
    await pool.query('UPDATE bookings SET paid_at = $2 WHERE id = $1', [late, `${addDays(day, -1)}T20:00:00Z`]);
    const held = await ctx.request(await ctx.createUser(), {
      method: 'POST',
      url: '/api/bookings',
      payload: { eventId: event.id, quantity: 1 },
    });
    expect(held.statusCode, held.body).toBe(201);
    await pool.query('UPDATE bookings SET created_at = $2 WHERE id = $1', [held.json().id, `${day}T10:00:00Z`]);

    const { kept: after, live } = await keptAndLive(query);
    expect(after).toEqual(live);
    expect(after.byDay.find((d) => d.day === addDays(day, -1))).toMatchObject({ ticketsSold: 6 });
    expect(after.funnel.reservations).toBe(3);
  });

  it('counts a buyer’s choices once, on the day of the first, and writes nothing to closed days when they choose again', async () => {
    const today = todayIn(ZONE);
    const yesterday = addDays(today, -1);
    const event = await createTestEvent(pool, { capacity: 10, pricePiasters: 10_000 });
    const buyer = await ctx.createUser();
    const reserve = async (quantity: number): Promise<string> => {
      const res = await ctx.request(buyer, {
        method: 'POST',
        url: '/api/bookings',
        payload: { eventId: event.id, quantity },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id;
    };
    // A hold made yesterday at noon in Cairo (a kiosk-cash bill lasts that long), and yesterday closed.
    const first = await reserve(1);
    await pool.query('UPDATE bookings SET created_at = $2 WHERE id = $1', [first, `${yesterday}T10:00:00Z`]);
    expect(await closeDashboardDays(pool, ZONE)).toBe(yesterday);
    const keptRows = async () =>
      (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM dashboard_days')).rows[0]?.n;
    const rowsBefore = await keptRows();

    // Choosing again today, twice: the on-sale's path leaves the closed days alone.
    await reserve(2);
    await reserve(3);
    expect(await keptRows()).toBe(rowsBefore);
    const funnel = async (from: string, to: string) =>
      (await dashboard(`from=${from}&to=${to}&eventId=${event.id}`)).funnel.reservations;
    expect([await funnel(yesterday, yesterday), await funnel(today, today), await funnel(yesterday, today)]).toEqual([
      1, 0, 1,
    ]);
    const { kept, live } = await keptAndLive(`from=${yesterday}&to=${today}&eventId=${event.id}`);
    expect(kept).toEqual(live);
  });

  it('finds, from before migration 0024, which holds took the place of their buyer’s pending one', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [chooser, other] = [await ctx.createUser(), await ctx.createUser()];
    const ids: string[] = [];
    for (const [buyer, quantity] of [
      [chooser, 1],
      [other, 1],
      [chooser, 2],
      [chooser, 3],
    ] as const) {
      const res = await ctx.request(buyer, {
        method: 'POST',
        url: '/api/bookings',
        payload: { eventId: event.id, quantity },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const marked = async () =>
      (
        await pool.query<{ replaces_hold: boolean }>(
          'SELECT replaces_hold FROM bookings WHERE id = ANY ($1::uuid[]) ORDER BY array_position($1::uuid[], id)',
          [ids],
        )
      ).rows.map((row) => row.replaces_hold);
    expect(await marked()).toEqual([false, false, true, true]);
    // As the rows were before the column: the migration's own statement marks them again.
    await pool.query('UPDATE bookings SET replaces_hold = false WHERE event_id = $1', [event.id]);
    const migration = readFileSync(
      new URL('../../db/migrations/0024_booking_replaces_hold.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.split('--> statement-breakpoint').find((part) => part.includes('UPDATE "bookings"'));
    await pool.query(backfill ?? 'the migration has no UPDATE');
    expect(await marked()).toEqual([false, false, true, true]);
  });

  it('closes nothing when it is cut off, and drops the sums of a time zone no longer the app’s', async () => {
    const event = await createTestEvent(pool, { capacity: 10, pricePiasters: 10_000 });
    const booking = await buyTickets(ctx, await ctx.createUser(), event.id, 3);
    await paidAt(booking, `${addDays(todayIn(ZONE), -2)}T12:00:00Z`);
    await reopenDashboardDays(pool);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await closeDashboardDays(client, ZONE);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const count = async (table: string) =>
      (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n;
    expect(await count('dashboard_days')).toBe(0);
    expect(await count('dashboard_closed')).toBe(0);
    // Statements told of closed days that were forgotten since say so (the service reads the orders alone then).
    const range = { timeZone: ZONE, from: addDays(todayIn(ZONE), -3), to: todayIn(ZONE), eventId: event.id };
    expect((await eventBookingFigures(pool, range, new Date())).stale).toBe(true);
    expect((await eventBookingFigures(pool, range, null)).stale).toBe(false);

    // Closed in another zone (APP_TIMEZONE was changed back and forth): Cairo's figures are read from the orders.
    await closeDashboardDays(pool, 'America/New_York');
    const query = `from=${addDays(todayIn(ZONE), -3)}&to=${todayIn(ZONE)}&eventId=${event.id}`;
    expect(await dashboard(query)).toMatchObject({ ticketsSold: 3, ticketsValid: 3 });
    await closeDashboardDays(pool, ZONE);
    const zones = await pool.query<{ time_zone: string }>(
      'SELECT DISTINCT time_zone FROM dashboard_days UNION SELECT time_zone FROM dashboard_closed',
    );
    expect(zones.rows).toEqual([{ time_zone: ZONE }]);
    expect(await dashboard(query)).toMatchObject({ ticketsSold: 3, ticketsValid: 3 });
  });
});

describe('bad queries', () => {
  it.each([
    ['from=2026-02-30', 400],
    ['from=yesterday', 400],
    ['from=2026-12-05&to=2026-12-01', 400],
    ['from=2020-01-01&to=2026-12-01', 400],
    ['from=2020-01-01', 400],
    [`eventId=${randomUUID()}`, 404],
    ['eventId=nope', 404],
  ])('%s → %i with a problem', async (query, status) => {
    for (const path of ['dashboard', 'orders.csv', 'attendees.csv']) {
      const res = await ctx.request(admin, { method: 'GET', url: `/api/admin/${path}?${query}` });
      expect(res.statusCode, `${path}?${query}: ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ status });
    }
  });

  it('answers a reversed range with the field’s message, in Arabic on the Arabic site', async () => {
    const res = await ctx.request(admin, {
      method: 'GET',
      url: '/api/admin/dashboard?from=2026-12-05&to=2026-12-01',
      headers: { 'accept-language': 'ar' },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('يجب أن يكون تاريخ النهاية');
  });
});

describe('the CSV exports', () => {
  it('gives the orders the figures sum, spreadsheet-safe, with Arabic headings and names intact', async () => {
    const event = await createTestEvent(pool, { capacity: 20, pricePiasters: 12_345, title: '=cmd|" /C calc"!A0' });
    const buyer = await ctx.createUser({ firstName: '=HYPERLINK("x")', lastName: 'سارة' });
    const bookingId = await buyTickets(ctx, buyer, event.id, 2);
    const today = todayIn(ZONE);
    const query = `from=${addDays(today, -1)}&to=${today}&eventId=${event.id}`;
    const { rows, raw } = await csv('orders.csv', query);
    expect(raw.startsWith('\uFEFF')).toBe(true);
    expect(rows[0]).toEqual([
      'Order',
      'Event',
      'Event date',
      'Name',
      'Email',
      'Paid with',
      `Paid at (${ZONE})`,
      'Tickets',
      'Paid (EGP)',
      `Refunded at (${ZONE})`,
      'Tickets refunded',
      'Refunded (EGP)',
      'Status',
    ]);
    expect(rows).toHaveLength(2);
    const [order] = rows.slice(1);
    expect(order?.[0]).toBe(bookingId);
    expect(order?.[1]).toBe(`'=cmd|" /C calc"!A0`);
    expect(order?.[3]).toBe(`'=HYPERLINK("x") سارة`);
    expect(order?.slice(5, 9)).toEqual([
      'Test card',
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      '2',
      '246.90',
    ]);
    expect(order?.[12]).toBe('Paid');

    const arabic = await csv('orders.csv', query, 'ar');
    expect(arabic.rows[0]?.[0]).toBe('الطلب');
    expect(arabic.rows[1]?.[8]).toBe('246.90');

    const attendees = await csv('attendees.csv', query);
    expect(attendees.rows[0]?.slice(0, 3)).toEqual(['Event', 'Event date', 'Name']);
    expect(attendees.rows).toHaveLength(3);
    expect(attendees.rows[1]?.[0]).toBe(`'=cmd|" /C calc"!A0`);
  });
});

describe('the admins’ live stream', () => {
  it('tells a connected admin that an event’s sales moved, and nobody else', async () => {
    const event = await createTestEvent(pool, { capacity: 20 });
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const abort = new AbortController();
    try {
      const res = await fetch(`${address}/api/admin/live`, { headers: { cookie: admin.cookie }, signal: abort.signal });
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      const until = async (pattern: string) => {
        while (!text.includes(pattern)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`stream ended before ${pattern}: ${text}`);
          text += decoder.decode(value);
        }
      };
      await until('event: ready');
      await buyTickets(ctx, await ctx.createUser(), event.id, 1);
      await until(`event: sales\ndata: {"eventId":"${event.id}"}`);
      const user = await ctx.createUser();
      const refused = await fetch(`${address}/api/admin/live`, { headers: { cookie: user.cookie } });
      expect(refused.status).toBe(403);
    } finally {
      abort.abort();
    }
  });
});

it('keeps the capacity invariant', () => expectCapacityInvariant(pool));
