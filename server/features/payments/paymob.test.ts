import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestEvent, expectCapacityInvariant } from '../../test/booking-fixtures';
import { eventually, setupTestApp, type TestUser } from '../../test/helpers';
import {
  PAYMOB_STAND_IN,
  type StandInTransaction,
  signTransaction,
  startPaymobStandIn,
} from '../../test/paymob-stand-in';
import { createPaymobProvider, paymobHmac, paymobHmacText } from './paymob';

/** Paymob's documented example (developers.paymob.com, "HMAC calculation" of the transaction callback). */
const DOCUMENTED = {
  text: '1000002024-06-13T11:33:44.592345EGPfalsefalse1920364654097558truefalsefalsefalsetruefalse217503754302852false2346MasterCardcardtrue',
  hmac: 'fa8ac0b7f3852e60c50e7fdd4ea5ef0bda96030c19dea1d55df8c76d6c08ab1877774662cbb04981dc84839ad4da560bcc8cb53b8973548657f7e8f8d2e79930',
  secret: '04DC1A9490B8CC2094C011FC055ADCDB',
};

function documentedTransaction(merchantOrderId: string) {
  return {
    id: 192036465,
    pending: false,
    amount_cents: 100000,
    success: true,
    is_auth: false,
    is_capture: false,
    is_standalone_payment: true,
    is_voided: false,
    is_refunded: false,
    is_3d_secure: true,
    integration_id: 4097558,
    profile_id: 164295,
    has_parent_transaction: false,
    order: { id: 217503754, merchant_order_id: merchantOrderId, amount_cents: 100000 },
    created_at: '2024-06-13T11:33:44.592345',
    currency: 'EGP',
    error_occured: false,
    owner: 302852,
    parent_transaction: null,
    source_data: { pan: '2346', type: 'card', tenure: null, sub_type: 'MasterCard' },
    data: { message: 'Approved' },
  };
}

const config = {
  secretKey: PAYMOB_STAND_IN.secretKey,
  publicKey: PAYMOB_STAND_IN.publicKey,
  hmacSecret: DOCUMENTED.secret,
  apiKey: PAYMOB_STAND_IN.apiKey,
  integrations: { card: 1 },
  cashHours: 24,
  apiUrl: 'http://127.0.0.1:9',
  checkoutUrl: 'http://127.0.0.1:9',
};

describe("Paymob's HMAC", () => {
  it("gives Paymob's documented text and signature for its documented transaction", () => {
    const t = documentedTransaction('x');
    const text = paymobHmacText((name) => {
      if (name === 'order.id') return t.order.id;
      if (name.startsWith('source_data.')) return t.source_data[name.slice(12) as 'pan' | 'type' | 'sub_type'];
      return t[name as keyof typeof t] as string | number | boolean;
    });
    expect(text).toBe(DOCUMENTED.text);
    expect(paymobHmac(DOCUMENTED.secret, text)).toBe(DOCUMENTED.hmac);
  });

  it('reads a whole documented callback body, and refuses it with one field flipped or another signature', () => {
    const provider = createPaymobProvider(config, 'http://localhost:3000');
    const bookingId = randomUUID();
    const body = { type: 'TRANSACTION', obj: documentedTransaction(`${bookingId}.abc`), issuer_bank: null };
    const raw = Buffer.from(JSON.stringify(body));
    const event = provider.verifyWebhook?.(raw, DOCUMENTED.hmac.toUpperCase());
    expect(event?.outcome).toEqual({
      kind: 'succeeded',
      bookingId,
      reference: '217503754',
      amountPiasters: 100000,
      currency: 'EGP',
    });
    for (const flip of [
      { amount_cents: 100001 },
      { success: false },
      { pending: true },
      { currency: 'USD' },
      { order: { id: 217503755, merchant_order_id: `${bookingId}.abc` } },
      { source_data: { pan: '2347', type: 'card', sub_type: 'MasterCard' } },
    ]) {
      const forged = Buffer.from(JSON.stringify({ ...body, obj: { ...body.obj, ...flip } }));
      expect(() => provider.verifyWebhook?.(forged, DOCUMENTED.hmac), JSON.stringify(flip)).toThrow(
        expect.objectContaining({ status: 400, code: 'INVALID_SIGNATURE' }),
      );
    }
    expect(() => provider.verifyWebhook?.(raw, 'f'.repeat(128))).toThrow(
      expect.objectContaining({ code: 'INVALID_SIGNATURE' }),
    );
    expect(() => provider.verifyWebhook?.(raw, 'not hex')).toThrow(
      expect.objectContaining({ code: 'INVALID_SIGNATURE' }),
    );
    expect(() => provider.verifyWebhook?.(Buffer.from('{"type":'), DOCUMENTED.hmac)).toThrow(
      expect.objectContaining({ code: 'INVALID_EVENT' }),
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Through the stand-in, on the test database
// ---------------------------------------------------------------------------------------------------------------

let deliverTo: ((url: string, body: string) => Promise<number>) | undefined;
const standIn = await startPaymobStandIn({
  // Callbacks reach the app in-process (the test app does not listen on a port).
  deliver: (url, body) => (deliverTo ? deliverTo(url, body) : Promise.resolve(0)),
});
const ctx = await setupTestApp({
  config: {
    paymob: {
      secretKey: PAYMOB_STAND_IN.secretKey,
      publicKey: PAYMOB_STAND_IN.publicKey,
      hmacSecret: PAYMOB_STAND_IN.hmacSecret,
      apiKey: PAYMOB_STAND_IN.apiKey,
      integrations: PAYMOB_STAND_IN.integrations,
      cashHours: 24,
      apiUrl: standIn.url,
      checkoutUrl: standIn.url,
    },
    simulatedPayments: true,
  },
});
deliverTo = async (url, body) => {
  const { pathname, search } = new URL(url);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `${pathname}${search}`,
    headers: { 'content-type': 'application/json' },
    payload: body,
  });
  return res.statusCode;
};
const pool = ctx.database.pool;
afterAll(async () => {
  await ctx.close();
  await standIn.close();
});
afterEach(() => expectCapacityInvariant(pool));

async function reserve(user: TestUser, eventId: string, quantity = 2): Promise<string> {
  const res = await ctx.request(user, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity } });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

function start(user: TestUser, bookingId: string, method: 'card' | 'wallet' | 'cash', phone?: string) {
  return ctx.request(user, {
    method: 'POST',
    url: '/api/payments/paymob/start',
    payload: { bookingId, method, ...(phone === undefined ? {} : { phone }) },
  });
}

async function booking(id: string) {
  const result = await pool.query<{
    status: string;
    payment_provider: string | null;
    payment_method: string | null;
    payment_intent_id: string | null;
    expires_at: Date;
    tickets: number;
    mails: number;
  }>(
    `SELECT b.status, b.payment_provider, b.payment_method, b.payment_intent_id, b.expires_at,
            (SELECT count(*)::int FROM tickets t WHERE t.booking_id = b.id AND t.voided_at IS NULL) AS tickets,
            (SELECT count(*)::int FROM email_outbox m WHERE m.dedupe_key = 'booking-paid:' || b.id) AS mails
       FROM bookings b WHERE b.id = $1`,
    [id],
  );
  return result.rows[0] as NonNullable<(typeof result.rows)[0]>;
}

/** The buyer's browser back from the checkout at `redirect` (the stand-in's redirect URL). */
async function returnTo(user: TestUser, redirect: string) {
  const { pathname, search } = new URL(redirect);
  return ctx.request(user, { method: 'GET', url: `${pathname}${search}` });
}

function callbackOf(t: StandInTransaction, hmac = signTransaction(t)) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/payments/paymob/callback?hmac=${hmac}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ type: 'TRANSACTION', obj: t }),
  });
}

describe('Paymob through its stand-in', () => {
  it('lists the methods configured beside the simulated card', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/payments/config' });
    expect(res.json()).toEqual({
      provider: 'simulated',
      choices: [
        { provider: 'paymob', method: 'card' },
        { provider: 'paymob', method: 'wallet' },
        { provider: 'paymob', method: 'cash' },
        { provider: 'simulated', method: 'card' },
      ],
      timeZone: 'Africa/Cairo',
    });
  });

  it('pays by card: an intention from the booking, the checkout, the signed callback, tickets and one email', async () => {
    const event = await createTestEvent(pool, { capacity: 10, pricePiasters: 15_050 });
    const user = await ctx.createUser({ firstName: 'Layla', lastName: 'Hassan' });
    const id = await reserve(user, event.id, 3);

    const missing = await start(user, id, 'card');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ phone: 'Enter your mobile number to pay with Paymob.' });
    const invalid = await start(user, id, 'card', '0123');
    expect(invalid.statusCode).toBe(400);

    const started = await start(user, id, 'card', '010 1234 5678');
    expect(started.statusCode).toBe(200);
    const checkout = new URL(started.json().checkoutUrl);
    expect(checkout.origin + checkout.pathname).toBe(`${standIn.url}/unifiedcheckout/`);
    expect(checkout.searchParams.get('publicKey')).toBe(PAYMOB_STAND_IN.publicKey);
    const intention = standIn.intentionOfBooking(id);
    expect(intention).toMatchObject({
      amount: 45_150,
      currency: 'EGP',
      method: 'card',
      clientSecret: checkout.searchParams.get('clientSecret'),
      billing: { first_name: 'Layla', last_name: 'Hassan', email: user.email, phone_number: '+201012345678' },
      notificationUrl: 'http://localhost:3000/api/payments/paymob/callback',
      redirectionUrl: 'http://localhost:3000/api/payments/paymob/return',
    });
    const kept = await pool.query('SELECT phone FROM users WHERE id = $1', [user.id]);
    expect(kept.rows[0].phone).toBe('+201012345678');

    const redirect = await standIn.checkout(intention?.clientSecret as string, 'pay');
    expect(standIn.callbacks.at(-1)?.status).toBe(200);
    expect(await booking(id)).toMatchObject({
      status: 'paid',
      payment_provider: 'paymob',
      payment_method: 'card',
      payment_intent_id: String(intention?.orderId),
      tickets: 3,
      mails: 1,
    });
    const back = await returnTo(user, redirect);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/payment-success?booking=${id}`);

    // Next time the kept number is used.
    const other = await createTestEvent(pool);
    const second = await reserve(user, other.id, 1);
    expect((await start(user, second, 'wallet')).statusCode).toBe(200);
    const read = await ctx.request(user, { method: 'GET', url: `/api/bookings/${second}` });
    expect(read.json().payment).toMatchObject({ provider: 'paymob', method: 'wallet', phone: '+201012345678' });
  });

  it('keeps the hold after a declined card and sends the buyer to the failure page', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id, 2);
    expect((await start(user, id, 'card', '01112345678')).statusCode).toBe(200);
    const redirect = await standIn.checkout(standIn.intentionOfBooking(id)?.clientSecret as string, 'decline');
    expect(await booking(id)).toMatchObject({ status: 'pending', tickets: 0, mails: 0 });
    const back = await returnTo(user, redirect);
    expect(back.headers.location).toBe(`/payment-failed?event=${event.id}`);
    // The buyer may try again, with a wallet this time.
    expect((await start(user, id, 'wallet')).statusCode).toBe(200);
    await standIn.checkout(standIn.intentionOfBooking(id)?.clientSecret as string, 'pay');
    expect(await booking(id)).toMatchObject({ status: 'paid', payment_method: 'wallet', tickets: 2, mails: 1 });
  });

  it('takes kiosk cash: a reference and a deadline, Awaiting payment, then tickets once the kiosk is paid', async () => {
    const event = await createTestEvent(pool, { capacity: 4, pricePiasters: 20_000 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id, 2);
    const started = await start(user, id, 'cash', '+201512345678');
    expect(started.statusCode).toBe(200);
    const { reference, amountPiasters, expiresAt } = started.json();
    expect(reference).toMatch(/^\d+$/);
    expect(amountPiasters).toBe(40_000);
    const hours = (Date.parse(expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await booking(id)).expires_at.toISOString()).toBe(expiresAt);

    const mine = await ctx.request(user, { method: 'GET', url: '/api/me/bookings' });
    expect(mine.json().awaiting).toEqual([
      expect.objectContaining({ bookingId: id, cashReference: reference, totalPiasters: 40_000, expiresAt }),
    ]);
    const read = await ctx.request(user, { method: 'GET', url: `/api/bookings/${id}` });
    expect(read.json().payment).toMatchObject({ provider: 'paymob', method: 'cash', cashReference: reference });
    // The tickets are held the whole time.
    const held = await pool.query('SELECT tickets_available FROM events WHERE id = $1', [event.id]);
    expect(held.rows[0].tickets_available).toBe(2);

    await standIn.payBill(reference);
    expect(await booking(id)).toMatchObject({ status: 'paid', payment_method: 'cash', tickets: 2, mails: 1 });
    const after = await ctx.request(user, { method: 'GET', url: '/api/me/bookings' });
    expect(after.json().awaiting).toEqual([]);
    expect(after.json().tickets.map((t: { id: string }) => t.id)).toContain(id);
  });

  it('never holds kiosk cash past the event start', async () => {
    const event = await createTestEvent(pool, { daysAhead: 0 });
    // Three hours from now in Cairo, date and time from the same instant: late in the evening that is tomorrow
    // (the time alone, on today's date, was a start that had passed, every day from 21:00 Cairo time). An hour
    // long, on the event's date: an end time before the start is the next day's (contracts/calendar.ts), as the
    // organiser's form makes it; an end date after the event's date is refused by the table (from 20:00 to 21:00
    // Cairo time every day the test failed so).
    await pool.query(
      `UPDATE events SET event_date = s::date, start_date = s::date, start_time = s::time,
                         end_date = s::date, end_time = (s + interval '1 hour')::time
         FROM (SELECT (now() AT TIME ZONE 'Africa/Cairo') + interval '3 hours' AS s) AS at WHERE id = $1`,
      [event.id],
    );
    const user = await ctx.createUser();
    const id = await reserve(user, event.id, 1);
    const started = await start(user, id, 'cash', '01012345678');
    expect(started.statusCode, started.body).toBe(200);
    const { expiresAt } = started.json();
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(3 * 3_600_000 + 60_000);
  });

  it('refunds kiosk cash paid after its deadline once the tickets are gone, and only once', async () => {
    const event = await createTestEvent(pool, { capacity: 2 });
    const [late, other] = [await ctx.createUser(), await ctx.createUser()];
    const id = await reserve(late, event.id, 2);
    const { reference } = (await start(late, id, 'cash', '01012345678')).json();
    // The deadline passes: the expiry job gives the tickets back, and someone else buys them.
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    await ctx.app.ticketing.expireHolds();
    expect((await booking(id)).status).toBe('expired');
    const theirs = await reserve(other, event.id, 2);
    const nextYear = (new Date().getFullYear() + 1) % 100;
    await ctx.request(other, {
      method: 'POST',
      url: '/api/payments/simulated/confirm',
      payload: { bookingId: theirs, cardNumber: '4242424242424242', expMonth: 12, expYear: nextYear, cvc: '123' },
    });
    const refundsBefore = standIn.refunds.length;
    const paid = await standIn.payBill(reference);
    expect(await booking(id)).toMatchObject({ status: 'refunded', tickets: 0, mails: 0 });
    await eventually(
      async () => standIn.refunds.length,
      (n) => n === refundsBefore + 1,
      'the late cash refunded at Paymob',
    );
    expect(standIn.refunds.at(-1)).toEqual({ transactionId: paid.id, amountCents: 30_000 });
    // Paymob tells of it again: nothing more happens, and a second refund is not asked for.
    expect((await callbackOf(paid)).json()).toEqual({ received: true, duplicate: true });
    await ctx.app.ticketing.providers.get('paymob')?.refund(String(paid.order.id), { key: id });
    expect(standIn.refunds.length).toBe(refundsBefore + 1);
  });

  it('pays cash late while the tickets are still there', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id, 2);
    const { reference } = (await start(user, id, 'cash', '01012345678')).json();
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    await ctx.app.ticketing.expireHolds();
    await standIn.payBill(reference);
    expect(await booking(id)).toMatchObject({ status: 'paid', tickets: 2, mails: 1 });
  });

  it('makes one paid transition, one email and one set of tickets of a callback sent 10 times and out of order', async () => {
    const event = await createTestEvent(pool, { capacity: 3 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id, 3);
    await start(user, id, 'card', '01012345678');
    standIn.dropCallbacks = true;
    const intention = standIn.intentionOfBooking(id);
    await standIn.checkout(intention?.clientSecret as string, 'decline');
    await standIn.checkout(intention?.clientSecret as string, 'pay');
    standIn.dropCallbacks = false;
    const [declined, paid] = [...standIn.transactions.values()].filter((t) => t.order.id === intention?.orderId);
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => callbackOf(paid as StandInTransaction)),
      callbackOf(declined as StandInTransaction),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(11).fill(200));
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(2);
    expect(await booking(id)).toMatchObject({ status: 'paid', tickets: 3, mails: 1 });
    // The decline arriving last changes nothing either.
    await callbackOf(declined as StandInTransaction);
    expect(await booking(id)).toMatchObject({ status: 'paid', tickets: 3, mails: 1 });
  });

  it('refuses forged, unsigned, mismatched and replayed callbacks, changing nothing', async () => {
    const event = await createTestEvent(pool, { capacity: 10, pricePiasters: 10_000 });
    const [a, b] = [await ctx.createUser(), await ctx.createUser()];
    const idA = await reserve(a, event.id, 1);
    const idB = await reserve(b, event.id, 1);
    await start(a, idA, 'card', '01012345678');
    await start(b, idB, 'card', '01012345678');
    standIn.dropCallbacks = true;
    await standIn.checkout(standIn.intentionOfBooking(idA)?.clientSecret as string, 'pay');
    standIn.dropCallbacks = false;
    const paidA = [...standIn.transactions.values()].at(-1) as StandInTransaction;

    const flipped = await callbackOf({ ...paidA, amount_cents: 1 }, signTransaction(paidA));
    expect(flipped.statusCode).toBe(400);
    expect(flipped.json().code).toBe('INVALID_SIGNATURE');
    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/paymob/callback',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ type: 'TRANSACTION', obj: paidA }),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().detail).toBe('Missing Paymob signature (hmac)');
    const junk = await callbackOf(paidA, 'zz');
    expect(junk.statusCode).toBe(400);
    // A's signed payment, replayed naming B (Paymob's signature does not cover merchant_order_id).
    const replayed = await callbackOf({ ...paidA, order: { ...paidA.order, merchant_order_id: `${idB}.x` } });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().code).toBe('PAYMENT_NOT_OF_BOOKING');
    // A signed payment of the wrong amount or currency pays nothing either.
    const cheaper = { ...paidA, id: paidA.id + 1_000_000, amount_cents: 5_000 };
    expect((await callbackOf(cheaper)).json().code).toBe('AMOUNT_MISMATCH');
    const dollars = { ...paidA, id: paidA.id + 2_000_000, currency: 'USD' };
    expect((await callbackOf(dollars)).json().code).toBe('AMOUNT_MISMATCH');
    expect(await booking(idA)).toMatchObject({ status: 'pending', tickets: 0, mails: 0 });
    expect(await booking(idB)).toMatchObject({ status: 'pending', tickets: 0, mails: 0 });

    // A forged return is refused too.
    const forgedReturn = await ctx.request(a, {
      method: 'GET',
      url: `/api/payments/paymob/return?order=${paidA.order.id}&success=true&hmac=${'0'.repeat(128)}`,
    });
    expect(forgedReturn.statusCode).toBe(400);
    expect(await booking(idA)).toMatchObject({ status: 'pending' });

    // The genuine callback pays A.
    expect((await callbackOf(paidA)).statusCode).toBe(200);
    expect(await booking(idA)).toMatchObject({ status: 'paid', tickets: 1, mails: 1 });
  });

  it('reconciles a payment whose callback never came: on the return, on the success page and by the job', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const users = [await ctx.createUser(), await ctx.createUser(), await ctx.createUser()];
    const ids = await Promise.all(users.map((u) => reserve(u, event.id, 1)));
    standIn.dropCallbacks = true;
    const redirects: string[] = [];
    for (const [i, user] of users.entries()) {
      await start(user, ids[i] as string, 'card', '01012345678');
      redirects.push(
        await standIn.checkout(standIn.intentionOfBooking(ids[i] as string)?.clientSecret as string, 'pay'),
      );
    }
    standIn.dropCallbacks = false;
    for (const id of ids) expect((await booking(id)).status).toBe('pending');

    // 1. The buyer's return asks Paymob (the redirect alone would not do).
    const back = await returnTo(users[0] as TestUser, redirects[0] as string);
    expect(back.headers.location).toBe(`/payment-success?booking=${ids[0]}`);
    expect((await booking(ids[0] as string)).status).toBe('paid');
    // 2. The success page's call.
    const synced = await ctx.request(users[1] as TestUser, { method: 'POST', url: `/api/bookings/${ids[1]}/payment` });
    expect(synced.json().status).toBe('paid');
    // 3. The job, for a buyer who closed the tab.
    await pool.query(`UPDATE bookings SET updated_at = now() - interval '2 minutes' WHERE id = $1`, [ids[2]]);
    expect(await ctx.app.ticketing.reconcileQuiet(60)).toBeGreaterThanOrEqual(1);
    expect(await booking(ids[2] as string)).toMatchObject({ status: 'paid', tickets: 1, mails: 1 });
  });

  it('settles a replaced payment whose callback never came, once it can no longer be paid: it pays the hold, or is refunded once', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [waiting, paidTwice] = [await ctx.createUser(), await ctx.createUser()];
    const waitingId = await reserve(waiting, event.id, 1);
    const paidTwiceId = await reserve(paidTwice, event.id, 1);
    const firstPayments = new Map<string, StandInTransaction>();
    standIn.dropCallbacks = true;
    for (const [user, id] of [
      [waiting, waitingId],
      [paidTwice, paidTwiceId],
    ] as const) {
      // The card is paid in one tab, its callback lost; in another the buyer has meanwhile chosen a wallet.
      await start(user, id, 'card', '01012345678');
      const card = standIn.intentionOfBooking(id);
      await standIn.checkout(card?.clientSecret as string, 'pay');
      firstPayments.set(id, [...standIn.transactions.values()].at(-1) as StandInTransaction);
      expect((await start(user, id, 'wallet')).statusCode).toBe(200);
      expect(await booking(id)).toMatchObject({ status: 'pending', payment_method: 'wallet' });
    }
    standIn.dropCallbacks = false;
    // One of them pays the wallet too.
    const wallet = standIn.intentionOfBooking(paidTwiceId);
    await standIn.checkout(wallet?.clientSecret as string, 'pay');
    expect(await booking(paidTwiceId)).toMatchObject({ status: 'paid', tickets: 1, mails: 1 });

    // Before the holds' ends the card payments may still be made: the job does not ask about them yet.
    await ctx.app.ticketing.reconcileQuiet(60);
    expect((await booking(waitingId)).status).toBe('pending');
    const refundsBefore = standIn.refunds.length;
    await pool.query(
      `UPDATE replaced_payments SET payable_until = now() - interval '2 minutes' WHERE booking_id = ANY($1::uuid[])`,
      [[waitingId, paidTwiceId]],
    );
    for (let run = 0; run < 3; run++) await ctx.app.ticketing.reconcileQuiet(60);

    // The card's money pays the hold still waiting; the booking paid by wallet gets the card's money back, once.
    const card = firstPayments.get(waitingId) as StandInTransaction;
    expect(await booking(waitingId)).toMatchObject({
      status: 'paid',
      payment_intent_id: String(card.order.id),
      tickets: 1,
      mails: 1,
    });
    const twice = firstPayments.get(paidTwiceId) as StandInTransaction;
    await eventually(
      async () => standIn.refunds.length,
      (n) => n === refundsBefore + 1,
      'the second payment refunded at Paymob',
    );
    expect(standIn.refunds.at(-1)).toEqual({ transactionId: twice.id, amountCents: twice.amount_cents });
    expect(await booking(paidTwiceId)).toMatchObject({ status: 'paid', tickets: 1, mails: 1 });

    // The lost callbacks come after all: each was handled already.
    expect((await callbackOf(card)).json()).toEqual({ received: true, duplicate: true });
    expect((await callbackOf(twice)).json()).toEqual({ received: true, duplicate: true });
    await ctx.app.ticketing.reconcileQuiet(60);
    expect(standIn.refunds.length).toBe(refundsBefore + 1);
    expect(await booking(waitingId)).toMatchObject({ status: 'paid', tickets: 1, mails: 1 });
  });

  it('gives back part of a card payment, then the rest, each once, when the buyer cancels', async () => {
    const event = await createTestEvent(pool, { capacity: 5, pricePiasters: 10_000 });
    const user = await ctx.createUser();
    const id = await reserve(user, event.id, 2);
    await start(user, id, 'card', '01012345678');
    await standIn.checkout(standIn.intentionOfBooking(id)?.clientSecret as string, 'pay');
    expect(await booking(id)).toMatchObject({ status: 'paid', tickets: 2 });
    const paid = [...standIn.transactions.values()].find(
      (t) => t.order.id === standIn.intentionOfBooking(id)?.orderId && t.success,
    );
    const cancel = (quantity?: number) =>
      ctx.request(user, { method: 'POST', url: `/api/bookings/${id}/cancel`, payload: quantity ? { quantity } : {} });
    expect((await cancel(1)).json().refundPiasters).toBe(10_000);
    expect((await cancel()).json().refundPiasters).toBe(10_000);
    expect(standIn.refunds.filter((r) => r.transactionId === paid?.id)).toEqual([
      { transactionId: paid?.id, amountCents: 10_000 },
      { transactionId: paid?.id, amountCents: 10_000 },
    ]);
    expect(await booking(id)).toMatchObject({ status: 'refunded', tickets: 0 });
    // Asked again with the same refund (a retry after a crash), Paymob is not asked to refund a third time.
    const [first] = (
      await pool.query<{ id: string }>('SELECT id FROM refunds WHERE booking_id = $1 ORDER BY created_at', [id])
    ).rows;
    await ctx.app.ticketing.providers
      .get('paymob')
      ?.refund(String(paid?.order.id), { key: first?.id as string, amountPiasters: 10_000, refundedBefore: 0 });
    expect(standIn.refunds.filter((r) => r.transactionId === paid?.id)).toHaveLength(2);
  });

  it("answers another user's booking, an ended hold and a provider that fails without starting anything", async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [owner, stranger] = [await ctx.createUser(), await ctx.createUser()];
    const id = await reserve(owner, event.id, 1);
    expect((await start(stranger, id, 'card', '01012345678')).statusCode).toBe(404);
    expect(
      (
        await ctx.request(undefined, {
          method: 'POST',
          url: '/api/payments/paymob/start',
          payload: { bookingId: id, method: 'card' },
        })
      ).statusCode,
    ).toBe(401);
    expect((await start(owner, id, 'bitcoin' as 'card', '01012345678')).statusCode).toBe(400);
    standIn.failNext(500);
    const failed = await start(owner, id, 'card', '01012345678');
    expect(failed.statusCode).toBe(502);
    expect(failed.json().code).toBe('PROVIDER_UNAVAILABLE');
    expect(await booking(id)).toMatchObject({ status: 'pending', payment_provider: 'simulated' });
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect((await start(owner, id, 'card', '01012345678')).json().code).toBe('HOLD_ENDED');
    await ctx.app.ticketing.expireHolds();
  });

  it('answers 502 and keeps both holds as they were when Paymob answers a payment id another booking has', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const [first, second] = [await ctx.createUser(), await ctx.createUser()];
    const firstId = await reserve(first, event.id, 1);
    const secondId = await reserve(second, event.id, 1);
    expect((await start(first, firstId, 'card', '01012345678')).statusCode).toBe(200);
    const firstPayment = (await booking(firstId)).payment_intent_id;
    expect(firstPayment).toBe(String(standIn.intentionOfBooking(firstId)?.orderId));
    standIn.reuseOrderNext(Number(firstPayment));
    const reused = await start(second, secondId, 'card', '01012345678');
    expect(reused.statusCode).toBe(502);
    expect(reused.json().code).toBe('PROVIDER_UNAVAILABLE');
    // Neither booking took the other's payment: a callback for that order still pays the first buyer only.
    expect(await booking(firstId)).toMatchObject({ status: 'pending', payment_intent_id: firstPayment });
    expect(await booking(secondId)).toMatchObject({ status: 'pending', payment_provider: 'simulated' });
    // The second buyer tries again and gets a payment of their own.
    expect((await start(second, secondId, 'card', '01012345678')).statusCode).toBe(200);
    expect((await booking(secondId)).payment_intent_id).not.toBe(firstPayment);
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = ANY($1)`, [
      [firstId, secondId],
    ]);
    await ctx.app.ticketing.expireHolds();
  });
});
