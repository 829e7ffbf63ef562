import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { en } from '../../../contracts/i18n/en';
import { cancelReservation, createTestEvent, expectCapacityInvariant } from '../../test/booking-fixtures';
import { eventually, setupTestApp, type TestUser } from '../../test/helpers';
import {
  STAND_IN_PUBLISHABLE_KEY,
  STAND_IN_SECRET_KEY,
  type StandInIntent,
  startStripeStandIn,
} from '../../test/stripe-stand-in';
import { createStripeProvider } from './stripe';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const standIn = await startStripeStandIn();
const stripeConfig = {
  secretKey: STAND_IN_SECRET_KEY,
  publishableKey: STAND_IN_PUBLISHABLE_KEY,
  webhookSecret: WEBHOOK_SECRET,
  apiUrl: standIn.url,
};
const ctx = await setupTestApp({ config: { stripe: stripeConfig }, runJobs: true });
const pool = ctx.database.pool;
const signer = new Stripe('sk_test_signer_only');
afterAll(async () => {
  await ctx.close();
  await standIn.close();
});
afterEach(() => expectCapacityInvariant(pool));

async function book(user: TestUser, eventId: string, quantity = 2) {
  const res = await ctx.request(user, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity } });
  expect(res.statusCode).toBe(201);
  const body = res.json();
  const row = await pool.query<{ payment_intent_id: string }>('SELECT payment_intent_id FROM bookings WHERE id = $1', [
    body.id,
  ]);
  const intentId = row.rows[0]?.payment_intent_id as string;
  return { ...body, intent: standIn.intents.get(intentId) as StandInIntent };
}

function stripeEvent(type: string, intent: StandInIntent, overrides: Partial<StandInIntent> = {}) {
  return {
    id: `evt_${randomBytes(10).toString('hex')}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object: { ...intent, ...overrides } },
  };
}

function postWebhook(event: unknown, options: { timestamp?: number; secret?: string; tamper?: boolean } = {}) {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
  });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload: options.tamper ? payload.replace('"amount":', '"amount":1') : payload,
  });
}

async function statusOf(id: string): Promise<string> {
  const result = await pool.query<{ status: string }>('SELECT status FROM bookings WHERE id = $1', [id]);
  return result.rows[0]?.status as string;
}

async function mailCount(id: string): Promise<number> {
  const result = await pool.query('SELECT 1 FROM email_outbox WHERE dedupe_key = $1', [`booking-paid:${id}`]);
  return result.rowCount ?? 0;
}

describe('Stripe configuration', () => {
  it('tells the web app to load Stripe with the publishable key', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/payments/config' });
    expect(res.json()).toEqual({
      provider: 'stripe',
      publishableKey: STAND_IN_PUBLISHABLE_KEY,
      choices: [{ provider: 'stripe', method: 'card' }],
      timeZone: 'Africa/Cairo',
    });
  });

  it('turns the simulated processor off', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 1);
    const res = await ctx.request(user, {
      method: 'POST',
      url: '/api/payments/simulated/confirm',
      payload: { bookingId: booking.id, cardNumber: '4242424242424242', expMonth: 12, expYear: 99, cvc: '123' },
    });
    expect(res.statusCode).toBe(404);
    expect(await statusOf(booking.id)).toBe('pending');
  });
});

describe('creating the PaymentIntent', () => {
  it('asks Stripe for total × 100 in EGP with the booking id as metadata and idempotency key', async () => {
    const event = await createTestEvent(pool, { pricePiasters: 25_050 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 3);
    expect(booking.payment.provider).toBe('stripe');
    expect(booking.payment.clientSecret).toBe(booking.intent.client_secret);
    expect(booking.intent).toMatchObject({ amount: 75_150, currency: 'egp', metadata: { bookingId: booking.id } });
    const create = standIn.requests.find(
      (r) => r.path === '/v1/payment_intents' && r.body['metadata[bookingId]'] === booking.id,
    );
    expect(create?.idempotencyKey).toBe(`booking-${booking.id}`);
    // Reading the booking again returns the same intent's secret, not a new intent.
    const again = await ctx.request(user, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect(again.json().payment.clientSecret).toBe(booking.intent.client_secret);
  });

  it('still reserves when Stripe fails, and creates the intent when the payment page starts the payment', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    standIn.failNext(400, {
      type: 'invalid_request_error',
      code: 'parameter_invalid_integer',
      param: 'amount',
      message: 'Invalid integer: amount',
    });
    const res = await ctx.request(user, {
      method: 'POST',
      url: '/api/bookings',
      payload: { eventId: event.id, quantity: 1 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().payment).toEqual({ provider: 'stripe', method: null, cashReference: null });
    // Reading the booking changes nothing; starting its payment creates the intent.
    const read = await ctx.request(user, { method: 'GET', url: `/api/bookings/${res.json().id}` });
    expect(read.json().payment).toEqual({ provider: 'stripe', method: null, cashReference: null, phone: null });
    const later = await ctx.request(user, { method: 'POST', url: `/api/bookings/${res.json().id}/payment` });
    expect(later.json().payment.clientSecret).toMatch(/_secret_/);
  });
});

describe('the Stripe adapter against the stand-in', () => {
  const provider = createStripeProvider(stripeConfig);
  const start = async (booking: { id: string; totalPiasters: number; userId: string }) => {
    const started = await provider.start(booking);
    if (!started) throw new Error('Stripe started no payment');
    return started;
  };

  it('surfaces Stripe’s card errors with their codes', async () => {
    const intent = await start({ id: crypto.randomUUID(), totalPiasters: 1000, userId: 'u' });
    const browser = new Stripe(STAND_IN_SECRET_KEY, {
      host: '127.0.0.1',
      port: new URL(standIn.url).port,
      protocol: 'http',
    });
    const error = await browser.paymentIntents
      .confirm(intent.reference, { payment_method: 'pm_card_chargeDeclined' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline', statusCode: 402 });
    const after = await provider.status(intent.reference);
    expect(after).toMatchObject({ status: 'requires_payment_method', lastErrorMessage: 'Your card was declined.' });
    const funds = await browser.paymentIntents
      .confirm(intent.reference, { payment_method: 'pm_card_chargeDeclinedInsufficientFunds' })
      .catch((e: unknown) => e);
    expect(funds).toMatchObject({ code: 'card_declined', decline_code: 'insufficient_funds' });
  });

  it('surfaces missing resources, refused refunds and bad keys as Stripe errors', async () => {
    await expect(provider.status('pi_missing')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'resource_missing',
      statusCode: 404,
    });
    const intent = await start({ id: crypto.randomUUID(), totalPiasters: 500, userId: 'u' });
    await expect(provider.refund(intent.reference, { key: 'b' })).rejects.toMatchObject({
      code: 'charge_not_refundable',
    });
    const wrongKey = createStripeProvider({ ...stripeConfig, secretKey: 'sk_test_wrong' });
    await expect(wrongKey.status(intent.reference)).rejects.toMatchObject({ statusCode: 401 });
  });
});

describe('POST /api/payments/stripe/webhook', () => {
  it('marks the booking paid once for a signed payment_intent.succeeded, even when replayed or duplicated', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 2);
    standIn.setStatus(booking.intent.id, 'succeeded');
    const succeeded = stripeEvent('payment_intent.succeeded', booking.intent, { status: 'succeeded' });
    const first = await postWebhook(succeeded);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await statusOf(booking.id)).toBe('paid');
    const replay = await postWebhook(succeeded);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    // Stripe may also send a second event (new id) for the same payment.
    const second = await postWebhook(stripeEvent('payment_intent.succeeded', booking.intent, { status: 'succeeded' }));
    expect(second.json().duplicate).toBe(false);
    expect(await statusOf(booking.id)).toBe('paid');
    expect(await mailCount(booking.id)).toBe(1);
  });

  it('refuses tampered bodies, wrong secrets, missing signatures and signatures older than 5 minutes', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 1);
    const succeeded = stripeEvent('payment_intent.succeeded', booking.intent, { status: 'succeeded' });
    for (const res of [
      await postWebhook(succeeded, { tamper: true }),
      await postWebhook(succeeded, { secret: 'whsec_someone_else' }),
      await postWebhook(succeeded, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/stripe/webhook',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(succeeded),
      }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_SIGNATURE');
    }
    expect(await statusOf(booking.id)).toBe('pending');
    const seen = await pool.query('SELECT 1 FROM payment_events WHERE id = $1', [succeeded.id]);
    expect(seen.rowCount).toBe(0);
  });

  it('answers a signed event it cannot read with a 400 that says so, not a 500', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 1);
    const succeeded = stripeEvent('payment_intent.succeeded', booking.intent, { status: 'succeeded' });
    const malformed: unknown[] = [
      {},
      null,
      [],
      { type: 'payment_intent.succeeded' },
      { id: 'evt_no_data', type: null, data: null },
      { id: {}, type: [] },
      { ...succeeded, data: null },
      { ...succeeded, data: { object: { ...succeeded.data.object, amount: '200' } } },
      { ...succeeded, data: { object: { ...succeeded.data.object, metadata: { bookingId: 42 } } } },
    ];
    for (const body of malformed) {
      const res = await postWebhook(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('INVALID_EVENT');
    }
    expect(await statusOf(booking.id)).toBe('pending');
    const seen = await pool.query('SELECT 1 FROM payment_events WHERE id = $1', [succeeded.id]);
    expect(seen.rowCount).toBe(0);
    // An event of a type the server does not handle only needs an id and a type.
    const other = await postWebhook({ id: 'evt_other_type', type: 'charge.updated', data: { object: { id: 'ch_1' } } });
    expect(other.json()).toEqual({ received: true, duplicate: false });
    expect((await postWebhook(succeeded)).statusCode).toBe(200);
    expect(await statusOf(booking.id)).toBe('paid');
  });

  it('never moves a paid booking back when failed or canceled events arrive late', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 2);
    await postWebhook(stripeEvent('payment_intent.succeeded', booking.intent, { status: 'succeeded' }));
    const failed = await postWebhook(
      stripeEvent('payment_intent.payment_failed', booking.intent, {
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
      }),
    );
    expect(failed.statusCode).toBe(200);
    await postWebhook(stripeEvent('payment_intent.canceled', booking.intent, { status: 'canceled' }));
    expect(await statusOf(booking.id)).toBe('paid');
    expect(await mailCount(booking.id)).toBe(1);
  });

  it('records a failed attempt on the pending booking and releases the hold when the intent is canceled', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 4);
    await postWebhook(
      stripeEvent('payment_intent.payment_failed', booking.intent, {
        last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
      }),
    );
    const view = await ctx.request(user, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect(view.json()).toMatchObject({ status: 'pending', failureMessage: 'Your card was declined.' });
    await postWebhook(stripeEvent('payment_intent.canceled', booking.intent, { status: 'canceled' }));
    expect(await statusOf(booking.id)).toBe('failed');
    const left = await pool.query('SELECT tickets_available FROM events WHERE id = $1', [event.id]);
    expect(left.rows[0].tickets_available).toBe(10);
  });

  /** Waits until the stand-in's PaymentIntent is canceled (the app cancels it after answering). */
  const intentCanceled = (intentId: string) =>
    eventually(
      async () => standIn.intents.get(intentId)?.status,
      (status) => status === 'canceled',
      'the hold’s PaymentIntent canceled',
    );

  /**
   * Stripe reports a success for the ended hold `booking` after all: it becomes 'refunded' saying `message`, the
   * money goes back through Stripe, and no confirmation email is queued.
   */
  async function expectLateSuccessRefunded(booking: Awaited<ReturnType<typeof book>>, message: string) {
    standIn.setStatus(booking.intent.id, 'succeeded');
    await postWebhook(stripeEvent('payment_intent.succeeded', booking.intent, { status: 'succeeded' }));
    const row = await pool.query('SELECT status, failure_message FROM bookings WHERE id = $1', [booking.id]);
    expect(row.rows[0]).toEqual({ status: 'refunded', failure_message: message });
    expect(standIn.refunds.map((r) => r.payment_intent)).toContain(booking.intent.id);
    expect(await mailCount(booking.id)).toBe(0);
  }

  it('cancels the PaymentIntents of a deleted event’s holds, and refunds a success that comes anyway', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const admin = await ctx.createUser({ role: 'admin' });
    const booking = await book(await ctx.createUser(), event.id, 2);
    const deleted = await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` });
    expect(deleted.statusCode).toBe(204);
    await intentCanceled(booking.intent.id);
    expect(await statusOf(booking.id)).toBe('failed');
    // Paid in the browser a moment before the cancel arrived (which Stripe then refused): the money goes back,
    // and the buyer is told why.
    await expectLateSuccessRefunded(booking, en.payment.eventCancelledRefunded);
  });

  it('cancels the PaymentIntent of a reservation the buyer cancels, and refunds a success that comes anyway', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 2);
    expect((await cancelReservation(ctx, user, booking.id)).json()).toMatchObject({ status: 'cancelled' });
    await intentCanceled(booking.intent.id);
    // Paid in the browser as the buyer cancelled (Stripe then refused the cancel): the buyer was told the
    // tickets went back on sale, so the money goes back, and no ticket is taken again.
    await expectLateSuccessRefunded(booking, en.payment.holdCancelledRefunded);
    const left = await pool.query('SELECT tickets_available FROM events WHERE id = $1', [event.id]);
    expect(left.rows[0].tickets_available).toBe(5);
  });

  it('keeps a late success when the tickets are still there and refunds it through Stripe when they are not', async () => {
    const event = await createTestEvent(pool, { capacity: 3 });
    const [early, late, other] = await Promise.all([ctx.createUser(), ctx.createUser(), ctx.createUser()]);
    const kept = await book(early, event.id, 1);
    await postWebhook(stripeEvent('payment_intent.canceled', kept.intent, { status: 'canceled' }));
    expect(await statusOf(kept.id)).toBe('failed');
    await postWebhook(stripeEvent('payment_intent.succeeded', kept.intent, { status: 'succeeded' }));
    expect(await statusOf(kept.id)).toBe('paid');

    const lost = await book(late, event.id, 2);
    await postWebhook(stripeEvent('payment_intent.canceled', lost.intent, { status: 'canceled' }));
    await book(other, event.id, 2);
    standIn.setStatus(lost.intent.id, 'succeeded');
    await postWebhook(stripeEvent('payment_intent.succeeded', lost.intent, { status: 'succeeded' }));
    expect(await statusOf(lost.id)).toBe('refunded');
    expect(standIn.refunds.map((r) => r.payment_intent)).toContain(lost.intent.id);
    expect(await mailCount(lost.id)).toBe(0);
  });

  it('refuses a success whose amount does not match the booking', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 1);
    const res = await postWebhook(
      stripeEvent('payment_intent.succeeded', booking.intent, { status: 'succeeded', amount: 1 }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('AMOUNT_MISMATCH');
    expect(await statusOf(booking.id)).toBe('pending');
  });
});

describe('refunds through Stripe', () => {
  async function paidBooking(quantity: number) {
    const event = await createTestEvent(pool, { pricePiasters: 10_000 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, quantity);
    standIn.setStatus(booking.intent.id, 'succeeded');
    await postWebhook(stripeEvent('payment_intent.succeeded', booking.intent, { status: 'succeeded' }));
    expect(await statusOf(booking.id)).toBe('paid');
    return { user, event, booking };
  }

  it('gives back part of a payment, then the rest, each once, keyed by its refund', async () => {
    const { user, booking } = await paidBooking(3);
    const cancel = (quantity?: number) =>
      ctx.request(user, {
        method: 'POST',
        url: `/api/bookings/${booking.id}/cancel`,
        payload: quantity ? { quantity } : {},
      });
    expect((await cancel(1)).json().refundPiasters).toBe(10_000);
    expect((await cancel()).json().refundPiasters).toBe(20_000);
    const mine = standIn.refunds.filter((r) => r.payment_intent === booking.intent.id);
    expect(mine.map((r) => r.amount)).toEqual([10_000, 20_000]);
    const keys = standIn.requests.filter(
      (r) => r.path === '/v1/refunds' && r.body.payment_intent === booking.intent.id,
    );
    expect(new Set(keys.map((r) => r.idempotencyKey)).size).toBe(2);
    expect(await statusOf(booking.id)).toBe('refunded');
    // Stripe then tells of the refund: nothing changes a second time.
    const told = await postWebhook(stripeEvent('charge.refunded', booking.intent, { status: 'succeeded' }));
    expect(told.json()).toEqual({ received: true, duplicate: false });
    expect(await statusOf(booking.id)).toBe('refunded');
  });

  it('keeps the booking paid when Stripe refuses the refund, and shows the organiser why', async () => {
    const { event, booking } = await paidBooking(2);
    const admin = await ctx.createUser({ role: 'admin' });
    standIn.failNext(400, {
      type: 'invalid_request_error',
      code: 'charge_disputed',
      message: 'This charge is disputed and cannot be refunded.',
    });
    const refused = await ctx.request(admin, { method: 'POST', url: `/api/admin/bookings/${booking.id}/refund` });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().code).toBe('REFUND_FAILED');
    expect(await statusOf(booking.id)).toBe('paid');
    const attendees = await ctx.request(admin, { method: 'GET', url: `/api/admin/events/${event.id}/attendees` });
    expect(attendees.json().items[0]).toMatchObject({
      refundable: true,
      refundPiasters: 20_000,
      refundFailure: 'This charge is disputed and cannot be refunded.',
    });
    // Tried again, it goes through.
    const again = await ctx.request(admin, { method: 'POST', url: `/api/admin/bookings/${booking.id}/refund` });
    expect(again.json()).toMatchObject({ refundPiasters: 20_000, status: 'refunded' });
    const after = await ctx.request(admin, { method: 'GET', url: `/api/admin/events/${event.id}/attendees` });
    expect(after.json().items[0]).toMatchObject({ refundable: false, refundFailure: null, status: 'void' });
  });
});

describe('the success page racing the webhook', () => {
  it('settles the booking from Stripe when the intent succeeded before the webhook came', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 2);
    const pending = await ctx.request(user, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect(pending.json().status).toBe('pending');
    standIn.setStatus(booking.intent.id, 'succeeded');
    // Reading the booking does not settle it: only the payment call (the success page's) or the webhook does.
    expect((await ctx.request(user, { method: 'GET', url: `/api/bookings/${booking.id}` })).json().status).toBe(
      'pending',
    );
    expect(await statusOf(booking.id)).toBe('pending');
    const [a, b] = await Promise.all([
      ctx.request(user, { method: 'POST', url: `/api/bookings/${booking.id}/payment` }),
      postWebhook(stripeEvent('payment_intent.succeeded', booking.intent, { status: 'succeeded' })),
    ]);
    expect(b.statusCode).toBe(200);
    expect(['paid', 'pending']).toContain(a.json().status);
    const settled = await ctx.request(user, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect(settled.json().status).toBe('paid');
    expect(await mailCount(booking.id)).toBe(1);
  });

  it('never shows another user’s booking, nor a pending one as paid', async () => {
    const event = await createTestEvent(pool);
    const [owner, other] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const booking = await book(owner, event.id, 1);
    expect((await ctx.request(other, { method: 'GET', url: `/api/bookings/${booking.id}` })).statusCode).toBe(404);
    expect((await ctx.request(owner, { method: 'GET', url: `/api/bookings/${booking.id}` })).json().status).toBe(
      'pending',
    );
  });
});
