import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CheckInResult, MyTicket } from '../../../contracts/tickets';
import { buyTickets, createTestEvent, expectCapacityInvariant } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());
afterEach(() => expectCapacityInvariant(pool));

/** Reserves and pays through the API, as a buyer does: the tickets of the paid booking. */
async function buy(user: TestUser, eventId: string, quantity: number): Promise<MyTicket[]> {
  const bookingId = await buyTickets(ctx, user, eventId, quantity);
  return (await myTickets(user)).filter((ticket) => ticket.bookingId === bookingId);
}

async function myTickets(user: TestUser): Promise<MyTicket[]> {
  const res = await ctx.request(user, { method: 'GET', url: '/api/me/tickets' });
  expect(res.statusCode).toBe(200);
  return res.json().items;
}

function checkIn(user: TestUser | undefined, eventId: string, code: string) {
  return ctx.request(user, { method: 'POST', url: '/api/check-in', payload: { eventId, code } });
}

async function checkInOutcome(user: TestUser, eventId: string, code: string): Promise<CheckInResult> {
  const res = await checkIn(user, eventId, code);
  expect(res.statusCode).toBe(200);
  return res.json();
}

const admin = await ctx.createUser({ role: 'admin', firstName: 'Mona', lastName: 'Adel' });
const buyer = await ctx.createUser({ firstName: 'Omar', lastName: 'Hassan' });

describe('tickets', () => {
  it('a paid booking of N issues N tickets numbered 1..N, each with its own short code and signed QR', async () => {
    const event = await createTestEvent(pool);
    const tickets = await buy(buyer, event.id, 3);
    expect(tickets.map((t) => [t.number, t.of, t.status])).toEqual([
      [1, 3, 'valid'],
      [2, 3, 'valid'],
      [3, 3, 'valid'],
    ]);
    expect(new Set(tickets.map((t) => t.code)).size).toBe(3);
    for (const ticket of tickets) {
      expect(ticket.code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{10}$/);
      expect(ticket.eventId).toBe(event.id);
    }
    expect(new Set(tickets.map((t) => t.qr)).size).toBe(3);
  });

  it('a reservation not paid issues none, and another user sees none of them', async () => {
    const event = await createTestEvent(pool);
    const other = await ctx.createUser();
    await ctx.request(other, { method: 'POST', url: '/api/bookings', payload: { eventId: event.id, quantity: 2 } });
    await buy(buyer, event.id, 1);
    expect((await myTickets(other)).filter((t) => t.eventId === event.id)).toEqual([]);
    expect((await myTickets(buyer)).filter((t) => t.eventId === event.id)).toHaveLength(1);
    expect((await ctx.request(undefined, { method: 'GET', url: '/api/me/tickets' })).statusCode).toBe(401);
  });
});

describe('short codes drawn twice', () => {
  it('a code already taken in the event is drawn again: every seat gets a code of its own', async () => {
    // Codes from a pool of 12, handed out in turn from a random start: the bookings below need 10 and
    // collide with the codes already issued most of the time.
    await pool.query('CREATE SEQUENCE IF NOT EXISTS test_codes');
    await pool.query(`SELECT setval('test_codes', 1 + floor(random() * 1000)::int)`);
    await pool.query(`ALTER FUNCTION eventry_ticket_code() RENAME TO eventry_ticket_code_real`);
    await pool.query(`CREATE FUNCTION eventry_ticket_code() RETURNS text LANGUAGE sql VOLATILE AS
      $$ SELECT 'COLLIDE' || lpad((nextval('test_codes') % 12)::text, 3, '2') $$`);
    try {
      const event = await createTestEvent(pool);
      const tickets = [
        ...(await buy(buyer, event.id, 4)),
        ...(await buy(await ctx.createUser(), event.id, 3)),
        ...(await buy(await ctx.createUser(), event.id, 3)),
      ];
      expect(tickets).toHaveLength(10);
      expect(new Set(tickets.map((t) => t.code)).size).toBe(10);
    } finally {
      await pool.query('DROP FUNCTION eventry_ticket_code()');
      await pool.query('ALTER FUNCTION eventry_ticket_code_real() RENAME TO eventry_ticket_code');
    }
  });
});

describe('check-in', () => {
  it('admits a QR once; the second scan says when and by whom', async () => {
    const event = await createTestEvent(pool);
    const [ticket] = await buy(buyer, event.id, 2);
    const first = await checkInOutcome(admin, event.id, ticket?.qr as string);
    expect(first).toMatchObject({ outcome: 'admitted', ticket: { number: 1, of: 2, holderName: 'Omar Hassan' } });
    const second = await checkInOutcome(admin, event.id, ticket?.qr as string);
    expect(second).toMatchObject({ outcome: 'already_checked_in', by: 'Mona Adel', checkedInAt: first.checkedInAt });
    const mine = (await myTickets(buyer)).find((t) => t.id === ticket?.id);
    expect(mine).toMatchObject({ status: 'checked_in', checkedInAt: first.checkedInAt });
  });

  it('20 gates scanning one ticket at once admit it exactly once', async () => {
    const event = await createTestEvent(pool);
    const [ticket] = await buy(buyer, event.id, 1);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        checkInOutcome(admin, event.id, i % 2 ? (ticket?.qr as string) : (ticket?.code as string)),
      ),
    );
    expect(results.filter((r) => r.outcome === 'admitted')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'already_checked_in')).toHaveLength(19);
    const admittedAt = results.find((r) => r.outcome === 'admitted')?.checkedInAt;
    for (const r of results) expect(r.checkedInAt).toBe(admittedAt);
  });

  it('takes the short code as typed (lower case, a dash, spaces)', async () => {
    const event = await createTestEvent(pool);
    const [ticket] = await buy(buyer, event.id, 1);
    const code = ticket?.code as string;
    const typed = ` ${code.slice(0, 5).toLowerCase()}-${code.slice(5)} `;
    expect(await checkInOutcome(admin, event.id, typed)).toMatchObject({ outcome: 'admitted' });
  });

  it("refuses another event's ticket, an unknown code, a forged QR and a voided ticket", async () => {
    const event = await createTestEvent(pool);
    const other = await createTestEvent(pool);
    const [ticket] = await buy(buyer, event.id, 1);
    const [elsewhere] = await buy(buyer, other.id, 1);
    expect(await checkInOutcome(admin, event.id, elsewhere?.qr as string)).toEqual({ outcome: 'wrong_event' });
    // A short code of another event names nothing at this door.
    expect(await checkInOutcome(admin, event.id, elsewhere?.code as string)).toEqual({ outcome: 'unknown' });
    expect(await checkInOutcome(admin, event.id, 'ABCDEFGHJK')).toEqual({ outcome: 'unknown' });
    expect(await checkInOutcome(admin, event.id, 'not a ticket at all')).toEqual({ outcome: 'unknown' });
    const qr = ticket?.qr as string;
    const forged = `${qr.slice(0, 100)}${qr[100] === 'A' ? 'B' : 'A'}${qr.slice(101)}`;
    expect(await checkInOutcome(admin, event.id, forged)).toEqual({ outcome: 'unknown' });
    // Voided by a refund: the signature is still good, the door refuses it.
    const refunded = await ctx.request(admin, {
      method: 'POST',
      url: `/api/admin/bookings/${ticket?.bookingId}/refund`,
    });
    expect(refunded.json()).toMatchObject({ status: 'refunded' });
    expect(await checkInOutcome(admin, event.id, qr)).toMatchObject({ outcome: 'void' });
    expect(await checkInOutcome(admin, event.id, ticket?.code as string)).toMatchObject({ outcome: 'void' });
    expect((await myTickets(buyer)).find((t) => t.id === ticket?.id)?.status).toBe('void');
  });

  it('is for admins and the door staff of that event only; bad input is a 4xx', async () => {
    const event = await createTestEvent(pool);
    const [ticket] = await buy(buyer, event.id, 1);
    const staff = await ctx.createUser({ firstName: 'Door', lastName: 'Keeper' });
    expect((await checkIn(undefined, event.id, ticket?.code as string)).statusCode).toBe(401);
    expect((await checkIn(buyer, event.id, ticket?.code as string)).statusCode).toBe(403);
    expect((await checkIn(staff, event.id, ticket?.code as string)).statusCode).toBe(403);
    await pool.query('INSERT INTO door_staff (user_id, event_id) VALUES ($1, $2)', [staff.id, event.id]);
    expect(await checkInOutcome(staff, event.id, ticket?.code as string)).toMatchObject({
      outcome: 'admitted',
      by: 'Door Keeper',
    });
    const other = await createTestEvent(pool);
    expect((await checkIn(staff, other.id, 'ABCDEFGHJK')).statusCode).toBe(403);
    expect((await checkIn(admin, randomUUID(), 'ABCDEFGHJK')).statusCode).toBe(404);
    for (const payload of [{}, { eventId: event.id }, { eventId: 'x', code: 'y' }, { eventId: event.id, code: 7 }]) {
      expect((await ctx.request(admin, { method: 'POST', url: '/api/check-in', payload })).statusCode).toBe(400);
    }
    const huge = await checkIn(admin, event.id, 'A'.repeat(5000));
    expect(huge.statusCode).toBe(400);
  });

  it("answers refusals in the request's language, with the same codes", async () => {
    const event = await createTestEvent(pool);
    const stranger = await ctx.createUser();
    const ask = (user: typeof admin, payload: Record<string, unknown>, language: string) =>
      ctx.request(user, { method: 'POST', url: '/api/check-in', payload, headers: { 'accept-language': language } });
    const refused = await ask(stranger, { eventId: event.id, code: 'ABCDEFGHJK' }, 'ar');
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', detail: 'لست ضمن فريق البوابة لهذه الفعالية' });
    const english = await ask(stranger, { eventId: event.id, code: 'ABCDEFGHJK' }, 'en');
    expect(english.json()).toMatchObject({ code: 'FORBIDDEN', detail: 'You are not on the door staff of this event' });
    const blank = await ask(admin, { eventId: event.id, code: ' ' }, 'ar');
    expect(blank.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { code: 'أدخل كود التذكرة' } });
    expect((await ask(admin, { eventId: event.id, code: ' ' }, 'en')).json().errors).toEqual({
      code: 'Enter a ticket code',
    });
  });
});

describe('offline bundle and sync', () => {
  it('the bundle lists valid and voided tickets with the public key, and answers 304 to its ETag', async () => {
    const event = await createTestEvent(pool);
    const tickets = await buy(buyer, event.id, 2);
    // The buyer gives one ticket back: the highest number is voided.
    const cancelled = await ctx.request(buyer, {
      method: 'POST',
      url: `/api/bookings/${tickets[1]?.bookingId}/cancel`,
      payload: { quantity: 1 },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(tickets[1]?.number).toBe(2);
    const res = await ctx.request(admin, { method: 'GET', url: `/api/check-in/${event.id}/bundle` });
    expect(res.statusCode).toBe(200);
    const bundle = res.json();
    expect(bundle.publicKey).toBe(await ctx.app.tickets.publicKey());
    expect(bundle.tickets.map((t: { id: string }) => t.id)).toEqual([tickets[0]?.id]);
    expect(bundle.voided).toEqual([tickets[1]?.id]);
    const again = await ctx.request(admin, {
      method: 'GET',
      url: `/api/check-in/${event.id}/bundle`,
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    await checkInOutcome(admin, event.id, tickets[0]?.code as string);
    const changed = await ctx.request(admin, {
      method: 'GET',
      url: `/api/check-in/${event.id}/bundle`,
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().tickets[0].by).toBe('Mona Adel');
  });

  it('records each offline scan once; a ticket admitted on two devices is kept and counted twice', async () => {
    const event = await createTestEvent(pool);
    const [ticket] = await buy(buyer, event.id, 1);
    const scanA = { nonce: randomUUID(), ticketId: ticket?.id, scannedAt: new Date(Date.now() - 60_000).toISOString() };
    const scanB = { nonce: randomUUID(), ticketId: ticket?.id, scannedAt: new Date(Date.now() - 30_000).toISOString() };
    const sync = (scans: unknown[]) =>
      ctx.request(admin, { method: 'POST', url: `/api/check-in/${event.id}/sync`, payload: { scans } });
    // Device A's sync, sent three times at once (a retry storm), then device B's.
    const first = await Promise.all([sync([scanA]), sync([scanA]), sync([scanA])]);
    for (const res of first) expect(res.json().results).toEqual([{ nonce: scanA.nonce, outcome: 'admitted' }]);
    expect((await sync([scanB, scanA])).json().results).toEqual([
      { nonce: scanB.nonce, outcome: 'admitted_again' },
      { nonce: scanA.nonce, outcome: 'admitted' },
    ]);
    const row = await pool.query('SELECT checked_in_at, extra_admissions FROM tickets WHERE id = $1', [ticket?.id]);
    expect(row.rows[0].extra_admissions).toBe(1);
    expect((row.rows[0].checked_in_at as Date).toISOString()).toBe(scanA.scannedAt);
    expect((await sync([{ ...scanA, nonce: randomUUID(), ticketId: randomUUID() }])).json().results[0].outcome).toBe(
      'unknown',
    );
  });
});
