import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bookingEndReasons, bookingStatuses } from '../../db/schema';
import type { PaymentOutcome, PaymentProvider } from '../../domain/payments';
import { rootDir } from '../../paths';
import { buyTickets, cancelReservation, createTestEvent, expectCapacityInvariant } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';
import { apply, type BookingState, setState, type TransitionName, transitions } from './state-machine';

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());
afterEach(() => expectCapacityInvariant(pool));

/** Every transition a test below has driven through the app and seen land where the table says. */
const walked = new Set<TransitionName>();

async function stateOf(bookingId: string): Promise<BookingState> {
  const result = await pool.query<BookingState>(
    'SELECT status, ended_reason AS "endedReason" FROM bookings WHERE id = $1',
    [bookingId],
  );
  const row = result.rows[0];
  if (!row) throw new Error(`no booking ${bookingId}`);
  return row;
}

/** The booking moved from `before` exactly as `name` says, and the API reports the same reason. */
async function expectMoved(name: TransitionName, user: TestUser, bookingId: string, before: BookingState | null) {
  const after = await stateOf(bookingId);
  expect(after, name).toEqual(apply(name, before));
  const api = await ctx.request(user, { method: 'GET', url: `/api/bookings/${bookingId}` });
  expect(api.json(), name).toMatchObject({ status: after.status, endedReason: after.endedReason });
  walked.add(name);
}

async function reserve(user: TestUser, eventId: string, quantity = 2): Promise<string> {
  const res = await ctx.request(user, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity } });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

/** What a provider's webhook would have verified, settled the way the webhook route settles it. */
function settle(outcome: PaymentOutcome) {
  return ctx.app.ticketing.settleEvent(
    ctx.app.ticketing.providers.all[0] as PaymentProvider, // the simulated processor
    { id: `evt_${randomUUID()}`, type: `test.${outcome.kind}`, bookingId: outcome.bookingId, outcome },
    ctx.app.log,
  );
}

async function succeeded(bookingId: string) {
  const row = await pool.query<{ total: number }>('SELECT total_piasters AS total FROM bookings WHERE id = $1', [
    bookingId,
  ]);
  await settle({ kind: 'succeeded', bookingId, amountPiasters: row.rows[0]?.total, currency: 'egp' });
}

async function lapse(bookingId: string) {
  await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1`, [bookingId]);
}

describe('the booking state machine', () => {
  it('ends every transition in a known state, with a reason exactly when the booking ended unpaid', () => {
    for (const [name, t] of Object.entries(transitions)) {
      expect(bookingStatuses, name).toContain(t.to);
      const ended = t.to !== 'pending' && t.to !== 'paid';
      expect('reason' in t, name).toBe(ended);
      for (const from of t.from) {
        if (from === 'none') continue;
        const [status, reason] = from.split('/');
        expect(bookingStatuses, name).toContain(status);
        if (reason) expect(bookingEndReasons, name).toContain(reason);
      }
    }
  });

  it('refuses what the table does not allow', () => {
    expect(() => apply('pay', { status: 'paid', endedReason: null })).toThrow(/pay is not allowed from paid/);
    expect(() => apply('payLate', { status: 'cancelled', endedReason: 'cancelled_by_buyer' })).toThrow();
    expect(() => apply('reserve', { status: 'pending', endedReason: null })).toThrow();
    expect(apply('refundLate', { status: 'expired', endedReason: 'expired' })).toEqual({
      status: 'refunded',
      endedReason: 'expired',
    });
  });

  it('is what the reservation function writes when a newer hold replaces one', () => {
    const file = readFileSync(path.join(import.meta.dirname, 'sql', 'eventry_reserve_tickets.sql'), 'utf8');
    expect(file).toContain(`UPDATE bookings SET ${setState('replace')}, updated_at = now()`);
  });

  it('reserve, replace, pay: a buyer holds, holds again in another tab, and pays the newer hold', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const first = await reserve(user, event.id, 2);
    await expectMoved('reserve', user, first, null);
    const second = await reserve(user, event.id, 3);
    await expectMoved('replace', user, first, { status: 'pending', endedReason: null });
    const paid = await ctx.request(user, {
      method: 'POST',
      url: '/api/payments/simulated/confirm',
      payload: { bookingId: second, cardNumber: '4242424242424242', expMonth: 12, expYear: 99, cvc: '123' },
    });
    expect(paid.json()).toEqual({ bookingId: second, status: 'paid' });
    await expectMoved('pay', user, second, { status: 'pending', endedReason: null });
  });

  it('cancelHold: the buyer lets the hold go', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id);
    expect((await cancelReservation(ctx, user, id)).statusCode).toBe(200);
    await expectMoved('cancelHold', user, id, { status: 'pending', endedReason: null });
  });

  it('expire, then payLate: a hold runs out, and money that comes while its tickets are left takes them again', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id);
    await lapse(id);
    expect(await ctx.app.ticketing.expireHolds()).toBe(1);
    await expectMoved('expire', user, id, { status: 'pending', endedReason: null });
    await succeeded(id);
    await expectMoved('payLate', user, id, { status: 'expired', endedReason: 'expired' });
  });

  it('refundLate: money that comes after the buyer cancelled is given back', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id);
    await cancelReservation(ctx, user, id);
    await succeeded(id);
    await expectMoved('refundLate', user, id, { status: 'cancelled', endedReason: 'cancelled_by_buyer' });
  });

  it('endForDeletedEvent: deleting an event ends its holds', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [user, admin] = await Promise.all([ctx.createUser(), ctx.createUser({ role: 'admin' })]);
    const id = await reserve(user, event.id);
    const deleted = await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` });
    expect(deleted.statusCode).toBeLessThan(300);
    await expectMoved('endForDeletedEvent', user, id, { status: 'pending', endedReason: null });
  });

  it('refundForDeletedEvent: money for a hold whose event was deleted before its holds were ended', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id);
    // The deletion committed; the app has not ended its holds yet.
    await pool.query('UPDATE events SET is_deleted = true, deleted_at = now() WHERE id = $1', [event.id]);
    await succeeded(id);
    await expectMoved('refundForDeletedEvent', user, id, { status: 'pending', endedReason: null });
  });

  it('cancelPayment: the provider cancels the payment of a hold', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id);
    await settle({ kind: 'canceled', bookingId: id, reference: 'pi_test', message: 'abandoned' });
    await expectMoved('cancelPayment', user, id, { status: 'pending', endedReason: null });
  });

  it('refundPart, then refundToBuyer: the buyer gives back one ticket, then the last', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const id = await buyTickets(ctx, user, event.id, 2);
    const cancel = () =>
      ctx.request(user, { method: 'POST', url: `/api/bookings/${id}/cancel`, payload: { quantity: 1 } });
    expect((await cancel()).statusCode).toBe(200);
    await expectMoved('refundPart', user, id, { status: 'paid', endedReason: null });
    expect((await cancel()).statusCode).toBe(200);
    await expectMoved('refundToBuyer', user, id, { status: 'paid', endedReason: null });
  });

  it('refundByOrganiser: the organiser refunds a booking in full', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [user, admin] = await Promise.all([ctx.createUser(), ctx.createUser({ role: 'admin' })]);
    const id = await buyTickets(ctx, user, event.id, 2);
    expect((await ctx.request(admin, { method: 'POST', url: `/api/admin/bookings/${id}/refund` })).statusCode).toBe(
      200,
    );
    await expectMoved('refundByOrganiser', user, id, { status: 'paid', endedReason: null });
  });

  it('endForCancelledEvent and refundForCancelledEvent: cancelling an event ends its holds and refunds its bookings', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [holder, buyer, admin] = await Promise.all([
      ctx.createUser(),
      ctx.createUser(),
      ctx.createUser({ role: 'admin' }),
    ]);
    const held = await reserve(holder, event.id);
    const paid = await buyTickets(ctx, buyer, event.id, 3);
    const res = await ctx.request(admin, { method: 'POST', url: `/api/admin/events/${event.id}/cancel` });
    expect(res.json()).toEqual({ refunds: 1, holdsEnded: 1 });
    await expectMoved('endForCancelledEvent', holder, held, { status: 'pending', endedReason: null });
    await expectMoved('refundForCancelledEvent', buyer, paid, { status: 'paid', endedReason: null });
  });

  it('offer, then declineOffer: tickets that come back are held for the waitlist, and the user says no', async () => {
    const event = await createTestEvent(pool, { capacity: 2 });
    const [holder, waiting] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const held = await reserve(holder, event.id, 2);
    const joined = await ctx.request(waiting, {
      method: 'POST',
      url: `/api/events/${event.id}/waitlist`,
      payload: { quantity: 2 },
    });
    expect(joined.statusCode).toBe(201);
    expect((await cancelReservation(ctx, holder, held)).statusCode).toBe(200);
    const offer = (await ctx.request(waiting, { method: 'GET', url: '/api/me/waitlist' })).json().items[0].offer
      .bookingId as string;
    await expectMoved('offer', waiting, offer, null);
    const declined = await ctx.request(waiting, { method: 'POST', url: `/api/me/waitlist/${event.id}/decline` });
    expect(declined.statusCode).toBe(200);
    await expectMoved('declineOffer', waiting, offer, { status: 'pending', endedReason: null });
  });

  it('has walked every transition of the table', () => {
    expect([...walked].sort()).toEqual(Object.keys(transitions).sort());
  });
});

describe('the booking module owns booking rows', () => {
  /** Production source under server/, but the booking module's own files and test helpers. */
  function sources(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return file.includes(path.join('features', 'ticketing')) ? [] : sources(file);
      return /\.ts$/.test(name) &&
        !/(\.test|test-support)\.ts$/.test(name) &&
        !file.includes(`${path.sep}test${path.sep}`)
        ? [file]
        : [];
    });
  }

  it('is the only production code that writes a booking row', () => {
    const writers = sources(path.join(rootDir, 'server')).filter((file) =>
      /\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+bookings\b/i.test(readFileSync(file, 'utf8')),
    );
    expect(writers).toEqual([]);
  });
});
