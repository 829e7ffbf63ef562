import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Attendee, AttendeesPage } from '../../../contracts/attendees';
import { buyTickets, createTestEvent } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';
import { parseCsv } from '../../test/parse-csv';

const ctx = await setupTestApp();
const pool = ctx.database.pool;
afterAll(() => ctx.close());

const admin = await ctx.createUser({ role: 'admin', firstName: 'Mona', lastName: 'Adel' });

async function attendees(eventId: string, query = ''): Promise<AttendeesPage> {
  const res = await ctx.request(admin, { method: 'GET', url: `/api/admin/events/${eventId}/attendees${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function csvOf(
  eventId: string,
  language?: string,
): Promise<{ text: string; rows: string[][]; headers: Record<string, unknown> }> {
  const res = await ctx.request(admin, {
    method: 'GET',
    url: `/api/admin/events/${eventId}/attendees.csv`,
    headers: language ? { 'accept-language': language } : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return { text: res.body, rows: parseCsv(res.body.replace(/^\uFEFF/, '')), headers: res.headers };
}

function sync(eventId: string, ticketId: string) {
  return ctx.request(admin, {
    method: 'POST',
    url: `/api/check-in/${eventId}/sync`,
    payload: { scans: [{ nonce: randomUUID(), ticketId, scannedAt: new Date().toISOString() }] },
  });
}

const omar = await ctx.createUser({
  firstName: 'Omar',
  lastName: 'Hassan',
  email: `omar-${randomUUID().slice(0, 6)}@example.com`,
});
const laila = await ctx.createUser({
  firstName: 'Laila',
  lastName: 'Farouk',
  email: `laila-${randomUUID().slice(0, 6)}@example.net`,
});

describe('the attendees list', () => {
  it('lists every ticket with its buyer, code, number, status, purchase and check-in, and the counts', async () => {
    const event = await createTestEvent(pool);
    const omarBooking = await buyTickets(ctx, omar, event.id, 2);
    await buyTickets(ctx, laila, event.id, 1);
    const empty = await createTestEvent(pool);
    expect(await attendees(empty.id)).toMatchObject({
      items: [],
      total: 0,
      page: 1,
      pageCount: 0,
      counts: { sold: 0, checkedIn: 0, admittedTwice: 0 },
    });

    const before = await attendees(event.id);
    expect(before.event).toMatchObject({ id: event.id, title: event.title, startTime: '19:30', endTime: '22:00' });
    expect(before.timeZone).toBe('Africa/Cairo');
    expect(before.counts).toEqual({ sold: 3, checkedIn: 0, admittedTwice: 0 });
    // By name: Laila's one ticket, then Omar's two in order.
    expect(before.items.map((a) => [a.name, a.email, a.number, a.of, a.status])).toEqual([
      ['Laila Farouk', laila.email, 1, 1, 'valid'],
      ['Omar Hassan', omar.email, 1, 2, 'valid'],
      ['Omar Hassan', omar.email, 2, 2, 'valid'],
    ]);
    const paidAt = (await pool.query('SELECT paid_at FROM bookings WHERE id = $1', [omarBooking])).rows[0].paid_at;
    expect(before.items[1]?.boughtAt).toBe((paidAt as Date).toISOString());
    expect(before.items[1]?.bookingId).toBe(omarBooking);

    const ticket = before.items[1] as Attendee;
    const scan = await ctx.request(admin, {
      method: 'POST',
      url: '/api/check-in',
      payload: { eventId: event.id, code: ticket.code },
    });
    expect(scan.json().outcome).toBe('admitted');
    const after = await attendees(event.id);
    expect(after.counts).toEqual({ sold: 3, checkedIn: 1, admittedTwice: 0 });
    expect(after.items[1]).toMatchObject({
      ticketId: ticket.ticketId,
      status: 'checked_in',
      checkedInAt: scan.json().checkedInAt,
      checkedInBy: 'Mona Adel',
      admittedTwice: false,
    });
    expect(after.items[2]).toMatchObject({ status: 'valid', checkedInAt: null, checkedInBy: null });
  });

  it('finds tickets by name or email (any case, any part) and by code as typed', async () => {
    const event = await createTestEvent(pool);
    await buyTickets(ctx, omar, event.id, 2);
    await buyTickets(ctx, laila, event.id, 1);
    const all = (await attendees(event.id)).items;
    const lailaTicket = all.find((a) => a.name === 'Laila Farouk') as Attendee;
    const names = async (q: string) =>
      (await attendees(event.id, `?q=${encodeURIComponent(q)}`)).items.map((a) => `${a.name} ${a.number}`);

    expect(await names('omar')).toEqual(['Omar Hassan 1', 'Omar Hassan 2']);
    expect(await names('FAROUK')).toEqual(['Laila Farouk 1']);
    expect(await names('example.net')).toEqual(['Laila Farouk 1']);
    expect(await names(laila.email.toUpperCase())).toEqual(['Laila Farouk 1']);
    const code = lailaTicket.code;
    expect(await names(code)).toEqual(['Laila Farouk 1']);
    expect(await names(` ${code.slice(0, 5).toLowerCase()}-${code.slice(5)} `)).toEqual(['Laila Farouk 1']);
    expect(await names(`${code.slice(0, 3)} ${code.slice(3, 8).toLowerCase()}`)).toContain('Laila Farouk 1');
    // LIKE's wildcards are plain characters in a search.
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    const none = await attendees(event.id, '?q=nobody');
    expect(none).toMatchObject({ items: [], total: 0, counts: { sold: 3 } });
  });

  it('pages 50 tickets at a time; a page past the last answers the last', async () => {
    const event = await createTestEvent(pool, { capacity: 60 });
    const buyers: TestUser[] = [];
    for (let i = 0; i < 6; i++) buyers.push(await ctx.createUser({ firstName: `Buyer${i}`, lastName: 'Many' }));
    for (const [i, buyer] of buyers.entries()) await buyTickets(ctx, buyer, event.id, i < 5 ? 10 : 5);
    const first = await attendees(event.id);
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: 55, counts: { sold: 55 } });
    expect(first.items).toHaveLength(50);
    const second = await attendees(event.id, '?page=2');
    expect(second.items).toHaveLength(5);
    expect(second.page).toBe(2);
    const ids = new Set([...first.items, ...second.items].map((a) => a.ticketId));
    expect(ids.size).toBe(55);
    expect((await attendees(event.id, '?page=9')).page).toBe(2);
    const searched = await attendees(event.id, '?q=buyer5');
    expect(searched).toMatchObject({ page: 1, pageCount: 1, total: 5 });
  });

  it("flags a ticket admitted twice (two devices' offline scans) and shows voided tickets as void", async () => {
    const event = await createTestEvent(pool);
    await buyTickets(ctx, omar, event.id, 3);
    const [one, two] = (await attendees(event.id)).items as [Attendee, Attendee, Attendee];
    expect((await sync(event.id, one.ticketId)).json().results[0].outcome).toBe('admitted');
    expect((await sync(event.id, one.ticketId)).json().results[0].outcome).toBe('admitted_again');
    // A refund voids the booking's tickets (what the booking module's trigger does); here one ticket directly.
    await pool.query('UPDATE tickets SET voided_at = now() WHERE id = $1', [two.ticketId]);
    const page = await attendees(event.id);
    expect(page.counts).toEqual({ sold: 2, checkedIn: 1, admittedTwice: 1 });
    expect(page.items.map((a) => [a.number, a.status, a.admittedTwice])).toEqual([
      [1, 'checked_in', true],
      [2, 'void', false],
      [3, 'valid', false],
    ]);
    expect(page.total).toBe(3);
  });

  it('is for admins: 401 signed out, 403 for users; 404 for an unknown or deleted event; 400 for a bad query', async () => {
    const event = await createTestEvent(pool);
    const deleted = await createTestEvent(pool, { isDeleted: true });
    for (const path of ['attendees', 'attendees.csv']) {
      const url = `/api/admin/events/${event.id}/${path}`;
      expect((await ctx.request(undefined, { method: 'GET', url })).statusCode).toBe(401);
      expect((await ctx.request(omar, { method: 'GET', url })).statusCode).toBe(403);
      for (const id of [randomUUID(), deleted.id, 'not-an-id']) {
        const res = await ctx.request(admin, { method: 'GET', url: `/api/admin/events/${id}/${path}` });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ status: 404, code: 'EVENT_NOT_FOUND' });
      }
    }
    for (const query of ['?page=0', '?page=-1', '?page=abc', '?page=1.5', '?page=1&page=2', `?q=${'x'.repeat(201)}`]) {
      const res = await ctx.request(admin, { method: 'GET', url: `/api/admin/events/${event.id}/attendees${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });
});

describe('the attendees CSV', () => {
  it('has every ticket, a BOM for Excel, times in the app time zone, and is a download', async () => {
    const event = await createTestEvent(pool, { title: 'Jazz Night: Live!' });
    const mona = await ctx.createUser({ firstName: 'منى', lastName: 'عادل' });
    await buyTickets(ctx, mona, event.id, 2);
    const [first] = (await attendees(event.id)).items as [Attendee];
    await ctx.request(admin, {
      method: 'POST',
      url: '/api/check-in',
      payload: { eventId: event.id, code: first.code },
    });
    const checked = (await attendees(event.id)).items[0] as Attendee;

    const { text, rows, headers } = await csvOf(event.id);
    expect(headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(headers['content-disposition']).toMatch(
      /^attachment; filename="attendees-\d{4}-\d\d-\d\d-jazz-night-live\.csv"$/,
    );
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(rows[0]).toEqual([
      'Name',
      'Email',
      'Code',
      'Ticket',
      'Status',
      'Bought at (Africa/Cairo)',
      'Checked in at (Africa/Cairo)',
      'Checked in by',
      'Admitted twice',
    ]);
    expect(rows).toHaveLength(3);
    const cairo = (iso: string) =>
      new Intl.DateTimeFormat('sv-SE', { timeZone: 'Africa/Cairo', dateStyle: 'short', timeStyle: 'short' }).format(
        new Date(iso),
      );
    expect(rows[1]).toEqual([
      'منى عادل',
      mona.email,
      `${first.code.slice(0, 5)}-${first.code.slice(5)}`,
      '1 of 2',
      'Checked in',
      cairo(checked.boughtAt as string),
      cairo(checked.checkedInAt as string),
      'Mona Adel',
      '',
    ]);
    expect(rows[2]?.slice(3, 8)).toEqual(['2 of 2', 'Valid', cairo(checked.boughtAt as string), '', '']);
  });

  it("is written in the request's language: Arabic headings, statuses and ticket numbers, the same times", async () => {
    const event = await createTestEvent(pool);
    const buyer = await ctx.createUser({ firstName: 'Omar', lastName: 'Hassan' });
    await buyTickets(ctx, buyer, event.id, 2);
    const [first] = (await attendees(event.id)).items as [Attendee];
    await ctx.request(admin, {
      method: 'POST',
      url: '/api/check-in',
      payload: { eventId: event.id, code: first.code },
    });
    const english = await csvOf(event.id);
    const { rows } = await csvOf(event.id, 'ar-EG,ar;q=0.9');
    expect(rows[0]).toEqual([
      'الاسم',
      'البريد الإلكتروني',
      'الكود',
      'التذكرة',
      'الحالة',
      'وقت الشراء (Africa/Cairo)',
      'وقت الدخول (Africa/Cairo)',
      'سجّل حضوره',
      'دخول مكرر',
    ]);
    const tickets = rows.slice(1);
    const [checkedIn, valid] = [tickets.find((row) => row[6] !== ''), tickets.find((row) => row[6] === '')];
    expect(checkedIn?.slice(3, 5)).toEqual(['١ من ٢', 'تم الدخول']);
    expect(valid?.slice(3, 5)).toEqual(['٢ من ٢', 'صالحة']);
    // Names, emails, codes and times are the data's own: the same in both languages.
    const cells = (table: string[][]) => table.slice(1).map((row) => [row[0], row[1], row[2], row[5], row[6], row[7]]);
    expect(cells(rows).sort()).toEqual(cells(english.rows).sort());
  });

  it('cannot be made to run a formula: cells starting with = + - @ are prefixed with an apostrophe', async () => {
    const event = await createTestEvent(pool);
    const names = ['=HYPERLINK("http://x")', '+1', '-1', '@SUM(A1)'];
    for (const firstName of names) {
      const buyer = await ctx.createUser({ firstName, lastName: 'X, "Y"' });
      await buyTickets(ctx, buyer, event.id, 1);
    }
    const { rows, text } = await csvOf(event.id);
    const written = rows.slice(1).map((row) => row[0]);
    expect(written.sort()).toEqual(names.map((name) => `'${name} X, "Y"`).sort());
    // Quoted as RFC 4180 says: the comma and the quotes stay inside the one cell.
    expect(text).toContain(`"'=HYPERLINK(""http://x"") X, ""Y"""`);
    for (const row of rows) expect(row).toHaveLength(9);
  });
});
