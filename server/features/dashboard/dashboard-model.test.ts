import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import type { Dashboard } from '../../../contracts/dashboard';
import { addDays } from '../../../contracts/dates';
import { refundOf } from '../../../contracts/refunds';
import { createTestEvent, createUsersFast, expectCapacityInvariant } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';
import { parseCsv } from '../../test/parse-csv';
import { closeDashboardDays, reopenDashboardDays } from './repository';

/**
 * The dashboard against a model (issue 37): random histories of reservations, payments, cancelled holds, refunds
 * (some tickets or all, by the buyer with a fee or by the organiser) and check-ins, each moved to an instant of the
 * week around the end of Egypt's daylight saving time (the night of 29 to 30 October 2026, when 23:00–24:00 comes
 * twice). Every figure of the dashboard, for every event and for each one, over several ranges, equals the sum the
 * model makes of what was done (days told apart by Intl in Africa/Cairo, not by the database), and the orders CSV
 * sums to the same money. Days are closed at random points of each history (decision 025: their sums kept, and
 * every later change to them, a refund of a booking paid on one, a check-in or a payment moved into one, added by
 * triggers), up to a day before, inside or after the week, the change of time included; a history starts with
 * nothing closed, or with the days its forerunners closed.
 */

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());

const ZONE = 'Africa/Cairo';
const admin = await ctx.createUser({ role: 'admin' });
/** The week the histories happen in: 27 October 00:00 UTC to 2 November 00:00 UTC. */
const WINDOW_START = Date.parse('2026-10-27T00:00:00Z');
const WINDOW_MINUTES = 6 * 24 * 60;
const FIRST_DAY = '2026-10-27';
const LAST_DAY = '2026-11-02';

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const localDay = (at: Date) => dayFormat.format(at);

interface Sale {
  eventId: string;
  bookingId: string;
  tickets: number;
  piasters: number;
  day: string;
}
interface Refund {
  eventId: string;
  tickets: number;
  piasters: number;
  day: string;
}
interface CheckIn {
  eventId: string;
  ticketId: string;
  day: string;
}
/** What was done, across every run (the database keeps every run's rows). */
const done = {
  sales: [] as Sale[],
  refunds: [] as Refund[],
  checkIns: [] as CheckIn[],
  /** Reservations, each buyer's new choice in place of their pending hold not counted: booking id → event and local day. */
  reservations: new Map<string, { eventId: string; day: string }>(),
  /** Refunds of bookings paid on a day closed before they were made (the triggers' case). */
  refundsOfClosedDays: 0,
  closes: 0,
};

type Action =
  | { kind: 'reserve'; user: number; event: number; quantity: number }
  | { kind: 'buy'; user: number; event: number; quantity: number }
  | { kind: 'pay'; user: number; event: number }
  | { kind: 'letGo'; user: number; event: number }
  | { kind: 'cancelSome'; user: number; event: number; quantity: number | null }
  | { kind: 'organiserRefund'; user: number; event: number }
  | { kind: 'checkIn'; user: number; event: number }
  | { kind: 'close'; through: number };

const USERS = 2;
const EVENTS = 2;
const who = { user: fc.nat(USERS - 1), event: fc.nat(EVENTS - 1) };
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('reserve'), ...who, quantity: fc.integer({ min: 1, max: 3 }) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay'), ...who }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('buy'), ...who, quantity: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('letGo'), ...who }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('cancelSome'),
      ...who,
      quantity: fc.option(fc.integer({ min: 1, max: 2 }), { nil: null }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('organiserRefund'), ...who }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('checkIn'), ...who }) },
  // Closes the days up to 26 October (before the week) .. 2 November (its last day).
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close'), through: fc.integer({ min: -1, max: 6 }) }) },
) as fc.Arbitrary<Action>;

/** Instants are drawn near local midnights more often than elsewhere: that is where a wrong zone shows. */
const minute = fc.oneof(
  fc.nat(WINDOW_MINUTES - 1),
  fc.tuple(fc.nat(5), fc.integer({ min: -3, max: 3 })).map(([day, off]) => {
    // Local midnight is 21:00 or 22:00 UTC depending on the season; both are probed.
    const base = day * 24 * 60 + 21 * 60 + (off >= 0 ? 60 : 0);
    return Math.min(WINDOW_MINUTES - 1, Math.max(0, base + off));
  }),
);

async function request(user: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  return ctx.request(user, { method, url, ...(payload ? { payload } : {}) });
}

/** The user's booking of the event in `status`, newest first. */
async function bookingOf(userId: string, eventId: string, status: 'pending' | 'paid') {
  const result = await pool.query<{ id: string; quantity: number; refunded: number; unit: number }>(
    `SELECT id, quantity, refunded_quantity AS refunded, unit_price_piasters AS unit FROM bookings
      WHERE user_id = $1 AND event_id = $2 AND status = $3 ORDER BY created_at DESC LIMIT 1`,
    [userId, eventId, status],
  );
  return result.rows[0];
}

async function latestRefund(bookingId: string) {
  const result = await pool.query<{ id: string; quantity: number; amount: number }>(
    `SELECT id, quantity, amount_piasters AS amount FROM refunds
      WHERE booking_id = $1 AND status = 'succeeded' ORDER BY created_at DESC LIMIT 1`,
    [bookingId],
  );
  return result.rows[0];
}

async function perform(
  step: Action,
  at: Date,
  users: TestUser[],
  events: Array<{ id: string; feePercent: number }>,
): Promise<void> {
  if (step.kind === 'close') {
    await closeDashboardDays(pool, ZONE, addDays(FIRST_DAY, step.through));
    done.closes++;
    return;
  }
  const user = users[step.user] as TestUser;
  const event = events[step.event] as { id: string; feePercent: number };
  const day = localDay(at);
  switch (step.kind) {
    case 'reserve': {
      const before = await bookingOf(user.id, event.id, 'pending');
      const res = await request(user, 'POST', '/api/bookings', { eventId: event.id, quantity: step.quantity });
      if (res.statusCode !== 201) return; // sold out
      await pool.query('UPDATE bookings SET created_at = $2 WHERE id = $1', [res.json().id, at]);
      // A new choice replaces the buyer's hold: one reservation still, on the day of the first choice.
      if (!before) done.reservations.set(res.json().id, { eventId: event.id, day });
      return;
    }
    case 'buy': {
      // A reservation and its payment at the same instant.
      await perform({ ...step, kind: 'reserve' }, at, users, events);
      await perform({ ...step, kind: 'pay' }, at, users, events);
      return;
    }
    case 'pay': {
      const held = await bookingOf(user.id, event.id, 'pending');
      if (!held) return;
      const res = await request(user, 'POST', '/api/payments/simulated/confirm', {
        bookingId: held.id,
        cardNumber: '4242424242424242',
        expMonth: 12,
        expYear: 99,
        cvc: '123',
      });
      expect(res.statusCode, res.body).toBe(200);
      await pool.query('UPDATE bookings SET paid_at = $2 WHERE id = $1', [held.id, at]);
      done.sales.push({
        eventId: event.id,
        bookingId: held.id,
        tickets: held.quantity,
        piasters: held.quantity * held.unit,
        day,
      });
      return;
    }
    case 'letGo': {
      const held = await bookingOf(user.id, event.id, 'pending');
      if (held) expect((await request(user, 'DELETE', `/api/bookings/${held.id}/hold`)).statusCode).toBe(200);
      return;
    }
    case 'cancelSome':
    case 'organiserRefund': {
      const paid = await bookingOf(user.id, event.id, 'paid');
      if (!paid) return;
      // Tickets already used at the door are not given back.
      const used = (
        await pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM tickets WHERE booking_id = $1 AND voided_at IS NULL AND checked_in_at IS NOT NULL',
          [paid.id],
        )
      ).rows[0]?.n as number;
      const left = paid.quantity - paid.refunded - used;
      // The organiser refunds a booking whole, or not at all once one of its tickets was used.
      if (left === 0 || (step.kind === 'organiserRefund' && used > 0)) {
        const refused =
          step.kind === 'cancelSome'
            ? await request(user, 'POST', `/api/bookings/${paid.id}/cancel`, {})
            : await request(admin, 'POST', `/api/admin/bookings/${paid.id}/refund`);
        expect(refused.json().code).toBe('TICKETS_USED');
        return;
      }
      const quantity = step.kind === 'cancelSome' && step.quantity !== null ? Math.min(step.quantity, left) : left;
      const closed = await pool.query(
        'SELECT 1 FROM bookings b, dashboard_closed c WHERE b.id = $1 AND b.paid_at < c.closed_before',
        [paid.id],
      );
      done.refundsOfClosedDays += closed.rowCount ?? 0;
      const res =
        step.kind === 'cancelSome'
          ? await request(user, 'POST', `/api/bookings/${paid.id}/cancel`, { quantity })
          : await request(admin, 'POST', `/api/admin/bookings/${paid.id}/refund`);
      expect(res.statusCode, res.body).toBe(200);
      const refund = await latestRefund(paid.id);
      expect(refund?.quantity).toBe(quantity);
      const fee = step.kind === 'cancelSome' ? event.feePercent : 0;
      const expected = refundOf(quantity * paid.unit, fee).refundPiasters;
      expect(refund?.amount).toBe(expected);
      await pool.query('UPDATE refunds SET completed_at = $2 WHERE id = $1', [refund?.id, at]);
      done.refunds.push({ eventId: event.id, tickets: quantity, piasters: expected, day });
      return;
    }
    case 'checkIn': {
      const ticket = await pool.query<{ id: string }>(
        `SELECT t.id FROM tickets t JOIN bookings b ON b.id = t.booking_id
          WHERE b.user_id = $1 AND t.event_id = $2 AND t.voided_at IS NULL AND t.checked_in_at IS NULL
          ORDER BY t.number LIMIT 1`,
        [user.id, event.id],
      );
      const id = ticket.rows[0]?.id;
      if (!id) return;
      const res = await request(admin, 'POST', `/api/check-in/${event.id}/sync`, {
        scans: [{ nonce: randomUUID(), ticketId: id, scannedAt: new Date().toISOString() }],
      });
      expect(res.statusCode, res.body).toBe(200);
      await pool.query('UPDATE tickets SET checked_in_at = $2 WHERE id = $1', [id, at]);
      done.checkIns.push({ eventId: event.id, ticketId: id, day });
      return;
    }
  }
}

/** What the dashboard must say for the days from..to, of one event or all: summed from `done`. */
async function expected(from: string, to: string, eventId: string | null) {
  const inScope = <T extends { eventId: string; day: string }>(rows: T[]) =>
    rows.filter((row) => (eventId === null || row.eventId === eventId) && row.day >= from && row.day <= to);
  const voided = new Set(
    (await pool.query<{ id: string }>('SELECT id FROM tickets WHERE voided_at IS NOT NULL')).rows.map((row) => row.id),
  );
  const sales = inScope(done.sales);
  const refunds = inScope(done.refunds);
  const checkIns = inScope(done.checkIns).filter((row) => !voided.has(row.ticketId));
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  const sum = <T>(rows: T[], pick: (row: T) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const gross = sum(sales, (s) => s.piasters);
  const refunded = sum(refunds, (r) => r.piasters);
  return {
    ticketsSold: sum(sales, (s) => s.tickets),
    ticketsRefunded: sum(refunds, (r) => r.tickets),
    grossPiasters: gross,
    refundedPiasters: refunded,
    netPiasters: gross - refunded,
    checkedIn: checkIns.length,
    byDay: days.map((day) => ({
      day,
      ticketsSold: sum(
        sales.filter((s) => s.day === day),
        (s) => s.tickets,
      ),
      ticketsRefunded: sum(
        refunds.filter((r) => r.day === day),
        (r) => r.tickets,
      ),
      grossPiasters: sum(
        sales.filter((s) => s.day === day),
        (s) => s.piasters,
      ),
      refundedPiasters: sum(
        refunds.filter((r) => r.day === day),
        (r) => r.piasters,
      ),
      checkedIn: checkIns.filter((c) => c.day === day).length,
    })),
    byMethod: sales.length > 0 ? [{ method: 'simulated', bookings: sales.length, grossPiasters: gross }] : [],
    event:
      eventId === null
        ? null
        : {
            id: eventId,
            // Held now: every ticket sold less every one given back, whatever the days; admitted and still valid.
            ticketsValid:
              sum(
                done.sales.filter((s) => s.eventId === eventId),
                (s) => s.tickets,
              ) -
              sum(
                done.refunds.filter((r) => r.eventId === eventId),
                (r) => r.tickets,
              ),
            checkedIn: done.checkIns.filter((c) => c.eventId === eventId && !voided.has(c.ticketId)).length,
          },
    funnel: {
      views: 0,
      reservations: [...done.reservations.values()].filter(
        (r) => (eventId === null || r.eventId === eventId) && r.day >= from && r.day <= to,
      ).length,
      paid: sales.length,
    },
  };
}

async function check(from: string, to: string, eventId: string | null): Promise<void> {
  const query = `from=${from}&to=${to}${eventId ? `&eventId=${eventId}` : ''}`;
  const res = await ctx.request(admin, { method: 'GET', url: `/api/admin/dashboard?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  const figures: Dashboard = res.json();
  const want = await expected(from, to, eventId);
  expect(figures, query).toMatchObject(want);

  // The orders CSV gives the same money: the Paid column sums to gross, Refunded to what was given back.
  const csv = await ctx.request(admin, { method: 'GET', url: `/api/admin/orders.csv?${query}` });
  const [header, ...rows] = parseCsv(csv.body.replace(/^\uFEFF/, ''));
  const column = (name: string) => (header ?? []).indexOf(name);
  const cents = (cell: string | undefined) => (cell ? Math.round(Number(cell) * 100) : 0);
  const total = (name: string) => rows.reduce((sum, row) => sum + cents(row[column(name)]), 0);
  expect(total('Paid (EGP)'), `${query}: orders paid`).toBe(want.grossPiasters);
  expect(total('Refunded (EGP)'), `${query}: orders refunded`).toBe(want.refundedPiasters);
  const tickets = rows.reduce((sum, row) => sum + Number(row[column('Tickets')] || 0), 0);
  expect(tickets, `${query}: tickets`).toBe(want.ticketsSold);
}

it('agrees with the orders for every history, range and event, with days closed at any point, across the end of daylight saving time', async () => {
  const day = fc.integer({ min: 0, max: 6 }).map((n) => addDays(FIRST_DAY, n));
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(action, minute), { minLength: 8, maxLength: 30 }),
      fc.tuple(day, day).map(([a, b]) => (a <= b ? [a, b] : [b, a]) as [string, string]),
      fc.boolean(),
      async (history, [from, to], reopen) => {
        if (reopen) await reopenDashboardDays(pool);
        const users = await createUsersFast(pool, ctx.config.authSecret, USERS);
        const events = [
          { id: (await createTestEvent(pool, { capacity: 12, pricePiasters: 10_000 })).id, feePercent: 0 },
          { id: (await createTestEvent(pool, { capacity: 9, pricePiasters: 25_050 })).id, feePercent: 10 },
        ];
        await pool.query('UPDATE events SET cancellation_fee_percent = 10 WHERE id = $1', [events[1]?.id]);
        const instants = history.map(([, at]) => at).sort((a, b) => a - b);
        for (const [index, [step]] of history.entries()) {
          await perform(step, new Date(WINDOW_START + (instants[index] as number) * 60_000), users, events);
        }
        for (const eventId of [null, ...events.map((event) => event.id)]) {
          await check(FIRST_DAY, LAST_DAY, eventId);
          await check(from, to, eventId);
        }
        // The two days either side of the hour that comes twice, alone.
        await check('2026-10-29', '2026-10-29', null);
        await check('2026-10-30', '2026-10-30', null);
      },
    ),
    { numRuns: 25 },
  );
  process.stdout.write(
    `done: ${done.sales.length} sales, ${done.refunds.length} refunds (${done.refundsOfClosedDays} of bookings paid ` +
      `on a closed day), ${done.checkIns.length} check-ins, ${done.reservations.size} reservations, ${done.closes} closes\n`,
  );
  await expectCapacityInvariant(pool);
});
