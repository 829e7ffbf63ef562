import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { todayIn } from '../../../contracts/dates';
import { en } from '../../../contracts/i18n/en';
import {
  cancelReservation,
  createTestEvent,
  createUsersFast,
  expectCapacityInvariant,
} from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());
afterEach(() => expectCapacityInvariant(pool));

function reserve(user: TestUser | undefined, payload: unknown, headers: Record<string, string> = {}) {
  return ctx.request(user, { method: 'POST', url: '/api/bookings', payload: payload as object, headers });
}

async function available(eventId: string): Promise<number> {
  const result = await pool.query<{ n: number }>('SELECT tickets_available AS n FROM events WHERE id = $1', [eventId]);
  return (result.rows[0] as { n: number }).n;
}

async function statusOf(bookingId: string): Promise<string> {
  const result = await pool.query<{ status: string }>('SELECT status FROM bookings WHERE id = $1', [bookingId]);
  return (result.rows[0] as { status: string }).status;
}

describe('POST /api/bookings', () => {
  it('holds the tickets in a pending booking priced from the database', async () => {
    const event = await createTestEvent(pool, { capacity: 20, pricePiasters: 12_550 });
    const user = await ctx.createUser();
    const res = await reserve(user, { eventId: event.id, quantity: 3 });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'pending',
      quantity: 3,
      unitPricePiasters: 12_550,
      totalPiasters: 37_650,
      paidAt: null,
      event: { id: event.id, title: event.title, startTime: '19:30', endTime: '22:00' },
      payment: { provider: 'simulated' },
    });
    const holdMs = new Date(body.expiresAt).getTime() - Date.now();
    expect(holdMs).toBeGreaterThan(9 * 60_000);
    expect(holdMs).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    expect(await available(event.id)).toBe(17);
  });

  it('refuses anonymous visitors', async () => {
    const event = await createTestEvent(pool);
    const res = await reserve(undefined, { eventId: event.id, quantity: 1 });
    expect(res.statusCode).toBe(401);
  });

  it.each([0, 11, 2.5, '3', -1, null])('refuses quantity %s with a 400 problem', async (quantity) => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    const res = await reserve(user, { eventId: event.id, quantity });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toHaveProperty('quantity');
    expect(await available(event.id)).toBe(event.capacity);
  });

  it('refuses fields it does not take, such as a price, a total or another user, and holds nothing', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    for (const extra of [{ pricePiasters: 1 }, { totalPiasters: 1 }, { userId: randomUUID() }]) {
      const res = await reserve(user, { eventId: event.id, quantity: 1, ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    expect(await available(event.id)).toBe(event.capacity);
  });

  it('refuses a malformed event id with 400 and an unknown or deleted event with 404', async () => {
    const user = await ctx.createUser();
    expect((await reserve(user, { eventId: 'nope', quantity: 1 })).statusCode).toBe(400);
    expect((await reserve(user, { eventId: randomUUID(), quantity: 1 })).statusCode).toBe(404);
    const deleted = await createTestEvent(pool, { isDeleted: true });
    const res = await reserve(user, { eventId: deleted.id, quantity: 1 });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('EVENT_NOT_FOUND');
  });

  it('answers 409 with the tickets left when there are not enough', async () => {
    const event = await createTestEvent(pool, { capacity: 4 });
    const [a, b] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    expect((await reserve(a, { eventId: event.id, quantity: 3 })).statusCode).toBe(201);
    const short = await reserve(b, { eventId: event.id, quantity: 2 });
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({
      code: 'NOT_ENOUGH_TICKETS',
      available: 1,
      detail: 'Not enough tickets left: 1 available.',
    });
    // The same refusal, and the request's own checks, said in Arabic to an Arabic reader.
    const arabic = { 'accept-language': 'ar' };
    expect((await reserve(b, { eventId: event.id, quantity: 2 }, arabic)).json()).toMatchObject({
      code: 'NOT_ENOUGH_TICKETS',
      detail: 'لا توجد تذاكر كافية: المتاح ١ فقط.',
    });
    expect((await reserve(b, { eventId: event.id, quantity: 11 }, arabic)).json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { quantity: 'لا يمكنك حجز أكثر من ١٠ تذاكر في المرة الواحدة' },
    });
    expect((await reserve(b, { eventId: event.id, quantity: 11 })).json()).toMatchObject({
      errors: { quantity: 'You can book at most 10 tickets at once' },
    });
    expect((await reserve(b, { eventId: event.id, quantity: 1 })).statusCode).toBe(201);
    const soldOut = await reserve(await ctx.createUser(), { eventId: event.id, quantity: 1 });
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.json()).toMatchObject({ code: 'EVENT_SOLD_OUT', available: 0 });
  });

  it('replaces the user’s previous pending booking for the same event and returns its tickets', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const first = (await reserve(user, { eventId: event.id, quantity: 4 })).json();
    expect(await available(event.id)).toBe(6);
    const second = await reserve(user, { eventId: event.id, quantity: 9 });
    expect(second.statusCode).toBe(201);
    expect(await statusOf(first.id)).toBe('cancelled');
    expect(await available(event.id)).toBe(1);
  });

  it('gives a replacing hold the time left of the hold it replaces, and a full hold once that one has run out', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const first = (await reserve(user, { eventId: event.id, quantity: 2 })).json();
    // Seven of the ten minutes have passed.
    await pool.query("UPDATE bookings SET expires_at = now() + interval '3 minutes' WHERE id = $1", [first.id]);
    const [{ firstEnds }] = (
      await pool.query<{ firstEnds: Date }>('SELECT expires_at AS "firstEnds" FROM bookings WHERE id = $1', [first.id])
    ).rows as [{ firstEnds: Date }];
    const second = await reserve(user, { eventId: event.id, quantity: 3 });
    expect(second.statusCode).toBe(201);
    expect(new Date(second.json().expiresAt).getTime()).toBe(firstEnds.getTime());
    const third = (await reserve(user, { eventId: event.id, quantity: 1 })).json();
    expect(new Date(third.expiresAt).getTime()).toBe(firstEnds.getTime());
    expect(await available(event.id)).toBe(9);

    // Once it has run out (the expiry job may not have released it yet), the next reservation is a new hold.
    await pool.query("UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1", [third.id]);
    const fresh = await reserve(user, { eventId: event.id, quantity: 2 });
    expect(fresh.statusCode).toBe(201);
    const holdMs = new Date(fresh.json().expiresAt).getTime() - Date.now();
    expect(holdMs).toBeGreaterThan(9 * 60_000);
    expect(await statusOf(third.id)).toBe('cancelled');
    expect(await available(event.id)).toBe(8);
  });

  it('keeps the user’s pending booking when the new reservation is refused', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [user, other] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const first = (await reserve(user, { eventId: event.id, quantity: 4 })).json();
    expect((await reserve(other, { eventId: event.id, quantity: 5 })).statusCode).toBe(201);
    const refused = await reserve(user, { eventId: event.id, quantity: 6 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'NOT_ENOUGH_TICKETS', available: 5 });
    expect(await statusOf(first.id)).toBe('pending');
    expect(await available(event.id)).toBe(1);
    const bigger = await reserve(user, { eventId: event.id, quantity: 5 });
    expect(bigger.statusCode).toBe(201);
    expect(await statusOf(first.id)).toBe('cancelled');
    expect(await available(event.id)).toBe(0);
  });

  it('returns the same booking for the same Idempotency-Key, even when sent concurrently', async () => {
    const event = await createTestEvent(pool, { capacity: 30 });
    const user = await ctx.createUser();
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => reserve(user, { eventId: event.id, quantity: 2 }, { 'idempotency-key': key })),
    );
    const ids = new Set(responses.map((r) => r.json().id));
    expect(responses.every((r) => r.statusCode === 201)).toBe(true);
    expect(ids.size).toBe(1);
    expect(await available(event.id)).toBe(28);
    const again = await reserve(user, { eventId: event.id, quantity: 2 }, { 'idempotency-key': key });
    expect(again.json().id).toBe([...ids][0]);
    // Another user with the same key gets a booking of their own.
    const other = await ctx.createUser();
    const theirs = await reserve(other, { eventId: event.id, quantity: 1 }, { 'idempotency-key': key });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe([...ids][0]);
    expect(await available(event.id)).toBe(27);
  });

  it('refuses an Idempotency-Key replayed with another quantity or event, changing nothing', async () => {
    const [event, otherEvent] = await Promise.all([
      createTestEvent(pool, { capacity: 10 }),
      createTestEvent(pool, { capacity: 10 }),
    ]);
    const user = await ctx.createUser();
    const key = randomUUID();
    const first = await reserve(user, { eventId: event.id, quantity: 2 }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    for (const payload of [
      { eventId: event.id, quantity: 3 },
      { eventId: otherEvent.id, quantity: 2 },
    ]) {
      const res = await reserve(user, payload, { 'idempotency-key': key });
      expect(res.statusCode).toBe(422);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    }
    expect(await statusOf(first.json().id)).toBe('pending');
    expect([await available(event.id), await available(otherEvent.id)]).toEqual([8, 10]);
  });

  it('books once when one Idempotency-Key arrives for two events at the same moment', async () => {
    const user = await ctx.createUser();
    for (let round = 0; round < 8; round++) {
      const events = await Promise.all([
        createTestEvent(pool, { capacity: 5 }),
        createTestEvent(pool, { capacity: 5 }),
      ]);
      const key = randomUUID();
      const responses = await Promise.all(
        events.map((event) => reserve(user, { eventId: event.id, quantity: 2 }, { 'idempotency-key': key })),
      );
      // One reservation wins; the other is told the key is taken, and takes no ticket.
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 422]);
      const won = responses.findIndex((r) => r.statusCode === 201);
      expect(await Promise.all(events.map((e) => available(e.id)))).toEqual(won === 0 ? [3, 5] : [5, 3]);
    }
  });

  it('keeps reserving while every connection of the main pool is taken', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const [buyer] = await createUsersFast(pool, ctx.config.authSecret, 1);
    // The app's own service, whose reservations run on the reservation pool.
    const service = ctx.app.ticketing;
    const taken = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    try {
      const booking = await Promise.race([
        service.reserve({ userId: (buyer as TestUser).id, eventId: event.id, quantity: 2, idempotencyKey: undefined }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the reservation waited for a connection of the main pool')), 5_000),
        ),
      ]);
      expect(booking).toMatchObject({ status: 'pending', quantity: 2 });
    } finally {
      for (const client of taken) client.release();
    }
    expect(await available(event.id)).toBe(3);
  });

  it('never oversells: 300 concurrent reservations from 100 users for 50 tickets', async () => {
    const event = await createTestEvent(pool, { capacity: 50 });
    const users = await createUsersFast(pool, ctx.config.authSecret, 100);
    const requests = Array.from({ length: 300 }, (_, i) => ({
      user: users[i % users.length] as TestUser,
      quantity: (i % 10) + 1,
    }));
    const responses = await Promise.all(
      requests.map(({ user, quantity }) => reserve(user, { eventId: event.id, quantity })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const res of responses.filter((r) => r.statusCode === 409)) {
      expect(['EVENT_SOLD_OUT', 'NOT_ENOUGH_TICKETS']).toContain(res.json().code);
    }
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
    const held = await pool.query<{ held: number; n: number }>(
      `SELECT COALESCE(sum(quantity), 0)::int AS held, count(*)::int AS n FROM bookings
        WHERE event_id = $1 AND status IN ('pending', 'paid')`,
      [event.id],
    );
    const row = held.rows[0] as { held: number; n: number };
    expect(row.held).toBeLessThanOrEqual(50);
    expect(row.held + (await available(event.id))).toBe(50);
    // One pending booking per user and event, whatever the interleaving.
    expect(row.n).toBeLessThanOrEqual(100);
  });

  it('gives the tickets of lapsed holds back when the expiry job runs', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [a, b] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const lapsed = (await reserve(a, { eventId: event.id, quantity: 6 })).json();
    const fresh = (await reserve(b, { eventId: event.id, quantity: 3 })).json();
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1`, [lapsed.id]);
    const service = ctx.app.ticketing;
    expect(await service.expireHolds()).toBe(1);
    expect(await statusOf(lapsed.id)).toBe('expired');
    expect(await statusOf(fresh.id)).toBe('pending');
    expect(await available(event.id)).toBe(7);
    expect(await service.expireHolds()).toBe(0);
  });
});

describe('GET /api/bookings/:id', () => {
  it('shows the owner their booking and answers 404 to everyone else', async () => {
    const event = await createTestEvent(pool);
    const [owner, other] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const booking = (await reserve(owner, { eventId: event.id, quantity: 1 })).json();
    const mine = await ctx.request(owner, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ id: booking.id, status: 'pending' });
    const theirs = await ctx.request(other, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect(theirs.statusCode).toBe(404);
    expect((await ctx.request(owner, { method: 'GET', url: '/api/bookings/not-a-uuid' })).statusCode).toBe(404);
    expect((await ctx.request(undefined, { method: 'GET', url: `/api/bookings/${booking.id}` })).statusCode).toBe(401);
  });
});

describe('GET /api/me/bookings', () => {
  it('lists paid bookings of active events as tickets and the others as history, each saying why', async () => {
    const user = await ctx.createUser();
    const admin = await ctx.createUser({ role: 'admin' });
    const active = await createTestEvent(pool, { title: 'Still On' });
    const removed = await createTestEvent(pool, { title: 'Called Off' });
    const over = await createTestEvent(pool, { title: 'All Over' });
    const closed = await createTestEvent(pool, { title: 'Sales Closed' });
    const pendingOnly = await createTestEvent(pool, { title: 'Unpaid' });
    const paid: string[] = [];
    for (const event of [active, removed, over, closed]) {
      const booking = (await reserve(user, { eventId: event.id, quantity: 2 })).json();
      paid.push(booking.id);
    }
    await reserve(user, { eventId: pendingOnly.id, quantity: 1 });
    await pool.query(`UPDATE bookings SET status = 'paid', paid_at = now() WHERE id = ANY($1::uuid[])`, [paid]);
    // The admin deletes one while its sales are open; the archive job takes the two whose sales have ended,
    // one of them still ahead.
    const deleted = await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${removed.id}` });
    expect(deleted.statusCode).toBe(204);
    await pool.query(
      `UPDATE events SET start_date = current_date - 40, end_date = current_date - 3, event_date = current_date - 3
        WHERE id = $1`,
      [over.id],
    );
    await pool.query(
      `UPDATE events SET start_date = current_date - 40, end_date = current_date - 3, event_date = current_date + 5
        WHERE id = $1`,
      [closed.id],
    );
    // What the catalogue's archive job does (server/features/catalogue/archive.test.ts runs the job itself).
    const archived = await pool.query<{ id: string }>(
      `UPDATE events SET is_deleted = true, deleted_at = now(), version = version + 1
        WHERE NOT is_deleted AND end_date < $1 RETURNING id`,
      [todayIn(ctx.config.timeZone)],
    );
    expect(archived.rows.map((row) => row.id).sort()).toEqual([over.id, closed.id].sort());

    const res = await ctx.request(user, { method: 'GET', url: '/api/me/bookings' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.tickets).toHaveLength(1);
    expect(body.tickets[0]).toMatchObject({
      title: 'Still On',
      quantity: 2,
      totalPiasters: 30_000,
      startTime: '19:30',
      endTime: '22:00',
      historyReason: null,
    });
    expect(body.tickets[0].weekday).toMatch(/day$/);
    // Latest event first.
    expect(body.history.map((t: { title: string; historyReason: string }) => [t.title, t.historyReason])).toEqual([
      ['Called Off', 'removed'],
      ['Sales Closed', 'sales-closed'],
      ['All Over', 'ended'],
    ]);

    const other = await ctx.createUser();
    const theirs = await ctx.request(other, { method: 'GET', url: '/api/me/bookings' });
    expect(theirs.json()).toEqual({ tickets: [], history: [], awaiting: [] });
  });
});

describe('GET /api/me/holds/:eventId', () => {
  function myHold(user: TestUser | undefined, eventId: string) {
    return ctx.request(user, { method: 'GET', url: `/api/me/holds/${encodeURIComponent(eventId)}` });
  }

  it('tells a buyer holding 1 of the last 2 tickets about their hold, and reserving both then succeeds', async () => {
    const event = await createTestEvent(pool, { capacity: 2 });
    const user = await ctx.createUser();
    const first = (await reserve(user, { eventId: event.id, quantity: 1 })).json();
    expect(await available(event.id)).toBe(1);

    const res = await myHold(user, event.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ hold: { id: first.id, quantity: 1, expiresAt: first.expiresAt } });

    // What the ticket page offers: the tickets left plus the ones held, and the server takes that many.
    const both = await reserve(user, { eventId: event.id, quantity: 1 + res.json().hold.quantity });
    expect(both.statusCode).toBe(201);
    expect(await available(event.id)).toBe(0);
    expect((await myHold(user, event.id)).json()).toEqual({
      hold: { id: both.json().id, quantity: 2, expiresAt: first.expiresAt },
    });
  });

  it('answers null without a hold, for an expired or paid one, and for another buyer’s hold', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [user, other] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    expect((await myHold(user, event.id)).json()).toEqual({ hold: null });

    const held = (await reserve(user, { eventId: event.id, quantity: 3 })).json();
    expect((await myHold(other, event.id)).json()).toEqual({ hold: null });

    // Run out but not released yet (the expiry job runs every few seconds): no longer counted.
    await pool.query("UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1", [held.id]);
    expect((await myHold(user, event.id)).json()).toEqual({ hold: null });

    const paid = (await reserve(user, { eventId: event.id, quantity: 2 })).json();
    expect((await myHold(user, event.id)).json()).toMatchObject({ hold: { id: paid.id, quantity: 2 } });
    await pool.query("UPDATE bookings SET status = 'paid', paid_at = now() WHERE id = $1", [paid.id]);
    expect((await myHold(user, event.id)).json()).toEqual({ hold: null });
  });

  it('refuses visitors with 401 and answers 404 for malformed, unknown and deleted events', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    await reserve(user, { eventId: event.id, quantity: 1 });
    const visitor = await myHold(undefined, event.id);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.headers['content-type']).toContain('application/problem+json');

    const deleted = await createTestEvent(pool, { isDeleted: true });
    for (const id of [randomUUID(), deleted.id, 'not-a-uuid', '1', "' OR 1=1 --", 'x'.repeat(150), 'x'.repeat(5000)]) {
      const res = await myHold(user, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
      // Ids longer than the router takes are refused before the route: a generic not-found problem.
      expect(res.json()).toMatchObject({ status: 404, code: id.length > 200 ? 'NOT_FOUND' : 'EVENT_NOT_FOUND' });
    }
    // A hold on an event deleted since is not found either (its tickets are no longer on sale).
    await pool.query('UPDATE events SET is_deleted = true WHERE id = $1', [event.id]);
    expect((await myHold(user, event.id)).statusCode).toBe(404);
  });
});

describe('DELETE /api/bookings/:id/hold', () => {
  const cancel = (user: TestUser | undefined, bookingId: string) => cancelReservation(ctx, user, bookingId);

  it('ends the buyer’s hold at once and puts its tickets back on sale for the next buyer', async () => {
    const event = await createTestEvent(pool, { capacity: 3 });
    const [user, next] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const held = (await reserve(user, { eventId: event.id, quantity: 3 })).json();
    expect((await reserve(next, { eventId: event.id, quantity: 1 })).json()).toMatchObject({ code: 'EVENT_SOLD_OUT' });

    const res = await cancel(user, held.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      id: held.id,
      status: 'cancelled',
      failureMessage: en.payment.holdCancelled,
      event: { id: event.id },
    });
    expect(await available(event.id)).toBe(3);
    expect((await ctx.request(user, { method: 'GET', url: `/api/me/holds/${event.id}` })).json()).toEqual({
      hold: null,
    });
    expect((await reserve(next, { eventId: event.id, quantity: 3 })).statusCode).toBe(201);
    expect(await available(event.id)).toBe(0);
  });

  it('cancels only the booking named: a page left open on a replaced hold cannot end the newer one', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const older = (await reserve(user, { eventId: event.id, quantity: 1 })).json();
    const newer = (await reserve(user, { eventId: event.id, quantity: 2 })).json();
    const res = await cancel(user, older.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: older.id, status: 'cancelled', failureMessage: null });
    expect(await statusOf(newer.id)).toBe('pending');
    expect(await available(event.id)).toBe(8);
  });

  it('answers an ended hold as it is, again and again, and refuses a paid one with 409', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const held = (await reserve(user, { eventId: event.id, quantity: 3 })).json();
    for (let i = 0; i < 2; i++) {
      const res = await cancel(user, held.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'cancelled' });
    }
    expect(await available(event.id)).toBe(10);

    // Run out but not released yet: it expired, the buyer did not cancel it (the expiry job releases it).
    const lapsed = (await reserve(user, { eventId: event.id, quantity: 2 })).json();
    await pool.query("UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1", [lapsed.id]);
    expect((await cancel(user, lapsed.id)).json()).toMatchObject({ status: 'expired', failureMessage: null });
    expect(await statusOf(lapsed.id)).toBe('pending');

    const paid = (await reserve(user, { eventId: event.id, quantity: 1 })).json();
    await pool.query("UPDATE bookings SET status = 'paid', paid_at = now() WHERE id = $1", [paid.id]);
    const refused = await cancel(user, paid.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'BOOKING_PAID', detail: en.payment.holdPaid });
    expect(await statusOf(paid.id)).toBe('paid');
  });

  it('answers 409 while a payment of the hold holds its lock, and ends it once that payment has failed', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const held = (await reserve(user, { eventId: event.id, quantity: 2 })).json();
    const payment = await pool.connect();
    try {
      await payment.query('BEGIN');
      await payment.query('SELECT id FROM bookings WHERE id = $1 FOR UPDATE', [held.id]);
      const res = await cancel(user, held.id);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'PAYMENT_IN_PROGRESS', detail: en.payment.holdBusy });
      expect(await available(event.id)).toBe(8);
      // The event's row was not left locked: others still reserve.
      expect((await reserve(await ctx.createUser(), { eventId: event.id, quantity: 1 })).statusCode).toBe(201);
    } finally {
      await payment.query('ROLLBACK');
      payment.release();
    }
    expect((await cancel(user, held.id)).json()).toMatchObject({ status: 'cancelled' });
    expect(await available(event.id)).toBe(9);
  });

  it('refuses visitors with 401 and answers 404 for another buyer’s, unknown and malformed bookings', async () => {
    const event = await createTestEvent(pool);
    const [user, other] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const held = (await reserve(user, { eventId: event.id, quantity: 1 })).json();
    expect((await cancel(undefined, held.id)).statusCode).toBe(401);
    for (const [who, id] of [
      [other, held.id],
      [user, randomUUID()],
      [user, 'not-a-uuid'],
      [user, "' OR 1=1 --"],
    ] as const) {
      const res = await cancel(who, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, code: 'BOOKING_NOT_FOUND' });
    }
    expect(await statusOf(held.id)).toBe('pending');
  });
});
