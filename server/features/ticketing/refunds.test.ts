import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buyTickets, createTestEvent, expectCapacityInvariant } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());
afterEach(() => {
  vi.useRealTimers();
  return expectCapacityInvariant(pool);
});
const admin = await ctx.createUser({ role: 'admin' });

function cancel(user: TestUser, bookingId: string, quantity?: number) {
  return ctx.request(user, {
    method: 'POST',
    url: `/api/bookings/${bookingId}/cancel`,
    payload: quantity === undefined ? {} : { quantity },
  });
}

function quote(user: TestUser, bookingId: string, quantity?: number) {
  return ctx.request(user, {
    method: 'GET',
    url: `/api/bookings/${bookingId}/refund-quote${quantity === undefined ? '' : `?quantity=${quantity}`}`,
  });
}

async function bookingRow(id: string) {
  const result = await pool.query<{
    status: string;
    ended_reason: string | null;
    refunded_quantity: number;
    refunded_piasters: number;
    valid: number;
    refunds: number;
    mails: number;
  }>(
    `SELECT b.status, b.ended_reason, b.refunded_quantity, b.refunded_piasters,
            (SELECT count(*)::int FROM tickets t WHERE t.booking_id = b.id AND t.voided_at IS NULL) AS valid,
            (SELECT count(*)::int FROM refunds r WHERE r.booking_id = b.id AND r.status = 'succeeded') AS refunds,
            (SELECT count(*)::int FROM email_outbox m JOIN refunds r ON m.dedupe_key = 'refund:' || r.id
              WHERE r.booking_id = b.id) AS mails
       FROM bookings b WHERE b.id = $1`,
    [id],
  );
  return result.rows[0];
}

async function available(eventId: string): Promise<number> {
  const result = await pool.query<{ n: number }>('SELECT tickets_available AS n FROM events WHERE id = $1', [eventId]);
  return result.rows[0]?.n as number;
}

describe('a buyer cancels', () => {
  it('quotes and refunds what was paid less the fee, in piasters, some tickets and then the rest', async () => {
    const event = await createTestEvent(pool, { capacity: 10, pricePiasters: 15_050 });
    await pool.query('UPDATE events SET cancellation_fee_percent = 10 WHERE id = $1', [event.id]);
    const user = await ctx.createUser();
    const id = await buyTickets(ctx, user, event.id, 3);
    expect(await available(event.id)).toBe(7);

    const one = (await quote(user, id, 1)).json();
    expect(one).toMatchObject({ quantity: 1, refundPiasters: 13_545, feePiasters: 1_505, allowed: true });
    const all = (await quote(user, id)).json();
    expect(all).toMatchObject({ quantity: 3, refundPiasters: 40_635, feePiasters: 4_515, allowed: true });

    const first = await cancel(user, id, 1);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ refundPiasters: 13_545, booking: { status: 'paid' } });
    expect(await bookingRow(id)).toMatchObject({
      status: 'paid',
      refunded_quantity: 1,
      refunded_piasters: 13_545,
      valid: 2,
    });
    expect(await available(event.id)).toBe(8);

    const mine = (await ctx.request(user, { method: 'GET', url: '/api/me/bookings' })).json();
    expect(mine.tickets.find((t: { id: string }) => t.id === id)).toMatchObject({
      refundedQuantity: 1,
      refundedPiasters: 13_545,
      cancellationFeePercent: 10,
      unitPricePiasters: 15_050,
    });

    expect((await cancel(user, id, 3)).json().code).toBe('TOO_MANY_TICKETS');
    const rest = await cancel(user, id);
    expect(rest.json()).toMatchObject({
      refundPiasters: 27_090,
      booking: { status: 'refunded', endedReason: 'refunded_to_buyer' },
    });
    expect(await bookingRow(id)).toMatchObject({
      status: 'refunded',
      refunded_quantity: 3,
      refunded_piasters: 40_635,
      valid: 0,
      refunds: 2,
      mails: 2,
    });
    expect(await available(event.id)).toBe(10);
    // Under Your History, with what came back.
    const after = (await ctx.request(user, { method: 'GET', url: '/api/me/bookings' })).json();
    expect(after.tickets.map((t: { id: string }) => t.id)).not.toContain(id);
    expect(after.history.find((t: { id: string }) => t.id === id)).toMatchObject({
      historyReason: 'refunded',
      refundedPiasters: 40_635,
      refundableUntil: null,
    });
    expect((await cancel(user, id)).json().code).toBe('NOT_REFUNDABLE');
  });

  it('writes the refund email in the buyer’s language, once per refund', async () => {
    const event = await createTestEvent(pool, { capacity: 5, pricePiasters: 20_000, title: 'Oud Night' });
    const user = await ctx.createUser({ firstName: 'Layla' });
    await pool.query(`UPDATE users SET language = 'ar' WHERE id = $1`, [user.id]);
    const id = await buyTickets(ctx, user, event.id, 2);
    await cancel(user, id, 2);
    const mail = await pool.query<{ subject: string; text_body: string }>(
      `SELECT m.subject, m.text_body FROM email_outbox m JOIN refunds r ON m.dedupe_key = 'refund:' || r.id
        WHERE r.booking_id = $1`,
      [id],
    );
    expect(mail.rows).toHaveLength(1);
    expect(mail.rows[0]?.subject).toBe('إيفنتري: استرداد مبلغ حجزك لفعالية \u2068Oud Night\u2069');
    expect(mail.rows[0]?.text_body).toContain('أُلغيت تذكرتان من حجزك لفعالية \u2068Oud Night\u2069، ورددنا إليك');
  });

  it('refuses once the policy’s cutoff has passed, and for an event without refunds', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const id = await buyTickets(ctx, user, event.id, 1);
    await pool.query('UPDATE events SET refund_hours_before = 0 WHERE id = $1', [event.id]);
    expect((await quote(user, id)).json()).toMatchObject({ allowed: false, allowedUntil: null });
    const refused = await cancel(user, id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'REFUNDS_CLOSED', detail: 'Refunds for this event are closed.' });
    expect(await bookingRow(id)).toMatchObject({ status: 'paid', refunded_quantity: 0, valid: 1 });
  });

  it('counts the cutoff in real hours across Cairo’s change to summer time (one minute before, one after)', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const id = await buyTickets(ctx, user, event.id, 1);
    // 1 May 2027, 19:00 in Cairo (summer time began at midnight on 30 April): 16:00 UTC. 48 hours before is
    // 29 April 16:00 UTC, 18:00 on Cairo's clock then (winter time), not 19:00.
    await pool.query(
      `UPDATE events SET start_date = '2027-03-01', end_date = '2027-04-30', event_date = '2027-05-01',
                         start_time = '19:00', end_time = '22:00' WHERE id = $1`,
      [event.id],
    );
    // The session must outlive the clock's jump (it is the test's clock that moves, not the buyer's).
    await pool.query(
      `UPDATE sessions SET expires_at = '2030-01-01', updated_at = '2027-04-29T15:00:00Z' WHERE user_id = $1`,
      [user.id],
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-04-29T15:59:00Z'));
    const before = (await quote(user, id)).json();
    expect(before).toMatchObject({ allowed: true, allowedUntil: '2027-04-29T16:00:00.000Z' });
    vi.setSystemTime(new Date('2027-04-29T16:01:00Z'));
    expect((await quote(user, id)).json()).toMatchObject({ allowed: false });
    expect((await cancel(user, id)).json().code).toBe('REFUNDS_CLOSED');
    vi.setSystemTime(new Date('2027-04-29T15:59:00Z'));
    expect((await cancel(user, id)).statusCode).toBe(200);
  });

  it('cannot give back a ticket already used at the door', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const id = await buyTickets(ctx, user, event.id, 2);
    await pool.query('UPDATE tickets SET checked_in_at = now() WHERE booking_id = $1 AND number = 1', [id]);
    expect((await cancel(user, id, 2)).json()).toMatchObject({ code: 'TICKETS_USED' });
    expect((await cancel(user, id, 1)).statusCode).toBe(200);
    const tickets = await pool.query<{ number: number; voided: boolean }>(
      'SELECT number, voided_at IS NOT NULL AS voided FROM tickets WHERE booking_id = $1 ORDER BY number',
      [id],
    );
    expect(tickets.rows).toEqual([
      { number: 1, voided: false },
      { number: 2, voided: true },
    ]);
  });

  it('refunds once however many times it is asked at the same moment', async () => {
    const event = await createTestEvent(pool, { capacity: 5, pricePiasters: 10_000 });
    const user = await ctx.createUser();
    const id = await buyTickets(ctx, user, event.id, 2);
    const answers = await Promise.all(Array.from({ length: 10 }, () => cancel(user, id)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const a of answers.filter((a) => a.statusCode !== 200)) {
      expect(['REFUND_IN_PROGRESS', 'NOT_REFUNDABLE', 'TOO_MANY_TICKETS']).toContain(a.json().code);
    }
    expect(await bookingRow(id)).toMatchObject({ status: 'refunded', refunded_piasters: 20_000, refunds: 1, mails: 1 });
    expect(await available(event.id)).toBe(5);
  });

  it("answers another user's booking, a malformed one and bad bodies with 4xx", async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const [owner, stranger] = [await ctx.createUser(), await ctx.createUser()];
    const id = await buyTickets(ctx, owner, event.id, 1);
    expect((await cancel(stranger, id)).statusCode).toBe(404);
    expect((await quote(stranger, id)).statusCode).toBe(404);
    expect((await cancel(owner, 'nope')).statusCode).toBe(404);
    expect((await cancel(owner, id, 0)).statusCode).toBe(400);
    expect((await cancel(owner, id, 1.5)).statusCode).toBe(400);
    expect((await quote(owner, id, 99)).json()).toMatchObject({ allowed: false });
    const extra = await ctx.request(owner, {
      method: 'POST',
      url: `/api/bookings/${id}/cancel`,
      payload: { all: true },
    });
    expect(extra.statusCode).toBe(400);
    expect(await bookingRow(id)).toMatchObject({ status: 'paid', refunded_quantity: 0 });
  });
});

describe('the organiser', () => {
  it('refunds a booking in full whatever the policy, once', async () => {
    const event = await createTestEvent(pool, { capacity: 5, pricePiasters: 12_000 });
    await pool.query('UPDATE events SET refund_hours_before = 0, cancellation_fee_percent = 50 WHERE id = $1', [
      event.id,
    ]);
    const user = await ctx.createUser();
    const id = await buyTickets(ctx, user, event.id, 2);
    const res = await ctx.request(admin, { method: 'POST', url: `/api/admin/bookings/${id}/refund` });
    expect(res.json()).toEqual({ refundPiasters: 24_000, bookingId: id, status: 'refunded' });
    expect(await bookingRow(id)).toMatchObject({
      ended_reason: 'refunded_by_organiser',
      refunded_piasters: 24_000,
      valid: 0,
    });
    expect((await ctx.request(admin, { method: 'POST', url: `/api/admin/bookings/${id}/refund` })).json().code).toBe(
      'NOT_REFUNDABLE',
    );
    expect((await ctx.request(user, { method: 'POST', url: `/api/admin/bookings/${id}/refund` })).statusCode).toBe(403);
  });

  it('cancels an event: holds end, every paid booking is refunded once, nothing more is sold, the page says so', async () => {
    const event = await createTestEvent(pool, { capacity: 20, pricePiasters: 5_000 });
    const buyers = await Promise.all([ctx.createUser(), ctx.createUser(), ctx.createUser()]);
    const paid = [
      await buyTickets(ctx, buyers[0] as TestUser, event.id, 2),
      await buyTickets(ctx, buyers[1] as TestUser, event.id, 1),
    ];
    // One of them had already given a ticket back.
    await cancel(buyers[0] as TestUser, paid[0] as string, 1);
    const hold = await ctx.request(buyers[2] as TestUser, {
      method: 'POST',
      url: '/api/bookings',
      payload: { eventId: event.id, quantity: 3 },
    });
    expect(hold.statusCode).toBe(201);

    const res = await ctx.request(admin, { method: 'POST', url: `/api/admin/events/${event.id}/cancel` });
    expect(res.json()).toEqual({ refunds: 2, holdsEnded: 1 });
    expect(await bookingRow(paid[0] as string)).toMatchObject({
      status: 'refunded',
      refunded_piasters: 10_000,
      refunds: 2,
    });
    expect(await bookingRow(paid[1] as string)).toMatchObject({ status: 'refunded', ended_reason: 'event_cancelled' });
    expect(await available(event.id)).toBe(20);

    const page = await ctx.app.inject({ method: 'GET', url: `/api/events/${event.id}` });
    expect(page.json().cancelledAt).toEqual(expect.any(String));
    // It leaves the lists and searches (nothing can be bought), and keeps its page to say so.
    const search = await ctx.app.inject({ method: 'GET', url: `/api/events?q=${encodeURIComponent(event.title)}` });
    expect(search.json().items).toEqual([]);
    const again = await ctx.request(buyers[2] as TestUser, {
      method: 'POST',
      url: '/api/bookings',
      payload: { eventId: event.id, quantity: 1 },
    });
    expect(again.json().code).toBe('SALES_CLOSED');
    // Cancelling again, and the job, refund nobody twice.
    expect((await ctx.request(admin, { method: 'POST', url: `/api/admin/events/${event.id}/cancel` })).json()).toEqual({
      refunds: 0,
      holdsEnded: 0,
    });
    expect(await ctx.app.ticketing.refunds.finishRefunds(0)).toBe(0);
    const history = (await ctx.request(buyers[1] as TestUser, { method: 'GET', url: '/api/me/bookings' })).json();
    expect(history.history.find((t: { id: string }) => t.id === paid[1])).toMatchObject({ historyReason: 'cancelled' });
  });

  it('finishes refunds a crash left asked for and never carried out, once', async () => {
    const event = await createTestEvent(pool, { capacity: 5, pricePiasters: 5_000 });
    const user = await ctx.createUser();
    const id = await buyTickets(ctx, user, event.id, 2);
    // The process died after asking: the refund is recorded, nothing else happened.
    await pool.query(
      `INSERT INTO refunds (booking_id, quantity, amount_piasters, fee_piasters, reason, created_at)
       VALUES ($1, 2, 10000, 0, 'organiser', now() - interval '5 minutes')`,
      [id],
    );
    expect(await bookingRow(id)).toMatchObject({ status: 'paid', valid: 2 });
    const results = await Promise.all([
      ctx.app.ticketing.refunds.finishRefunds(),
      ctx.app.ticketing.refunds.finishRefunds(),
    ]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await bookingRow(id)).toMatchObject({
      status: 'refunded',
      refunded_piasters: 10_000,
      valid: 0,
      refunds: 1,
      mails: 1,
    });
  });
});
