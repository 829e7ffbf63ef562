import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestEvent } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';
import { TICKETS_NOT_FOLLOWING_BOOKINGS } from '../../test/ticket-invariant';

/**
 * Random interleavings of what buyers, the organiser and the jobs do to one event's bookings (fast-check's
 * model-based commands, on real PostgreSQL): reserve, pay, let a hold go, let it run out, cancel some tickets,
 * the organiser's refund, cancelling the event — one at a time and two at once. After every step: capacity =
 * available + held + sold, nothing oversold, no refund more than was paid, tickets follow bookings, no 5xx.
 */

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());

const CAPACITY = 6;
const users = await Promise.all([ctx.createUser(), ctx.createUser(), ctx.createUser()]);
const admin = await ctx.createUser({ role: 'admin' });
const nextYear = (new Date().getFullYear() + 1) % 100;

interface World {
  eventId: string;
}

type Step = (world: World) => Promise<number>;

async function latestBooking(user: TestUser, eventId: string, status: string): Promise<string | undefined> {
  const result = await pool.query<{ id: string }>(
    'SELECT id FROM bookings WHERE user_id = $1 AND event_id = $2 AND status = $3 ORDER BY created_at DESC LIMIT 1',
    [user.id, eventId, status],
  );
  return result.rows[0]?.id;
}

const who = fc.integer({ min: 0, max: users.length - 1 }).map((i) => users[i] as TestUser);

const steps: Record<string, fc.Arbitrary<[string, Step]>> = {
  reserve: fc
    .tuple(who, fc.integer({ min: 1, max: 4 }))
    .map(([user, quantity]) => [
      `reserve ${quantity}`,
      async ({ eventId }) =>
        (await ctx.request(user, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity } })).statusCode,
    ]),
  buy: fc.tuple(who, fc.integer({ min: 1, max: 3 })).map(([user, quantity]) => [
    `buy ${quantity}`,
    async ({ eventId }) => {
      const held = await ctx.request(user, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity } });
      if (held.statusCode !== 201) return held.statusCode;
      const res = await ctx.request(user, {
        method: 'POST',
        url: '/api/payments/simulated/confirm',
        payload: {
          bookingId: held.json().id,
          cardNumber: '4242424242424242',
          expMonth: 12,
          expYear: nextYear,
          cvc: '123',
        },
      });
      return res.statusCode;
    },
  ]),
  pay: who.map((user) => [
    'pay',
    async ({ eventId }) => {
      const id = await latestBooking(user, eventId, 'pending');
      if (!id) return 0;
      const res = await ctx.request(user, {
        method: 'POST',
        url: '/api/payments/simulated/confirm',
        payload: { bookingId: id, cardNumber: '4242424242424242', expMonth: 12, expYear: nextYear, cvc: '123' },
      });
      return res.statusCode;
    },
  ]),
  letGo: who.map((user) => [
    'cancel hold',
    async ({ eventId }) => {
      const id = await latestBooking(user, eventId, 'pending');
      return id ? (await ctx.request(user, { method: 'DELETE', url: `/api/bookings/${id}/hold` })).statusCode : 0;
    },
  ]),
  runOut: who.map((user) => [
    'hold runs out',
    async ({ eventId }) => {
      await pool.query(
        `UPDATE bookings SET expires_at = now() - interval '1 second'
          WHERE user_id = $1 AND event_id = $2 AND status = 'pending'`,
        [user.id, eventId],
      );
      await ctx.app.ticketing.expireHolds();
      return 200;
    },
  ]),
  cancelSome: fc.tuple(who, fc.integer({ min: 1, max: 3 })).map(([user, quantity]) => [
    `cancel ${quantity} tickets`,
    async ({ eventId }) => {
      const id = await latestBooking(user, eventId, 'paid');
      if (!id) return 0;
      return (await ctx.request(user, { method: 'POST', url: `/api/bookings/${id}/cancel`, payload: { quantity } }))
        .statusCode;
    },
  ]),
  organiserRefund: who.map((user) => [
    'organiser refunds',
    async ({ eventId }) => {
      const id = await latestBooking(user, eventId, 'paid');
      return id
        ? (await ctx.request(admin, { method: 'POST', url: `/api/admin/bookings/${id}/refund` })).statusCode
        : 0;
    },
  ]),
  cancelEvent: fc.constant([
    'cancel event',
    async ({ eventId }) =>
      (await ctx.request(admin, { method: 'POST', url: `/api/admin/events/${eventId}/cancel` })).statusCode,
  ]),
};

const single = fc.oneof(
  { weight: 3, arbitrary: steps.reserve as fc.Arbitrary<[string, Step]> },
  { weight: 3, arbitrary: steps.buy as fc.Arbitrary<[string, Step]> },
  { weight: 3, arbitrary: steps.pay as fc.Arbitrary<[string, Step]> },
  { weight: 1, arbitrary: steps.letGo as fc.Arbitrary<[string, Step]> },
  { weight: 1, arbitrary: steps.runOut as fc.Arbitrary<[string, Step]> },
  { weight: 3, arbitrary: steps.cancelSome as fc.Arbitrary<[string, Step]> },
  { weight: 1, arbitrary: steps.organiserRefund as fc.Arbitrary<[string, Step]> },
  { weight: 1, arbitrary: steps.cancelEvent as fc.Arbitrary<[string, Step]> },
);

const seen = new Map<string, number>();
afterAll(() =>
  console.log(
    [...seen]
      .sort()
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  ),
);

class Run implements fc.AsyncCommand<object, World> {
  constructor(readonly parts: Array<[string, Step]>) {}
  check = () => true;
  async run(_model: object, world: World) {
    const statuses = await Promise.all(this.parts.map(([, step]) => step(world)));
    for (const status of statuses) expect(status, this.toString()).toBeLessThan(500);
    for (const [i, [name]] of this.parts.entries())
      seen.set(`${name.split(' ')[0]} ${statuses[i]}`, (seen.get(`${name.split(' ')[0]} ${statuses[i]}`) ?? 0) + 1);
    await expectInvariants(world.eventId, this.toString());
  }
  toString() {
    return this.parts.map(([name]) => name).join(' ‖ ');
  }
}

async function expectInvariants(eventId: string, after: string): Promise<void> {
  const counts = await pool.query<{ capacity: number; available: number; held: number; sold: number }>(
    `SELECT e.capacity, e.tickets_available AS available,
            coalesce(sum(b.quantity) FILTER (WHERE b.status = 'pending'), 0)::int AS held,
            coalesce(sum(b.quantity - b.refunded_quantity) FILTER (WHERE b.status = 'paid'), 0)::int AS sold
       FROM events e LEFT JOIN bookings b ON b.event_id = e.id WHERE e.id = $1 GROUP BY e.id`,
    [eventId],
  );
  const row = counts.rows[0] as { capacity: number; available: number; held: number; sold: number };
  expect(row.available + row.held + row.sold, `capacity = available + held + sold after ${after}`).toBe(row.capacity);
  expect(row.available, after).toBeGreaterThanOrEqual(0);
  expect(row.sold, `nothing oversold after ${after}`).toBeLessThanOrEqual(row.capacity);
  const money = await pool.query(
    `SELECT b.id FROM bookings b
      WHERE b.event_id = $1
        AND (b.refunded_piasters > b.total_piasters
             OR b.refunded_piasters <> coalesce((SELECT sum(r.amount_piasters) FROM refunds r
                                                   WHERE r.booking_id = b.id AND r.status = 'succeeded'), 0)
             OR (SELECT count(*) FROM refunds r WHERE r.booking_id = b.id AND r.status = 'requested') > 0)`,
    [eventId],
  );
  expect(
    money.rows,
    `refunds add up to what bookings say, never more than paid, none left halfway, after ${after}`,
  ).toEqual([]);
  const tickets = await pool.query(TICKETS_NOT_FOLLOWING_BOOKINGS);
  expect(tickets.rows, `tickets follow bookings after ${after}`).toEqual([]);
}

describe('the booking lifecycle under random interleavings', () => {
  it('keeps capacity, money and tickets exact whatever happens in whatever order', async () => {
    const command = fc.oneof(
      { weight: 3, arbitrary: single.map((s) => new Run([s])) },
      { weight: 1, arbitrary: fc.tuple(single, single).map(([a, b]) => new Run([a, b])) },
    );
    await fc.assert(
      fc.asyncProperty(fc.commands([command], { maxCommands: 30, size: '+1' }), async (commands) => {
        const event = await createTestEvent(pool, { capacity: CAPACITY, pricePiasters: 10_050 });
        await pool.query('UPDATE events SET cancellation_fee_percent = 15 WHERE id = $1', [event.id]);
        await fc.asyncModelRun(() => ({ model: {}, real: { eventId: event.id } }), commands);
      }),
      { numRuns: 30 },
    );
  }, 180_000);
});
