import { randomUUID } from 'node:crypto';
import jsQR from 'jsqr';
import ical, { type VEvent } from 'node-ical';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../contracts/dates';
import type { MyTicket } from '../../../contracts/tickets';
import { enqueueMail } from '../../plugins/mailer';
import { createTestEvent } from '../../test/booking-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';
import { startTestSmtpServer } from '../../test/smtp-server';
import { buildEventIcs } from './calendar';
import { createTicketHolderService } from './holder-service';

const smtp = await startTestSmtpServer();
const APP_URL = 'https://tickets.example.test';
const ctx = await setupTestApp({
  runJobs: true,
  config: { smtpUrl: smtp.url, mailFrom: 'Eventry <no-reply@eventry.test>', appUrl: APP_URL, timeZone: 'Africa/Cairo' },
});
const pool = ctx.database.pool;
afterAll(async () => {
  await ctx.close();
  await smtp.stop().catch(() => {});
});

const nextYear = Number(todayIn('Africa/Cairo').slice(0, 4)) + 1;

async function reserve(user: TestUser, eventId: string, quantity: number): Promise<string> {
  const reserved = await ctx.request(user, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity } });
  expect(reserved.statusCode).toBe(201);
  return reserved.json().id as string;
}

/** Reserves and pays through the API, as a buyer does: the booking's id and tickets. */
async function buy(
  user: TestUser,
  eventId: string,
  quantity: number,
): Promise<{ bookingId: string; tickets: MyTicket[] }> {
  const bookingId = await reserve(user, eventId, quantity);
  const paid = await ctx.request(user, {
    method: 'POST',
    url: '/api/payments/simulated/confirm',
    payload: { bookingId, cardNumber: '4242424242424242', expMonth: 12, expYear: nextYear % 100, cvc: '123' },
  });
  expect(paid.statusCode).toBe(200);
  const mine = await ctx.request(user, { method: 'GET', url: '/api/me/tickets' });
  const tickets = (mine.json().items as MyTicket[]).filter((ticket) => ticket.bookingId === bookingId);
  return { bookingId, tickets };
}

/** An event at a given date and wall-clock times (in APP_TIMEZONE). */
async function eventAt(
  eventDate: string,
  startTime: string,
  endTime: string,
  fields: Partial<Record<'title' | 'location' | 'description', string>> = {},
) {
  const event = await createTestEvent(pool, { title: fields.title });
  await pool.query(
    `UPDATE events SET event_date = $2, start_date = LEAST(start_date, $2::date), end_date = $2, start_time = $3,
            end_time = $4, location = COALESCE($5, location), description = COALESCE($6, description)
      WHERE id = $1`,
    [event.id, eventDate, startTime, endTime, fields.location ?? null, fields.description ?? null],
  );
  return event;
}

async function calendarOf(eventId: string) {
  const res = await ctx.request(undefined, { method: 'GET', url: `/api/events/${eventId}/calendar.ics` });
  expect(res.statusCode).toBe(200);
  const events = Object.values(ical.sync.parseICS(res.body)).filter((c): c is VEvent => c?.type === 'VEVENT');
  expect(events).toHaveLength(1);
  return { res, event: events[0] as VEvent };
}

const buyer = await ctx.createUser({ firstName: 'Omar', lastName: 'Hassan' });

describe('GET /api/events/:id/calendar.ics', () => {
  it('gives the event in UTC from Cairo wall-clock times, on both sides of both DST changes of 2026 and 2027', async () => {
    // Egypt's summer time (UTC+3) runs from the last Friday of April to the last Thursday of October.
    const cases: Array<[string, string, string, string, string]> = [
      ['2026-04-23', '20:00', '23:30', '2026-04-23T18:00:00.000Z', '2026-04-23T21:30:00.000Z'], // Thursday, winter
      ['2026-04-24', '20:00', '23:30', '2026-04-24T17:00:00.000Z', '2026-04-24T20:30:00.000Z'], // first day of summer
      ['2026-10-29', '10:00', '12:00', '2026-10-29T07:00:00.000Z', '2026-10-29T09:00:00.000Z'], // last day of summer
      ['2026-10-30', '10:00', '12:00', '2026-10-30T08:00:00.000Z', '2026-10-30T10:00:00.000Z'], // winter again
      ['2027-04-29', '19:30', '22:00', '2027-04-29T17:30:00.000Z', '2027-04-29T20:00:00.000Z'],
      ['2027-04-30', '19:30', '22:00', '2027-04-30T16:30:00.000Z', '2027-04-30T19:00:00.000Z'],
      ['2027-10-28', '19:30', '22:00', '2027-10-28T16:30:00.000Z', '2027-10-28T19:00:00.000Z'],
      ['2027-10-29', '19:30', '22:00', '2027-10-29T17:30:00.000Z', '2027-10-29T20:00:00.000Z'],
    ];
    for (const [date, start, end, startUtc, endUtc] of cases) {
      const created = await eventAt(date, start, end);
      const { event } = await calendarOf(created.id);
      expect([event.start.toISOString(), event.end?.toISOString()], `${date} ${start}-${end}`).toEqual([
        startUtc,
        endUtc,
      ]);
    }
  });

  it('ends on the next day when the end time is earlier than the start time', async () => {
    const created = await eventAt('2026-12-31', '22:00', '02:00');
    const { event } = await calendarOf(created.id);
    expect(event.start.toISOString()).toBe('2026-12-31T20:00:00.000Z');
    expect(event.end?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('carries the title, location, description and page, escaped and folded, as a download', async () => {
    const title = `Rock, Paper; Back\\slash — حفلة موسيقية في القاهرة مع فرقة الأوركسترا الوطنية ${randomUUID().slice(0, 4)}`;
    const description = 'Doors at 7.\nBring: ID, ticket; smile.';
    const created = await eventAt('2026-12-05', '19:30', '22:00', {
      title,
      location: 'Cairo Opera House, Zamalek',
      description,
    });
    const { res, event } = await calendarOf(created.id);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+\.ics"/);
    expect(event.summary).toBe(title);
    expect(event.location).toBe('Cairo Opera House, Zamalek');
    expect(event.description).toBe(`${description}\n\n${APP_URL}/event-details/${created.id}`);
    expect(String(event.url)).toBe(`${APP_URL}/event-details/${created.id}`);
    expect(event.uid).toContain(created.id);
    expect(res.body).toContain('SUMMARY:Rock\\, Paper\\; Back\\\\slash');
    expect(res.body).toContain('DTSTART:20261205T173000Z');
    const lines = res.body.split('\r\n');
    expect(lines.at(-1)).toBe('');
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
  });

  it('answers 404 for an unknown, malformed or deleted event', async () => {
    const deleted = await createTestEvent(pool, { isDeleted: true });
    for (const id of [randomUUID(), 'not-an-id', deleted.id]) {
      const res = await ctx.request(undefined, { method: 'GET', url: `/api/events/${id}/calendar.ics` });
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('follows APP_TIMEZONE: New York across its own DST change', () => {
    const event = {
      id: randomUUID(),
      title: 'Brunch',
      location: 'NYC',
      description: 'Eggs',
      eventDate: '2026-03-08', // clocks go from 02:00 EST to 03:00 EDT
      startTime: '01:30',
      endTime: '04:00',
    };
    const parsed = Object.values(
      ical.sync.parseICS(buildEventIcs(event, { timeZone: 'America/New_York', appUrl: APP_URL })),
    ).find((c): c is VEvent => c?.type === 'VEVENT');
    expect(parsed?.start.toISOString()).toBe('2026-03-08T06:30:00.000Z');
    expect(parsed?.end?.toISOString()).toBe('2026-03-08T08:00:00.000Z');
  });
});

describe('GET /api/bookings/:id/tickets.pdf', () => {
  const pages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

  it('gives the owner one page per ticket of a paid booking, even for an event with an Arabic title', async () => {
    const event = await createTestEvent(pool, { title: `حفلة ${randomUUID().slice(0, 4)}` });
    const { bookingId } = await buy(buyer, event.id, 3);
    const res = await ctx.request(buyer, { method: 'GET', url: `/api/bookings/${bookingId}/tickets.pdf` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+\.pdf"/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pages(res.rawPayload)).toBe(3);
  });

  it('is written in the language of the request, Arabic with a font that draws it', async () => {
    const event = await createTestEvent(pool, { title: `Jazz ${randomUUID().slice(0, 4)}` });
    const { bookingId } = await buy(buyer, event.id, 1);
    const url = `/api/bookings/${bookingId}/tickets.pdf`;
    const arabic = await ctx.request(buyer, { method: 'GET', url, headers: { 'accept-language': 'ar' } });
    expect(arabic.statusCode).toBe(200);
    expect(arabic.rawPayload.toString('latin1')).toContain('/Lang (ar)');
    expect(arabic.rawPayload.toString('latin1')).toContain('IBMPlexSansArabic');
    const english = await ctx.request(buyer, { method: 'GET', url });
    expect(english.rawPayload.toString('latin1')).toContain('/Lang (en)');
    expect(english.rawPayload.toString('latin1')).not.toContain('IBMPlexSansArabic');
    // Refusals are said in the request's language too.
    const missing = await ctx.request(buyer, {
      method: 'GET',
      url: `/api/bookings/${randomUUID()}/tickets.pdf`,
      headers: { 'accept-language': 'ar' },
    });
    expect(missing.json()).toMatchObject({ code: 'BOOKING_NOT_FOUND', detail: 'الحجز غير موجود' });
  });

  it("is not found for another user's booking or a made-up one, asks who you are without a session, and refuses an unpaid one", async () => {
    const event = await createTestEvent(pool);
    const { bookingId } = await buy(buyer, event.id, 1);
    const other = await ctx.createUser();
    const url = `/api/bookings/${bookingId}/tickets.pdf`;
    expect((await ctx.request(other, { method: 'GET', url })).statusCode).toBe(404);
    expect(
      (await ctx.request(buyer, { method: 'GET', url: `/api/bookings/${randomUUID()}/tickets.pdf` })).statusCode,
    ).toBe(404);
    expect((await ctx.request(buyer, { method: 'GET', url: '/api/bookings/nope/tickets.pdf' })).statusCode).toBe(404);
    expect((await ctx.request(undefined, { method: 'GET', url })).statusCode).toBe(401);
    const held = await reserve(other, event.id, 1);
    const unpaid = await ctx.request(other, { method: 'GET', url: `/api/bookings/${held}/tickets.pdf` });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().code).toBe('BOOKING_NOT_PAID');
  });
});

describe('the booking confirmation email', () => {
  const confirmations = (title: string) =>
    smtp.received.filter((mail) => mail.subject === `Eventry: your tickets for ${title}`);

  async function waitFor(title: string) {
    for (let i = 0; i < 200 && confirmations(title).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    return confirmations(title);
  }

  it('is one email carrying every ticket: its QR inline (cid), short code and number, and the event as .ics', async () => {
    const event = await createTestEvent(pool);
    const { tickets } = await buy(buyer, event.id, 2);
    const [mail] = await waitFor(event.title);
    await new Promise((r) => setTimeout(r, 300));
    expect(confirmations(event.title)).toHaveLength(1);
    if (!mail) throw new Error('no confirmation');
    const images = mail.attachments.filter((a) => a.contentType === 'image/png');
    expect(images).toHaveLength(2);
    for (const image of images) expect(mail.html).toContain(`src="cid:${image.cid}"`);
    const cids = [...mail.html.matchAll(/src="cid:([^"]+)"/g)].map((m) => m[1]);
    expect(cids.sort()).toEqual(images.map((i) => i.cid).sort());
    // Each image is the QR of one ticket, in ticket order.
    const decoded = await Promise.all(
      images.map(async (image) => {
        const { data, info } = await sharp(image.content).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data;
      }),
    );
    expect(decoded).toEqual(tickets.map((t) => t.qr));
    for (const ticket of tickets) {
      expect(mail.html).toContain(`Ticket ${ticket.number} of 2`);
      expect(mail.text).toContain(`${ticket.code.slice(0, 5)}-${ticket.code.slice(5)}`);
    }
    const calendar = mail.attachments.filter((a) => a.contentType.startsWith('text/calendar'));
    expect(calendar).toHaveLength(1);
    const vevent = Object.values(ical.sync.parseICS(calendar[0]?.content.toString('utf8') ?? '')).find(
      (c): c is VEvent => c?.type === 'VEVENT',
    );
    expect(vevent?.summary).toBe(event.title);
  });

  it('adds its tickets in the recipient’s language when the mailer names it', async () => {
    const event = await createTestEvent(pool);
    const { bookingId, tickets } = await buy(buyer, event.id, 2);
    const holder = createTicketHolderService({
      db: pool,
      ticketsOfBooking: (id) => ctx.app.tickets.ticketsOfBooking(id),
      timeZone: 'Africa/Cairo',
      appUrl: APP_URL,
    });
    const arabic = await holder.confirmationExtras({ bookingId }, 'ar');
    expect(arabic?.html).toContain('التذكرة ١ من ٢');
    expect(arabic?.html).toContain('اعرض رمز QR');
    expect(arabic?.text).toContain(`التذكرة ٢ من ٢: ${tickets[1]?.code.slice(0, 5)}-${tickets[1]?.code.slice(5)}`);
    // Without a language it is English, as the emails were.
    expect((await holder.confirmationExtras({ bookingId }))?.html).toContain('Ticket 1 of 2');
  });

  it('queued before tickets existed (no booking id in its data), it still goes out, without them', async () => {
    const title = `Old ${randomUUID().slice(0, 6)}`;
    await enqueueMail(ctx.database.db, {
      kind: 'booking-confirmation',
      to: 'old@example.com',
      subject: `Eventry: your tickets for ${title}`,
      data: {
        name: 'Old',
        title,
        eventDate: '2026-12-05',
        startTime: '19:30',
        endTime: '22:00',
        quantity: 1,
        totalPiasters: 100,
      },
    });
    const [mail] = await waitFor(title);
    expect(mail?.attachments).toEqual([]);
    expect(mail?.text).toContain('Your tickets are in your profile under Your Tickets.');
  });
});
