import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eventInstants } from '../../../contracts/calendar';
import { addDays, todayIn } from '../../../contracts/dates';
import { renderWaitlistOffer, type WaitlistOfferData } from '../../plugins/email-templates';
import { mailBodies } from '../../plugins/mailer';
import { buyTickets, createTestEvent, expectCapacityInvariant } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';

/**
 * The waitlist (contracts/waitlist.ts, decision 021) through the API on real PostgreSQL: who may join, the place
 * in line, and tickets coming back from every path offered in the same transaction, in join order, held until
 * WAITLIST_OFFER_HOURS or the start, with one email each; declining, leaving and running out move them on.
 */

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());
afterEach(() => expectCapacityInvariant(pool));

const nextYear = (new Date().getFullYear() + 1) % 100;

function join(user: TestUser | undefined, eventId: string, quantity = 1, acceptFewer = false) {
  return ctx.request(user, {
    method: 'POST',
    url: `/api/events/${eventId}/waitlist`,
    payload: { quantity, acceptFewer },
  });
}

async function mine(user: TestUser) {
  const res = await ctx.request(user, { method: 'GET', url: '/api/me/waitlist' });
  expect(res.statusCode).toBe(200);
  return res.json().items as Array<{
    eventId: string;
    status: string;
    position: number | null;
    quantity: number;
    offer?: { bookingId: string; quantity: number; expiresAt: string };
  }>;
}

async function itemOf(user: TestUser, eventId: string) {
  return (await mine(user)).find((item) => item.eventId === eventId);
}

async function available(eventId: string): Promise<number> {
  const res = await ctx.request(undefined, { method: 'GET', url: `/api/events/${eventId}` });
  return res.json().ticketsAvailable;
}

async function offerMails(userEmail: string) {
  const result = await pool.query<{ subject: string; data: WaitlistOfferData & { bookingId: string } }>(
    `SELECT subject, data FROM email_outbox WHERE kind = 'waitlist-offer' AND to_address = $1 ORDER BY id`,
    [userEmail],
  );
  return result.rows;
}

function payOffer(user: TestUser, bookingId: string) {
  return ctx.request(user, {
    method: 'POST',
    url: '/api/payments/simulated/confirm',
    payload: { bookingId, cardNumber: '4242424242424242', expMonth: 12, expYear: nextYear, cvc: '123' },
  });
}

/** A sold-out event: `capacity` tickets bought by one buyer, whose booking id is returned. */
async function soldOut(capacity: number, options: { daysAhead?: number } = {}) {
  const event = await createTestEvent(pool, { capacity, ...options });
  const buyer = await ctx.createUser();
  const bookingId = await buyTickets(ctx, buyer, event.id, capacity);
  return { event, buyer, bookingId };
}

describe('joining the waitlist', () => {
  it('is for signed-in users, on a sold-out event, once, with a place in line', async () => {
    const { event } = await soldOut(2);
    const [a, b] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    expect((await join(undefined, event.id)).statusCode).toBe(401);

    const first = await join(a, event.id, 2);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ eventId: event.id, quantity: 2, status: 'waiting', position: 1 });
    expect((await join(b, event.id, 1, true)).json()).toMatchObject({ position: 2, acceptFewer: true });

    const again = await join(a, event.id, 1);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ALREADY_WAITING' });
    expect(await itemOf(b, event.id)).toMatchObject({ status: 'waiting', position: 2 });
  });

  it('refuses what is not a waitlist: tickets on sale, a hold of ones own, a cancelled event, bad input', async () => {
    const open = await createTestEvent(pool, { capacity: 5 });
    const user = await ctx.createUser();
    const onSale = await join(user, open.id);
    expect(onSale.statusCode).toBe(409);
    expect(onSale.json()).toMatchObject({ code: 'TICKETS_AVAILABLE', available: 5 });

    // Sold out while the user holds some of its tickets: they pay or let them go first.
    const held = await ctx.request(user, {
      method: 'POST',
      url: '/api/bookings',
      payload: { eventId: open.id, quantity: 5 },
    });
    expect(held.statusCode).toBe(201);
    expect((await join(user, open.id)).json()).toMatchObject({ code: 'HOLDING_TICKETS' });

    const { event } = await soldOut(1);
    const admin = await ctx.createUser({ role: 'admin' });
    await ctx.request(admin, { method: 'POST', url: `/api/admin/events/${event.id}/cancel` });
    expect((await join(user, event.id)).json()).toMatchObject({ code: 'EVENT_CLOSED' });

    expect((await join(user, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await join(user, 'not-a-uuid')).statusCode).toBe(404);
    for (const payload of [{ quantity: 0 }, { quantity: 11 }, { quantity: '2' }, { quantity: 1, extra: true }]) {
      const res = await ctx.request(user, { method: 'POST', url: `/api/events/${event.id}/waitlist`, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});

describe('tickets that come back', () => {
  it("go to the first in line in the cancelling buyer's own transaction, with one email, and are paid like any hold", async () => {
    const { event, buyer, bookingId } = await soldOut(2);
    const [first, second] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    await join(first, event.id, 2);
    await join(second, event.id, 1);

    const cancelled = await ctx.request(buyer, {
      method: 'POST',
      url: `/api/bookings/${bookingId}/cancel`,
      payload: { quantity: 2 },
    });
    expect(cancelled.statusCode).toBe(200);
    // Offered the moment the refund applied: never on sale to the public in between.
    expect(await available(event.id)).toBe(0);
    const offered = await itemOf(first, event.id);
    expect(offered).toMatchObject({ status: 'offered', position: null, offer: { quantity: 2 } });
    expect(await itemOf(second, event.id)).toMatchObject({ status: 'waiting', position: 1 });

    // Nobody else can take them.
    const other = await ctx.createUser();
    const refused = await ctx.request(other, {
      method: 'POST',
      url: '/api/bookings',
      payload: { eventId: event.id, quantity: 1 },
    });
    expect(refused.statusCode).toBe(409);

    const mails = await offerMails(first.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]?.data as WaitlistOfferData & { bookingId: string };
    expect(mail.bookingId).toBe(offered?.offer?.bookingId);
    expect(mail.url).toBe(`${ctx.config.appUrl}/payment?booking=${offered?.offer?.bookingId}`);
    const rendered = renderWaitlistOffer(mail);
    expect(rendered.subject).toBe(`Eventry: tickets for ${event.title} are waiting for you`);
    expect(rendered.text).toContain(mail.url);
    expect(rendered.text).toContain('we are holding 2 tickets for you');

    // The offer is an ordinary hold of theirs: the usual payment route pays it.
    const booking = await ctx.request(first, { method: 'GET', url: `/api/bookings/${offered?.offer?.bookingId}` });
    expect(booking.json()).toMatchObject({ status: 'pending', quantity: 2 });
    expect((await payOffer(first, offered?.offer?.bookingId as string)).json()).toMatchObject({ status: 'paid' });
    expect(await itemOf(first, event.id)).toMatchObject({ status: 'bought' });
    const tickets = await ctx.request(first, { method: 'GET', url: '/api/me/bookings' });
    expect(JSON.stringify(tickets.json())).toContain(offered?.offer?.bookingId as string);
    expect(await offerMails(first.email)).toHaveLength(1);
  });

  it('skip an entry that wants more than came back and would not take fewer, which keeps its place', async () => {
    const { event, buyer, bookingId } = await soldOut(4);
    const [big, small, flexible] = await Promise.all([ctx.createUser(), ctx.createUser(), ctx.createUser()]);
    await join(big, event.id, 3);
    await join(small, event.id, 1);
    await join(flexible, event.id, 4, true);

    await ctx.request(buyer, { method: 'POST', url: `/api/bookings/${bookingId}/cancel`, payload: { quantity: 2 } });
    expect(await itemOf(big, event.id)).toMatchObject({ status: 'waiting', position: 1 });
    expect(await itemOf(small, event.id)).toMatchObject({ status: 'offered', offer: { quantity: 1 } });
    // The one left over goes to the next who takes fewer.
    expect(await itemOf(flexible, event.id)).toMatchObject({ status: 'offered', offer: { quantity: 1 } });
    expect((await offerMails(flexible.email))[0]?.data).toMatchObject({ quantity: 1, asked: 4 });
    expect(await available(event.id)).toBe(0);

    // Two more come back: 2 are not 3, and nobody else waits, so they go on sale.
    await ctx.request(buyer, { method: 'POST', url: `/api/bookings/${bookingId}/cancel`, payload: { quantity: 2 } });
    expect(await itemOf(big, event.id)).toMatchObject({ status: 'waiting', position: 1 });
    expect(await available(event.id)).toBe(2);
  });

  it('come back from a declined offer, an expired one, a hold running out, and the organiser raising the count', async () => {
    const { event } = await soldOut(1);
    const users = await Promise.all([ctx.createUser(), ctx.createUser(), ctx.createUser(), ctx.createUser()]);
    const [u1, u2, u3, u4] = users as [TestUser, TestUser, TestUser, TestUser];
    for (const user of users) expect((await join(user, event.id)).statusCode).toBe(201);

    // The organiser adds one ticket (the admin repository's statement; admin/events.test.ts does it through PUT):
    // the first in line is offered it.
    await pool.query(
      'UPDATE events SET capacity = capacity + 1, tickets_available = tickets_available + 1 WHERE id = $1',
      [event.id],
    );
    expect(await itemOf(u1, event.id)).toMatchObject({ status: 'offered' });

    // Declined: the next one has it at once.
    const declined = await ctx.request(u1, { method: 'POST', url: `/api/me/waitlist/${event.id}/decline` });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({ status: 'declined' });
    expect(await itemOf(u2, event.id)).toMatchObject({ status: 'offered' });
    expect(
      (await ctx.request(u1, { method: 'POST', url: `/api/me/waitlist/${event.id}/decline` })).json(),
    ).toMatchObject({
      code: 'NO_OFFER',
    });

    // Expired: the job ends it, and the next one has it.
    const offer = (await itemOf(u2, event.id))?.offer?.bookingId as string;
    await pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE id = $1`, [offer]);
    expect(await ctx.app.ticketing.expireHolds()).toBe(1);
    expect(await itemOf(u2, event.id)).toMatchObject({ status: 'expired' });
    expect(await itemOf(u3, event.id)).toMatchObject({ status: 'offered' });

    // Leaving with an offer declines it.
    expect((await ctx.request(u3, { method: 'DELETE', url: `/api/events/${event.id}/waitlist` })).statusCode).toBe(200);
    expect(await itemOf(u3, event.id)).toMatchObject({ status: 'declined' });
    expect(await itemOf(u4, event.id)).toMatchObject({ status: 'offered' });

    // The user lets the offered hold go from the payment page ('Cancel reservation'): nobody waits, so it is on sale.
    const last = (await itemOf(u4, event.id))?.offer?.bookingId as string;
    expect((await ctx.request(u4, { method: 'DELETE', url: `/api/bookings/${last}/hold` })).statusCode).toBe(200);
    expect(await itemOf(u4, event.id)).toMatchObject({ status: 'declined' });
    expect(await available(event.id)).toBe(1);
    // A declined user may join again, at the back.
    expect((await join(u1, event.id)).statusCode).toBe(409); // tickets are on sale now
  });

  it('a waiting user leaves, and loses the place', async () => {
    const { event } = await soldOut(1);
    const [a, b] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    await join(a, event.id);
    await join(b, event.id);
    expect((await ctx.request(a, { method: 'DELETE', url: `/api/events/${event.id}/waitlist` })).json()).toEqual({
      left: true,
    });
    expect(await itemOf(a, event.id)).toBeUndefined();
    expect(await itemOf(b, event.id)).toMatchObject({ position: 1 });
    expect((await ctx.request(a, { method: 'DELETE', url: `/api/events/${event.id}/waitlist` })).json()).toMatchObject({
      code: 'NOT_WAITING',
    });
  });

  it('an offer replaced by the user reserving fewer stays the offer, and the rest go on', async () => {
    const { event, buyer, bookingId } = await soldOut(2);
    const [a, b] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    await join(a, event.id, 2);
    await join(b, event.id, 1);
    await ctx.request(buyer, { method: 'POST', url: `/api/bookings/${bookingId}/cancel`, payload: { quantity: 2 } });
    const offered = await itemOf(a, event.id);
    const fewer = await ctx.request(a, {
      method: 'POST',
      url: '/api/bookings',
      payload: { eventId: event.id, quantity: 1 },
    });
    expect(fewer.statusCode).toBe(201);
    // The newer hold keeps the offer's end, and the ticket given back goes to the next in line.
    expect(fewer.json().expiresAt).toBe(offered?.offer?.expiresAt);
    expect(await itemOf(a, event.id)).toMatchObject({
      status: 'offered',
      offer: { bookingId: fewer.json().id, quantity: 1 },
    });
    expect(await itemOf(b, event.id)).toMatchObject({ status: 'offered' });
    expect(fewer.json().event.ticketsAvailable ?? 0).toBe(0);
  });

  it('are held until WAITLIST_OFFER_HOURS, or until the start when it comes first (in APP_TIMEZONE)', async () => {
    const far = await soldOut(1, { daysAhead: 30 });
    const user = await ctx.createUser();
    await join(user, far.event.id);
    const before = Date.now();
    await ctx.request(far.buyer, { method: 'POST', url: `/api/bookings/${far.bookingId}/cancel`, payload: {} });
    const expires = Date.parse((await itemOf(user, far.event.id))?.offer?.expiresAt as string);
    const hours = ctx.config.waitlistOfferHours;
    expect(expires).toBeGreaterThanOrEqual(before + hours * 3_600_000 - 1_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + hours * 3_600_000 + 1_000);

    // An event starting within the offer's hours: held until its start, to the second.
    const soon = await soldOut(1, { daysAhead: 0 });
    const zone = ctx.config.timeZone;
    const start = new Date(Date.now() + 3 * 3_600_000);
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .format(start)
      .slice(0, 5);
    const day = todayIn(zone, start);
    await pool.query(
      `UPDATE events SET event_date = $2, end_date = $2, start_date = $3, start_time = $4, end_time = '23:59',
              refund_hours_before = 0 WHERE id = $1`,
      [soon.event.id, day, addDays(day, -10), local],
    );
    const waiting = await ctx.createUser();
    await join(waiting, soon.event.id);
    const admin = await ctx.createUser({ role: 'admin' });
    expect(
      (await ctx.request(admin, { method: 'POST', url: `/api/admin/bookings/${soon.bookingId}/refund` })).statusCode,
    ).toBe(200);
    const held = await itemOf(waiting, soon.event.id);
    const startsAt = eventInstants({ eventDate: day, startTime: local, endTime: '23:59' }, zone).start;
    expect(held?.offer?.expiresAt).toBe(startsAt.toISOString());
  });
});

describe('the offer email', () => {
  it("is written in the user's language, Arabic right to left, with its subject, the hold's end and the link", async () => {
    const { event, buyer, bookingId } = await soldOut(1);
    const user = await ctx.createUser();
    await pool.query(`UPDATE users SET language = 'ar', name = 'منى' WHERE id = $1`, [user.id]);
    await join(user, event.id);
    await ctx.request(buyer, { method: 'POST', url: `/api/bookings/${bookingId}/cancel`, payload: {} });
    const [row] = await pool
      .query<{ kind: string; text: string | null; html: string | null; data: unknown }>(
        `SELECT kind, text_body AS text, html_body AS html, data FROM email_outbox
        WHERE kind = 'waitlist-offer' AND to_address = $1`,
        [user.email],
      )
      .then((r) => r.rows);
    // As the mail worker renders it on the way out.
    const mail = mailBodies(row as { kind: string; text: string | null; html: string | null; data: unknown });
    expect(mail.subject).toBe(`إيفنتري: تذاكر فعالية \u2068${event.title}\u2069 في انتظارك`);
    expect(mail.html).toContain('dir="rtl"');
    expect(mail.html).toContain(`<span dir="auto">${event.title}</span>`);
    expect(mail.text).toContain('مرحبًا \u2068منى\u2069');
    expect(mail.text).toMatch(/[٠-٩]/); // the hold's end in Arabic digits
    expect(mail.text).toContain(`/payment?booking=${(row?.data as { bookingId: string } | undefined)?.bookingId}`);
  });
});

describe('cancelling an event', () => {
  it('ends its waitlist and its offers', async () => {
    const { event, buyer, bookingId } = await soldOut(2);
    const [offered, waiting] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    await join(offered, event.id, 1);
    await join(waiting, event.id, 2);
    await ctx.request(buyer, { method: 'POST', url: `/api/bookings/${bookingId}/cancel`, payload: { quantity: 1 } });
    expect(await itemOf(offered, event.id)).toMatchObject({ status: 'offered' });

    const admin = await ctx.createUser({ role: 'admin' });
    expect((await ctx.request(admin, { method: 'POST', url: `/api/admin/events/${event.id}/cancel` })).statusCode).toBe(
      200,
    );
    expect(await itemOf(offered, event.id)).toBeUndefined();
    expect(await itemOf(waiting, event.id)).toBeUndefined();
    const entries = await pool.query<{ status: string }>(
      'SELECT status FROM waitlist_entries WHERE event_id = $1 ORDER BY joined_seq',
      [event.id],
    );
    expect(entries.rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(await available(event.id)).toBe(2);
  });
});

describe('under concurrency', () => {
  it('offers every returned ticket once, in join order, while people join, leave and buyers cancel at once', async () => {
    const capacity = 12;
    const event = await createTestEvent(pool, { capacity });
    const buyers = await Promise.all(Array.from({ length: 6 }, () => ctx.createUser()));
    const bookings = await Promise.all(buyers.map((buyer) => buyTickets(ctx, buyer, event.id, 2)));
    const waiters = await Promise.all(Array.from({ length: 10 }, () => ctx.createUser()));
    // Join one by one, so that the line's order is known.
    for (const [i, user] of waiters.entries()) await join(user, event.id, 1 + (i % 3), i % 2 === 0);
    await Promise.all([
      ...buyers.map((buyer, i) =>
        ctx.request(buyer, { method: 'POST', url: `/api/bookings/${bookings[i]}/cancel`, payload: { quantity: 2 } }),
      ),
      ctx.request(waiters[9], { method: 'DELETE', url: `/api/events/${event.id}/waitlist` }),
    ]);
    const offers = await pool.query<{ seq: number; quantity: number; offered: number; fewer: boolean; status: string }>(
      `SELECT w.joined_seq AS seq, w.quantity, w.accept_fewer AS fewer, w.status,
              coalesce((SELECT sum(b.quantity) FROM bookings b WHERE b.waitlist_entry_id = w.id AND b.status = 'pending'), 0)::int
                AS offered
         FROM waitlist_entries w WHERE w.event_id = $1 ORDER BY w.joined_seq`,
      [event.id],
    );
    const total = offers.rows.reduce((sum, row) => sum + row.offered, 0);
    // Every returned ticket is offered or (when nobody waiting fits) on sale; none twice.
    expect(total + (await available(event.id))).toBe(capacity);
    // Join order: a waiting entry before an offered one wanted more than that offer and would not take fewer.
    for (const [i, later] of offers.rows.entries()) {
      if (later.status !== 'offered') continue;
      for (const earlier of offers.rows.slice(0, i)) {
        if (earlier.status !== 'waiting') continue;
        expect(earlier.fewer, JSON.stringify({ earlier, later })).toBe(false);
        expect(earlier.quantity).toBeGreaterThan(later.offered);
      }
    }
    const mails = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM email_outbox WHERE kind = 'waitlist-offer' AND data->>'eventId' = $1`,
      [event.id],
    );
    expect(mails.rows[0]?.n).toBe(offers.rows.filter((row) => row.offered > 0).length);
  });
});
