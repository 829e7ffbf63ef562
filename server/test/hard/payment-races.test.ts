import { randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestUser } from '../helpers';
import {
  STAND_IN_PUBLISHABLE_KEY,
  STAND_IN_SECRET_KEY,
  type StandInIntent,
  startStripeStandIn,
} from '../stripe-stand-in';
import { TICKETS_NOT_FOLLOWING_BOOKINGS } from '../ticket-invariant';
import { appRoutes, describeResponse, insertEvent } from './support';

/**
 * Payment races the per-feature tests do not cover: the same confirmation arriving many times at once
 * (simulated confirms in parallel, Stripe webhooks delivered concurrently and out of order, the success
 * page asking Stripe at the same moment), and payments racing the expiry of their hold. Whatever the
 * interleaving: at most one paid transition and exactly one confirmation email per paid booking, and
 * capacity = available + held + sold.
 */

const CARD = { cardNumber: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' };

async function invariant(ctx: TestContext): Promise<void> {
  const { rows } = await ctx.database.pool.query<{ title: string; capacity: number; available: number; used: number }>(
    `SELECT e.title, e.capacity, e.tickets_available AS available,
            coalesce(sum(b.quantity - b.refunded_quantity) FILTER (WHERE b.status IN ('pending', 'paid')), 0)::int AS used
       FROM events e LEFT JOIN bookings b ON b.event_id = e.id GROUP BY e.id`,
  );
  for (const row of rows) expect(row.available + row.used, JSON.stringify(row)).toBe(row.capacity);
  const mismatched = await ctx.database.pool.query(TICKETS_NOT_FOLLOWING_BOOKINGS);
  expect(mismatched.rows, 'a paid booking has its tickets 1..quantity; any other has none valid').toEqual([]);
}

async function state(ctx: TestContext, id: string): Promise<{ status: string; mails: number }> {
  const booking = await ctx.database.pool.query<{ status: string }>('SELECT status FROM bookings WHERE id = $1', [id]);
  const mails = await ctx.database.pool.query('SELECT 1 FROM email_outbox WHERE dedupe_key = $1', [
    `booking-paid:${id}`,
  ]);
  return { status: booking.rows[0]?.status ?? 'missing', mails: mails.rowCount ?? 0 };
}

async function reserve(ctx: TestContext, user: TestUser, eventId: string, quantity = 2): Promise<string> {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/api/bookings',
    headers: { 'idempotency-key': randomUUID() },
    payload: { eventId, quantity },
  });
  expect(res.statusCode, describeResponse(res)).toBe(201);
  return (res.json() as { id: string }).id;
}

const simulated = await setupTestApp({ runJobs: true });
const WEBHOOK_SECRET = 'whsec_races_0123456789';
const standIn = await startStripeStandIn();
const stripe = await setupTestApp({
  config: {
    stripe: {
      secretKey: STAND_IN_SECRET_KEY,
      publishableKey: STAND_IN_PUBLISHABLE_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiUrl: standIn.url,
    },
  },
});
afterAll(async () => {
  await simulated.close();
  await stripe.close();
  await standIn.close();
});

describe('the simulated processor under concurrency', () => {
  const ctx = simulated;
  afterEach(() => invariant(ctx));
  const enabled = appRoutes(ctx.app).some((r) => r.key === 'POST /api/payments/simulated/confirm');

  it.runIf(enabled)('pays once and mails once when twenty confirmations arrive at the same moment', async () => {
    const event = await insertEvent(ctx.database, { capacity: 20 });
    const user = await ctx.createUser();
    const bookingId = await reserve(ctx, user, event.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.request(user, { method: 'POST', url: '/api/payments/simulated/confirm', payload: { bookingId, ...CARD } }),
      ),
    );
    for (const res of answers) expect(res.statusCode, describeResponse(res)).toBeLessThan(500);
    expect(answers.filter((r) => r.statusCode === 200 && r.json().status === 'paid').length).toBeGreaterThan(0);
    expect(await state(ctx, bookingId)).toEqual({ status: 'paid', mails: 1 });
  });

  it.runIf(enabled)('never lets a stranger’s concurrent confirmations touch the booking', async () => {
    const event = await insertEvent(ctx.database, { capacity: 20 });
    const owner = await ctx.createUser();
    const stranger = await ctx.createUser();
    const bookingId = await reserve(ctx, owner, event.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.request(stranger, {
          method: 'POST',
          url: '/api/payments/simulated/confirm',
          payload: { bookingId, ...CARD },
        }),
      ),
    );
    for (const res of answers) expect(res.statusCode, describeResponse(res)).toBe(404);
    expect(await state(ctx, bookingId)).toEqual({ status: 'pending', mails: 0 });
  });

  it.runIf(enabled)('settles a payment racing the expiry of its hold exactly one way', async () => {
    for (let round = 0; round < 5; round++) {
      const event = await insertEvent(ctx.database, { capacity: 4 });
      const user = await ctx.createUser();
      const rival = await ctx.createUser();
      const bookingId = await reserve(ctx, user, event.id, 2);
      await ctx.database.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1`, [
        bookingId,
      ]);
      // The expiry job runs every few seconds; a rival buyer wants the same tickets at the same time.
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () =>
          ctx.request(user, {
            method: 'POST',
            url: '/api/payments/simulated/confirm',
            payload: { bookingId, ...CARD },
          }),
        ),
        ctx.request(rival, { method: 'POST', url: '/api/bookings', payload: { eventId: event.id, quantity: 4 } }),
      ]);
      for (const res of answers) expect(res.statusCode, describeResponse(res)).toBeLessThan(500);
      const after = await state(ctx, bookingId);
      expect(['paid', 'expired', 'failed', 'refunded'], JSON.stringify(after)).toContain(after.status);
      expect(after.mails, JSON.stringify(after)).toBe(after.status === 'paid' ? 1 : 0);
      await invariant(ctx);
    }
  });
});

describe('Stripe webhooks under concurrency', () => {
  const ctx = stripe;
  const signer = new Stripe('sk_test_signer_only');
  afterEach(() => invariant(ctx));
  const enabled = appRoutes(ctx.app).some((r) => r.key === 'POST /api/payments/stripe/webhook');

  async function stripeBooking(user: TestUser, eventId: string): Promise<{ id: string; intent: StandInIntent }> {
    const id = await reserve(ctx, user, eventId);
    const row = await ctx.database.pool.query<{ payment_intent_id: string }>(
      'SELECT payment_intent_id FROM bookings WHERE id = $1',
      [id],
    );
    const intent = standIn.intents.get(row.rows[0]?.payment_intent_id ?? '');
    if (!intent) throw new Error('no PaymentIntent was created for the booking');
    return { id, intent };
  }

  function event(type: string, intent: StandInIntent, status: string) {
    return {
      id: `evt_${randomBytes(10).toString('hex')}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      type,
      data: { object: { ...intent, status } },
    };
  }

  function deliver(body: object) {
    const payload = JSON.stringify(body);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return ctx.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
  }

  it.runIf(enabled)('pays once and mails once when one success is delivered ten times at once', async () => {
    const ev = await insertEvent(ctx.database, { capacity: 10 });
    const user = await ctx.createUser();
    const booking = await stripeBooking(user, ev.id);
    standIn.setStatus(booking.intent.id, 'succeeded');
    const same = event('payment_intent.succeeded', booking.intent, 'succeeded');
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => deliver(same)),
      ...Array.from({ length: 5 }, () => deliver(event('payment_intent.succeeded', booking.intent, 'succeeded'))),
      // The success page asks at the same moment.
      ...Array.from({ length: 3 }, () =>
        ctx.request(user, { method: 'POST', url: `/api/bookings/${booking.id}/payment` }),
      ),
    ]);
    for (const res of answers) expect(res.statusCode, describeResponse(res)).toBeLessThan(500);
    expect(await state(ctx, booking.id)).toEqual({ status: 'paid', mails: 1 });
    const recorded = await ctx.database.pool.query('SELECT 1 FROM payment_events WHERE id = $1', [same.id]);
    expect(recorded.rowCount).toBe(1);
  });

  it.runIf(enabled)(
    'ends paid with one email when success, failure and cancel arrive together in any order',
    async () => {
      for (let round = 0; round < 4; round++) {
        const ev = await insertEvent(ctx.database, { capacity: 10 });
        const user = await ctx.createUser();
        const booking = await stripeBooking(user, ev.id);
        standIn.setStatus(booking.intent.id, 'succeeded');
        const deliveries = [
          event('payment_intent.payment_failed', booking.intent, 'requires_payment_method'),
          event('payment_intent.succeeded', booking.intent, 'succeeded'),
          event('payment_intent.canceled', booking.intent, 'canceled'),
          event('payment_intent.succeeded', booking.intent, 'succeeded'),
        ];
        const order = round % 2 === 0 ? deliveries : [...deliveries].reverse();
        const answers = await Promise.all(order.map(deliver));
        for (const res of answers) expect(res.statusCode, describeResponse(res)).toBeLessThan(500);
        const after = await state(ctx, booking.id);
        // Stripe says the money moved: the booking is paid (or refunded if its tickets were gone), mailed once.
        expect(['paid', 'refunded'], JSON.stringify(after)).toContain(after.status);
        expect(after.mails).toBe(after.status === 'paid' ? 1 : 0);
      }
    },
  );
});
