import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { todayIn } from '../../../contracts/dates';
import { ar } from '../../../contracts/i18n/ar';
import { en } from '../../../contracts/i18n/en';
import { mailBodies } from '../../plugins/mailer';
import { cancelReservation, createTestEvent, expectCapacityInvariant } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';
import { findBookingsForSettlement, payPendingBookings } from './payment-repository';

// Jobs on: the real hold-expiry job (every 2 s) releases lapsed holds.
const ctx = await setupTestApp({ runJobs: true });
const pool = ctx.database.pool;
afterAll(() => ctx.close());
afterEach(() => expectCapacityInvariant(pool));

const nextYear = Number(todayIn('Africa/Cairo').slice(0, 4)) + 1;
const card = (cardNumber: string, extra: Record<string, unknown> = {}) => ({
  cardNumber,
  expMonth: 12,
  expYear: nextYear % 100,
  cvc: '123',
  ...extra,
});

async function book(user: TestUser, eventId: string, quantity = 2): Promise<{ id: string; totalPiasters: number }> {
  const res = await ctx.request(user, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity } });
  expect(res.statusCode).toBe(201);
  return res.json();
}

function confirm(user: TestUser | undefined, bookingId: string, body: Record<string, unknown>) {
  return ctx.request(user, {
    method: 'POST',
    url: '/api/payments/simulated/confirm',
    payload: { bookingId, ...body },
  });
}

async function bookingRow(id: string) {
  const result = await pool.query<{ status: string; failure_message: string | null }>(
    'SELECT status, failure_message FROM bookings WHERE id = $1',
    [id],
  );
  return result.rows[0];
}

/**
 * A confirm of an ended hold: 409 HOLD_ENDED with the spec-style message, the booking left `status`, the
 * event's available count as given (no tickets taken again) and no confirmation email.
 */
async function expectHoldEndedRefused(
  user: TestUser,
  bookingId: string,
  status: string,
  event: { eventId: string; available: number },
) {
  const res = await confirm(user, bookingId, card('4242424242424242'));
  expect(res.statusCode).toBe(409);
  expect(res.json()).toMatchObject({ code: 'HOLD_ENDED', detail: en.payment.holdEnded });
  expect((await bookingRow(bookingId))?.status).toBe(status);
  const left = await pool.query('SELECT tickets_available FROM events WHERE id = $1', [event.eventId]);
  expect(left.rows[0].tickets_available).toBe(event.available);
  expect(await confirmationMails(bookingId)).toHaveLength(0);
}

/** The booking's confirmation emails as the mail worker delivers them (queued as data, rendered on the way out). */
async function confirmationMails(bookingId: string) {
  const result = await pool.query<{
    kind: string;
    to_address: string;
    subject: string;
    text: null;
    html: null;
    data: unknown;
  }>(
    'SELECT kind, to_address, subject, text_body AS text, html_body AS html, data FROM email_outbox WHERE dedupe_key = $1',
    [`booking-paid:${bookingId}`],
  );
  return result.rows.map((row) => {
    const { text, html } = mailBodies(row);
    return { to_address: row.to_address, subject: row.subject, stored: row, text_body: text, html_body: html };
  });
}

describe('GET /api/payments/config', () => {
  it('names the simulated processor when Stripe is not configured', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/payments/config' });
    expect(res.json()).toEqual({
      provider: 'simulated',
      choices: [{ provider: 'simulated', method: 'card' }],
      timeZone: 'Africa/Cairo',
    });
  });
});

describe('POST /api/payments/simulated/confirm', () => {
  it('pays with 4242 and queues exactly one confirmation email, however often it is confirmed', async () => {
    const event = await createTestEvent(pool, { title: 'Jazz <Night> & Friends', pricePiasters: 35_000 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 2);
    const first = await confirm(user, booking.id, card('4242 4242 4242 4242'));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ bookingId: booking.id, status: 'paid' });
    const again = await Promise.all([
      confirm(user, booking.id, card('4242424242424242')),
      confirm(user, booking.id, card('4000000000000002')),
    ]);
    expect(again.map((r) => r.json().status)).toEqual(['paid', 'paid']);
    expect((await bookingRow(booking.id))?.status).toBe('paid');
    const mails = await confirmationMails(booking.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to_address).toBe(user.email);
    expect(mails[0]?.text_body).toContain('Jazz <Night> & Friends');
    expect(mails[0]?.text_body).toContain('700 EGP');
    expect(mails[0]?.text_body).toContain('07:30 PM - 10:00 PM');
    expect(mails[0]?.html_body).toContain('Jazz &lt;Night&gt; &amp; Friends');
    expect(mails[0]?.subject).toBe('Eventry: your tickets for Jazz <Night> & Friends');
    // Queued as its data, not as ~3 KB of text and HTML.
    expect(mails[0]?.stored).toMatchObject({ text: null, html: null });
    expect(mails[0]?.stored.data).toMatchObject({
      title: 'Jazz <Night> & Friends',
      quantity: 2,
      totalPiasters: 70_000,
    });
    expect(JSON.stringify(mails[0]?.stored.data).length).toBeLessThan(300);
    const view = await ctx.request(user, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect(view.json()).toMatchObject({ status: 'paid' });
    expect(view.json().paidAt).not.toBeNull();
  });

  it.each([
    ['4000 0000 0000 0002', {}, en.payment.cardDeclined, 'card_declined'],
    ['4000 0000 0000 9995', {}, en.payment.insufficientFunds, 'insufficient_funds'],
    ['4242 4242 4242 4241', {}, en.payment.invalidNumber, 'incorrect_number'],
    ['4242 4242 4242 4242', { expMonth: 1, expYear: 20 }, en.payment.expiredCard, 'expired_card'],
  ])('refuses %s %o with the provider’s message and keeps the hold', async (number, extra, message, code) => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 1);
    const res = await confirm(user, booking.id, card(number, extra));
    expect([400, 402]).toContain(res.statusCode);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ detail: message, code });
    expect(await bookingRow(booking.id)).toEqual({ status: 'pending', failure_message: message });
    expect(await confirmationMails(booking.id)).toHaveLength(0);
    // A good card afterwards still pays.
    expect((await confirm(user, booking.id, card('4242424242424242'))).json().status).toBe('paid');
  });

  it('says a refusal in the request’s language by its code, and records the provider’s English words', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 1);
    const res = await ctx.request(user, {
      method: 'POST',
      url: '/api/payments/simulated/confirm',
      headers: { 'accept-language': 'ar-EG,ar;q=0.9' },
      payload: { bookingId: booking.id, ...card('4000 0000 0000 0002') },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'card_declined', detail: ar.payment.cardDeclined });
    expect(await bookingRow(booking.id)).toEqual({ status: 'pending', failure_message: en.payment.cardDeclined });
    const malformed = await ctx.request(user, {
      method: 'POST',
      url: '/api/payments/simulated/confirm',
      headers: { 'accept-language': 'ar' },
      payload: { bookingId: booking.id, ...card('4242424242424242', { cvc: '1' }) },
    });
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { cvc: ar.payment.incompleteCvc } });
  });

  it('refuses malformed card fields with a 400 problem', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 1);
    for (const body of [
      card('abcd'),
      card('4242424242424242', { expMonth: 13 }),
      card('4242424242424242', { cvc: '1' }),
      { cardNumber: '4242424242424242' },
      card('4242424242424242', { amount: 1 }),
    ]) {
      const res = await confirm(user, booking.id, body);
      expect(res.statusCode).toBe(400);
    }
    expect((await bookingRow(booking.id))?.status).toBe('pending');
  });

  it('answers 404 for another user’s booking and never marks it paid', async () => {
    const event = await createTestEvent(pool);
    const [owner, intruder] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const booking = await book(owner, event.id, 1);
    const res = await confirm(intruder, booking.id, card('4242424242424242'));
    expect(res.statusCode).toBe(404);
    expect((await bookingRow(booking.id))?.status).toBe('pending');
    expect((await confirm(undefined, booking.id, card('4242424242424242'))).statusCode).toBe(401);
  });

  it('does not charge a hold that expired, and takes no tickets for it', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 3);
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 minute' WHERE id = $1`, [booking.id]);
    await waitUntilExpired(booking.id);
    await expectHoldEndedRefused(user, booking.id, 'expired', { eventId: event.id, available: 5 });
  });

  it('says a hold that ran out after a declined card expired, not that the card was declined', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 1);
    await confirm(user, booking.id, card('4000 0000 0000 0002'));
    const view = () => ctx.request(user, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect((await view()).json()).toMatchObject({ status: 'pending', failureMessage: en.payment.cardDeclined });
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 minute' WHERE id = $1`, [booking.id]);
    // Before the expiry job has released it, and after.
    expect((await view()).json()).toMatchObject({ status: 'expired', failureMessage: null });
    await waitUntilExpired(booking.id);
    expect((await view()).json()).toMatchObject({ status: 'expired', failureMessage: null });
  });

  it('does not charge a hold whose time ran out before the expiry job released it, and releases it at once', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 3);
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '10 milliseconds' WHERE id = $1`, [booking.id]);
    // Whether or not the job has run yet: the hold is over for the buyer, the payment and the tickets.
    const view = await ctx.request(user, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect(view.json().status).toBe('expired');
    // Released by the refused payment itself (or by the job, had it come first).
    await expectHoldEndedRefused(user, booking.id, 'expired', { eventId: event.id, available: 5 });
  });

  it('does not charge a hold the buyer replaced with a newer reservation (two tabs), only the newer one', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const first = await book(user, event.id, 1);
    const second = await book(user, event.id, 2);
    expect((await bookingRow(first.id))?.status).toBe('cancelled');
    await expectHoldEndedRefused(user, first.id, 'cancelled', { eventId: event.id, available: 8 });
    expect((await confirm(user, second.id, card('4242424242424242'))).json()).toEqual({
      bookingId: second.id,
      status: 'paid',
    });
    // The buyer holds and has paid for the newer reservation only.
    const left = await pool.query('SELECT tickets_available FROM events WHERE id = $1', [event.id]);
    expect(left.rows[0].tickets_available).toBe(8);
    expect(await confirmationMails(second.id)).toHaveLength(1);
  });

  it('does not charge a hold the buyer cancelled, and does not take its tickets again', async () => {
    const event = await createTestEvent(pool, { capacity: 10 });
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 4);
    expect((await cancelReservation(ctx, user, booking.id)).json()).toMatchObject({ status: 'cancelled' });
    await expectHoldEndedRefused(user, booking.id, 'cancelled', { eventId: event.id, available: 10 });
  });

  it('charges nothing for an event deleted while the buyer was paying, ends the hold and gives its tickets back', async () => {
    const event = await createTestEvent(pool, { capacity: 6 });
    const user = await ctx.createUser();
    const admin = await ctx.createUser({ role: 'admin' });
    const booking = await book(user, event.id, 2);
    const other = await ctx.createUser();
    const otherBooking = await book(other, event.id, 1);
    const deleted = await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` });
    expect(deleted.statusCode).toBeLessThan(300);
    // An accepted card and a declined one alike: the event is gone before any card is looked at.
    for (const res of [
      await confirm(user, booking.id, card('4242424242424242')),
      await confirm(other, otherBooking.id, card('4000000000000002')),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'EVENT_GONE', detail: en.payment.eventGone });
    }
    expect(await bookingRow(booking.id)).toMatchObject({
      status: 'failed',
      failure_message: en.payment.eventGone,
    });
    expect(await confirmationMails(booking.id)).toHaveLength(0);
    const left = await pool.query('SELECT tickets_available FROM events WHERE id = $1', [event.id]);
    expect(left.rows[0].tickets_available).toBe(6);
    const again = await confirm(user, booking.id, card('4242424242424242'));
    expect(again.json()).toMatchObject({ code: 'EVENT_GONE' });
    // The page shows the booking as ended, with the event marked deleted.
    const shown = await ctx.request(user, { method: 'GET', url: `/api/bookings/${booking.id}` });
    expect(shown.json()).toMatchObject({
      status: 'failed',
      failureMessage: en.payment.eventGone,
      event: { isDeleted: true },
    });
  });
});

describe('holds paid from memory (no read before the paying statement)', () => {
  it('are remembered by the reservation and forgotten once paid', async () => {
    const event = await createTestEvent(pool);
    const user = await ctx.createUser();
    const booking = await book(user, event.id, 1);
    expect(ctx.app.ticketing.recentHolds.get(booking.id, user.id)).toMatchObject({ title: event.title });
    expect(ctx.app.ticketing.recentHolds.get(booking.id, 'someone-else')).toBeUndefined();
    expect((await confirm(user, booking.id, card('4242424242424242'))).json().status).toBe('paid');
    expect(ctx.app.ticketing.recentHolds.get(booking.id, user.id)).toBeUndefined();
  });

  it('write the email from the database when the event or the buyer changed after the reservation', async () => {
    const event = await createTestEvent(pool, { title: 'Old Title' });
    const user = await ctx.createUser();
    const renamed = await book(user, event.id, 1);
    await pool.query(`UPDATE events SET title = 'New Title', start_time = '21:15' WHERE id = $1`, [event.id]);
    expect((await confirm(user, renamed.id, card('4242424242424242'))).json().status).toBe('paid');
    const [first] = await confirmationMails(renamed.id);
    expect(first?.text_body).toContain('New Title');
    expect(first?.text_body).toContain('09:15 PM');
    expect(first?.text_body).not.toContain('Old Title');

    const other = await createTestEvent(pool, { title: 'Second Show' });
    const booking = await book(user, other.id, 1);
    await pool.query(`UPDATE users SET name = 'Renamed Buyer', email = 'renamed-' || email WHERE id = $1`, [user.id]);
    expect((await confirm(user, booking.id, card('4242424242424242'))).json().status).toBe('paid');
    const [second] = await confirmationMails(booking.id);
    expect(second?.to_address).toBe(`renamed-${user.email}`);
    expect(second?.text_body).toContain('Renamed Buyer');
  });

  it('pay only the owner, even when another user confirms the same booking in the same batch', async () => {
    const event = await createTestEvent(pool);
    const [owner, intruder] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const booking = await book(owner, event.id, 2);
    const [mine, theirs] = await Promise.all([
      confirm(owner, booking.id, card('4242424242424242')),
      confirm(intruder, booking.id, card('4242424242424242')),
    ]);
    expect(mine.json()).toEqual({ bookingId: booking.id, status: 'paid' });
    expect(theirs.statusCode).toBe(404);
    expect(await confirmationMails(booking.id)).toHaveLength(1);
  });
});

describe('payPendingBookings (accepted cards paid in batches, without a transaction)', () => {
  const read = async (bookingId: string, userId: string) => {
    const [seen] = await findBookingsForSettlement(pool, [{ bookingId, userId }]);
    if (!seen) throw new Error('booking not found');
    return seen;
  };
  const pay = async (...bookings: Awaited<ReturnType<typeof read>>[]) =>
    [...(await payPendingBookings(pool, bookings, 'simulated'))].sort();

  it('reads only the users’ own bookings', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const [owner, other] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const booking = await book(owner, event.id, 1);
    const rows = await findBookingsForSettlement(pool, [
      { bookingId: booking.id, userId: other.id },
      { bookingId: booking.id, userId: owner.id },
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: booking.id, userId: owner.id, status: 'pending', userEmail: owner.email });
  });

  it('pays several pending bookings in one statement, each once with one email', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const [a, b] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const [first, second] = [await book(a, event.id, 2), await book(b, event.id, 1)];
    const seen = [await read(first.id, a.id), await read(second.id, b.id)];
    const results = await Promise.all([pay(...seen), pay(...seen), pay(...seen)]);
    expect(results.flat().sort()).toEqual([first.id, second.id].sort());
    for (const id of [first.id, second.id]) {
      expect((await bookingRow(id))?.status).toBe('paid');
      expect(await confirmationMails(id)).toHaveLength(1);
    }
    expect((await confirmationMails(second.id))[0]?.to_address).toBe(b.email);
  });

  it('leaves a booking that expired after it was read to the locked path', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const [user, other] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const booking = await book(user, event.id, 3);
    const fine = await book(other, event.id, 1);
    const seen = [await read(booking.id, user.id), await read(fine.id, other.id)];
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 minute' WHERE id = $1`, [booking.id]);
    await waitUntilExpired(booking.id);
    expect(await pay(...seen)).toEqual([fine.id]);
    expect((await bookingRow(booking.id))?.status).toBe('expired');
    expect(await confirmationMails(booking.id)).toHaveLength(0);
    // The confirm itself, under the lock, finds the hold over and charges nothing.
    expect((await confirm(user, booking.id, card('4242424242424242'))).json()).toMatchObject({ code: 'HOLD_ENDED' });
    const left = await pool.query('SELECT tickets_available FROM events WHERE id = $1', [event.id]);
    expect(left.rows[0].tickets_available).toBe(4);
  });

  it('does not pay for an event deleted after the booking was read', async () => {
    const event = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const admin = await ctx.createUser({ role: 'admin' });
    const booking = await book(user, event.id, 1);
    const seen = await read(booking.id, user.id);
    const deleted = await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` });
    expect(deleted.statusCode).toBeLessThan(300);
    expect(await pay(seen)).toEqual([]);
    // The deletion itself ended the hold.
    expect(await bookingRow(booking.id)).toMatchObject({
      status: 'failed',
      failure_message: en.payment.eventGone,
    });
    expect(await confirmationMails(booking.id)).toHaveLength(0);
    const res = await confirm(user, booking.id, card('4242424242424242'));
    expect(res.json()).toMatchObject({ code: 'EVENT_GONE', detail: en.payment.eventGone });
  });

  it('pays many buyers confirming at once, each exactly once', async () => {
    const event = await createTestEvent(pool, { capacity: 40 });
    const users = await Promise.all(Array.from({ length: 20 }, () => ctx.createUser()));
    const bookings = await Promise.all(users.map((user) => book(user, event.id, 2)));
    // Every buyer confirms twice at the same moment (a double click).
    const answers = await Promise.all(
      users.flatMap((user, i) => {
        const id = (bookings[i] as { id: string }).id;
        return [confirm(user, id, card('4242424242424242')), confirm(user, id, card('4242424242424242'))];
      }),
    );
    expect(answers.map((res) => res.json().status)).toEqual(answers.map(() => 'paid'));
    const mails = await pool.query(`SELECT count(*)::int AS n FROM email_outbox WHERE dedupe_key = ANY ($1)`, [
      bookings.map((b) => `booking-paid:${b.id}`),
    ]);
    expect(mails.rows[0].n).toBe(20);
    const left = await pool.query('SELECT tickets_available FROM events WHERE id = $1', [event.id]);
    expect(left.rows[0].tickets_available).toBe(0);
  });
});

/** Waits for the scheduled hold-expiry job to expire the booking. */
async function waitUntilExpired(bookingId: string) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await bookingRow(bookingId))?.status === 'expired') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`booking ${bookingId} was not expired by the job`);
}
