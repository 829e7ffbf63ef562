import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../contracts/dates';
import { MESSAGES } from '../../../contracts/i18n/all';
import { payment } from '../../../contracts/i18n/en/payment';

import { takeTickets, uploadImage, validEventBody } from '../../test/admin-fixtures';
import { setupTestApp, type TestUser } from '../../test/helpers';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

const m = MESSAGES.en.eventForm;
const adminMessages = MESSAGES.en.admin;
let admin: TestUser;
let user: TestUser;
let imageUrl: string;
const today = todayIn(ctx.config.timeZone);

beforeAll(async () => {
  admin = await ctx.createUser({ role: 'admin' });
  user = await ctx.createUser();
  imageUrl = await uploadImage(ctx, admin);
});

async function createEvent(overrides: Record<string, unknown> = {}) {
  const res = await ctx.request(admin, {
    method: 'POST',
    url: '/api/admin/events',
    payload: validEventBody(ctx, imageUrl, overrides),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; version: number; ticketsAvailable: number; capacity: number; title: string };
}

function post(payload: unknown) {
  return ctx.request(admin, { method: 'POST', url: '/api/admin/events', payload: payload as Record<string, unknown> });
}

describe('access', () => {
  const routes = [
    { method: 'GET', url: '/api/admin/events' },
    { method: 'GET', url: '/api/admin/form-meta' },
    { method: 'GET', url: '/api/admin/events/00000000-0000-4000-8000-000000000000' },
    { method: 'POST', url: '/api/admin/events' },
    { method: 'PUT', url: '/api/admin/events/00000000-0000-4000-8000-000000000000' },
    { method: 'DELETE', url: '/api/admin/events/00000000-0000-4000-8000-000000000000' },
    { method: 'POST', url: '/api/admin/uploads' },
  ] as const;

  it('answers 401 to anonymous visitors on every admin route', async () => {
    for (const route of routes) {
      const res = await ctx.request(undefined, { ...route, payload: route.method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('answers 403 to signed-in users on every admin route', async () => {
    for (const route of routes) {
      const res = await ctx.request(user, { ...route, payload: route.method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });
});

describe('POST /api/admin/events', () => {
  it('creates an event in piasters with its capacity all available, keeping the title as typed', async () => {
    const res = await post(validEventBody(ctx, imageUrl, { title: '  Cairo JAZZ Night ', price: '150.5' }));
    expect(res.statusCode).toBe(201);
    const event = res.json();
    expect(event).toMatchObject({
      title: 'Cairo JAZZ Night',
      pricePiasters: 15050,
      capacity: 100,
      ticketsAvailable: 100,
      categoryId: 'music',
      categoryName: 'Music',
      startTime: '19:30',
      endTime: '22:00',
      imageUrl,
      isDeleted: false,
      version: 1,
    });
    const read = await ctx.request(admin, { method: 'GET', url: `/api/admin/events/${event.id}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(event);
  });

  it('accepts the price and tickets as JSON numbers too', async () => {
    const res = await post(validEventBody(ctx, imageUrl, { price: 99.99, tickets: 5 }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ pricePiasters: 9999, capacity: 5, ticketsAvailable: 5 });
  });

  it('takes a one-digit hour and stores the time as HH:MM', async () => {
    const res = await post(validEventBody(ctx, imageUrl, { startTime: '9:05', endTime: '0:30' }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ startTime: '09:05', endTime: '00:30' });
  });

  it('puts a new event in the default category when none is given', async () => {
    const { categoryId: _omit, ...body } = validEventBody(ctx, imageUrl);
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    expect(res.json().categoryId).toBe('other');
  });

  it('reports every missing field with the spec message', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toEqual({
      title: m.titleRequired,
      host: m.hostRequired,
      location: m.locationRequired,
      price: m.priceRequired,
      tickets: m.ticketsRequired,
      startDate: m.startDateRequired,
      endDate: m.endDateRequired,
      eventDate: m.eventDateRequired,
      startTime: m.startTimeRequired,
      endTime: m.endTimeRequired,
      description: m.descriptionRequired,
      imageUrl: m.imageRequired,
    });
  });

  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['a blank title', { title: '   ' }, 'title', 'Title is required'],
    ['a blank host', { host: '' }, 'host', 'Host is required'],
    ['a blank location', { location: ' ' }, 'location', 'Location is required'],
    ['a blank description', { description: '' }, 'description', 'Description is required'],
    ['an empty price', { price: '' }, 'price', 'Price is required'],
    ['a price that is not a number', { price: 'ten' }, 'price', 'Price must be a number'],
    ['a zero price', { price: '0' }, 'price', 'Price must be greater than 0'],
    ['a negative price', { price: -5 }, 'price', 'Price must be greater than 0'],
    ['a price with three decimals', { price: '10.555' }, 'price', adminMessages.priceDecimals],
    ['a huge price', { price: '1000000.01' }, 'price', adminMessages.priceTooHigh],
    ['empty tickets', { tickets: '' }, 'tickets', 'Tickets is required'],
    ['tickets that are not a number', { tickets: 'many' }, 'tickets', 'Tickets must be a number'],
    ['zero tickets', { tickets: 0 }, 'tickets', 'Tickets must be greater than 0'],
    ['fractional tickets', { tickets: '2.5' }, 'tickets', adminMessages.ticketsWhole],
    ['an empty start date', { startDate: '' }, 'startDate', 'Start date is required'],
    ['a malformed start date', { startDate: '2026/01/01' }, 'startDate', 'Invalid date format'],
    ['an impossible start date', { startDate: '2026-02-30' }, 'startDate', 'Invalid date format'],
    ['a start date yesterday', { startDate: addDays(today, -1) }, 'startDate', 'Start date must be today or later'],
    ['an empty end date', { endDate: '' }, 'endDate', 'End date is required'],
    [
      'an end date before the start date',
      { startDate: addDays(today, 3), endDate: addDays(today, 2) },
      'endDate',
      'End date must be the same as or after start date',
    ],
    ['an empty event date', { eventDate: '' }, 'eventDate', 'Event date is required'],
    [
      'an event date before the end date',
      { endDate: addDays(today, 4), eventDate: addDays(today, 3) },
      'eventDate',
      'Event date must be the same as or after end date',
    ],
    ['an empty start time', { startTime: '' }, 'startTime', 'Start time is required'],
    ['a start time at 24:00', { startTime: '24:00' }, 'startTime', 'Invalid start time format'],
    ['a start time with minute 60', { startTime: '10:60' }, 'startTime', 'Invalid start time format'],
    ['a 12-hour start time', { startTime: '07:30 PM' }, 'startTime', 'Invalid start time format'],
    ['an empty end time', { endTime: '' }, 'endTime', 'End time is required'],
    ['a malformed end time', { endTime: '9pm' }, 'endTime', 'Invalid end time format'],
    ['an empty image', { imageUrl: '' }, 'imageUrl', 'Image is required'],
    ['an image from elsewhere', { imageUrl: 'https://evil.example/x.png' }, 'imageUrl', adminMessages.imageInvalid],
    [
      'an image that was never uploaded',
      { imageUrl: '/uploads/eventImg/00000000-0000-4000-8000-000000000000.webp' },
      'imageUrl',
      adminMessages.imageInvalid,
    ],
    [
      'a profile picture',
      { imageUrl: '/uploads/userImg/00000000-0000-4000-8000-000000000000.webp' },
      'imageUrl',
      adminMessages.imageInvalid,
    ],
    ['an unknown category', { categoryId: 'nope' }, 'categoryId', adminMessages.categoryUnknown],
    ['an unknown field', { isDeleted: true }, 'isDeleted', adminMessages.unknownField],
    ['a title too long', { title: 'x'.repeat(121) }, 'title', 'Must be at most 120 characters'],
  ];

  it.each(cases)('refuses %s', async (_name, overrides, field, message) => {
    const res = await post(validEventBody(ctx, imageUrl, overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { [field]: message } });
    expect(Object.keys(res.json().errors)).toEqual([field]);
  });

  it("says what is wrong in the request's language, the field names and codes unchanged", async () => {
    const res = await ctx.request(admin, {
      method: 'POST',
      url: '/api/admin/events',
      headers: { 'accept-language': 'ar' },
      payload: validEventBody(ctx, imageUrl, { title: '', price: '10.555', isDeleted: true }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: {
        title: 'العنوان مطلوب',
        price: 'لا يمكن أن يحتوي السعر على أكثر من رقمين عشريين',
        isDeleted: 'حقل غير معروف',
      },
    });
  });

  it('accepts start, end and event dates on the same day, today', async () => {
    const res = await post(validEventBody(ctx, imageUrl, { startDate: today, endDate: today, eventDate: today }));
    expect(res.statusCode).toBe(201);
  });

  it('refuses a body that is not an object', async () => {
    const res = await ctx.request(admin, {
      method: 'POST',
      url: '/api/admin/events',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /api/admin/events', () => {
  it('lists active events 10 a page ordered by title ignoring case, with prefix search', async () => {
    const fresh = await setupTestApp();
    try {
      const a = await fresh.createUser({ role: 'admin' });
      const img = await uploadImage(fresh, a);
      const titles = [
        'banana fest',
        'Apple Day',
        'apple pie',
        'Cherry',
        'date night',
        'Elder',
        'fig',
        'Grape',
        'honey',
        'Ice',
        'jam',
        'Kiwi',
        '50%_off',
        '500 club',
      ];
      const ids: Record<string, string> = {};
      for (const title of titles) {
        const res = await fresh.request(a, {
          method: 'POST',
          url: '/api/admin/events',
          payload: validEventBody(fresh, img, { title }),
        });
        ids[title] = res.json().id;
      }
      await fresh.request(a, { method: 'DELETE', url: `/api/admin/events/${ids.Kiwi}` });

      const page1 = (await fresh.request(a, { method: 'GET', url: '/api/admin/events' })).json();
      expect(page1).toMatchObject({ page: 1, pageCount: 2, total: 13 });
      expect(page1.items.map((e: { title: string }) => e.title)).toEqual([
        '50%_off',
        '500 club',
        'Apple Day',
        'apple pie',
        'banana fest',
        'Cherry',
        'date night',
        'Elder',
        'fig',
        'Grape',
      ]);
      const page2 = (await fresh.request(a, { method: 'GET', url: '/api/admin/events?page=2' })).json();
      expect(page2.items.map((e: { title: string }) => e.title)).toEqual(['honey', 'Ice', 'jam']);

      const apple = (await fresh.request(a, { method: 'GET', url: '/api/admin/events?q=APP' })).json();
      expect(apple).toMatchObject({ total: 2, pageCount: 1 });
      const notInside = (await fresh.request(a, { method: 'GET', url: '/api/admin/events?q=pie' })).json();
      expect(notInside.total).toBe(0);

      // LIKE wildcards in the search are plain characters.
      const percent = (
        await fresh.request(a, { method: 'GET', url: `/api/admin/events?q=${encodeURIComponent('50%')}` })
      ).json();
      expect(percent.items.map((e: { title: string }) => e.title)).toEqual(['50%_off']);
      const underscore = (await fresh.request(a, { method: 'GET', url: '/api/admin/events?q=_' })).json();
      expect(underscore.total).toBe(0);

      // Letter case is ignored beyond A-Z too.
      const elan = await fresh.request(a, {
        method: 'POST',
        url: '/api/admin/events',
        payload: validEventBody(fresh, img, { title: 'Élan Vital' }),
      });
      // Sorted by the letters, not their bytes: É sits among the E's, not after Z.
      const sorted = (await fresh.request(a, { method: 'GET', url: '/api/admin/events' })).json();
      expect(sorted.items.map((e: { title: string }) => e.title).slice(6, 9)).toEqual([
        'date night',
        'Élan Vital',
        'Elder',
      ]);
      for (const q of ['élan', 'ÉLAN', 'Éla']) {
        const found = (
          await fresh.request(a, { method: 'GET', url: `/api/admin/events?q=${encodeURIComponent(q)}` })
        ).json();
        expect(found.items.map((e: { id: string }) => e.id)).toEqual([elan.json().id]);
      }
      await fresh.request(a, { method: 'DELETE', url: `/api/admin/events/${elan.json().id}` });

      // A page past the last (or above the largest the query takes) answers the last page, as the public list does.
      for (const pastEnd of ['9', '100001', '1e9']) {
        const past = (await fresh.request(a, { method: 'GET', url: `/api/admin/events?page=${pastEnd}` })).json();
        expect(past, pastEnd).toMatchObject({ page: 2, pageCount: 2 });
        expect(past.items.length).toBeGreaterThan(0);
      }
      const bad = await fresh.request(a, { method: 'GET', url: '/api/admin/events?page=-3&q=' });
      expect(bad.statusCode).toBe(200);
      expect(bad.json().page).toBe(1);
      const long = await fresh.request(a, { method: 'GET', url: `/api/admin/events?q=${'a'.repeat(500)}` });
      expect(long.statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

describe('GET /api/admin/form-meta', () => {
  it("gives today's date in the app's time zone and the categories", async () => {
    const res = await ctx.request(admin, { method: 'GET', url: '/api/admin/form-meta' });
    expect(res.statusCode).toBe(200);
    expect(res.json().today).toBe(today);
    expect(res.json().defaultCategoryId).toBe('other');
    expect(res.json().categories).toContainEqual({ id: 'music', name: 'Music' });
  });
});

describe('PUT /api/admin/events/:id', () => {
  it('edits every field and bumps the version', async () => {
    const event = await createEvent();
    const res = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${event.id}`,
      payload: validEventBody(ctx, imageUrl, { title: 'Renamed', price: '200', host: 'Someone', categoryId: 'arts' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: event.id,
      title: 'Renamed',
      pricePiasters: 20000,
      host: 'Someone',
      categoryId: 'arts',
      version: event.version + 1,
    });
  });

  it('validates an edit with the same messages', async () => {
    const event = await createEvent();
    const res = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${event.id}`,
      payload: validEventBody(ctx, imageUrl, { title: '', startTime: 'noon' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ title: m.titleRequired, startTime: m.startTimeInvalid });
  });

  it('refuses a new picture that was never uploaded, and keeps the one the event already shows', async () => {
    const event = await createEvent();
    const invented = '/uploads/eventImg/00000000-0000-4000-8000-000000000001.webp';
    const refused = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${event.id}`,
      payload: validEventBody(ctx, invented),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ imageUrl: adminMessages.imageInvalid });
    // An event whose stored picture is gone can still be edited without choosing another one.
    await ctx.database.db.execute(sql`UPDATE events SET image_url = ${invented} WHERE id = ${event.id}`);
    const kept = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${event.id}`,
      payload: validEventBody(ctx, invented, { title: 'Same picture' }),
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ title: 'Same picture', imageUrl: invented });
  });

  it('keeps an unchanged start date that has passed, but refuses moving it into the past', async () => {
    const event = await createEvent();
    const past = addDays(today, -3);
    await ctx.database.db.execute(sql`UPDATE events SET start_date = ${past} WHERE id = ${event.id}`);
    const keep = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${event.id}`,
      payload: validEventBody(ctx, imageUrl, { startDate: past, title: 'Still on' }),
    });
    expect(keep.statusCode).toBe(200);
    expect(keep.json()).toMatchObject({ startDate: past, title: 'Still on' });
    const move = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${event.id}`,
      payload: validEventBody(ctx, imageUrl, { startDate: addDays(today, -1) }),
    });
    expect(move.statusCode).toBe(400);
    expect(move.json().errors).toEqual({ startDate: m.startDateNotPast });
  });

  it('answers 404 for unknown, malformed and deleted events', async () => {
    const event = await createEvent();
    await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', event.id]) {
      const put = await ctx.request(admin, {
        method: 'PUT',
        url: `/api/admin/events/${id}`,
        payload: validEventBody(ctx, imageUrl),
      });
      expect(put.statusCode, id).toBe(404);
      const get = await ctx.request(admin, { method: 'GET', url: `/api/admin/events/${id}` });
      expect(get.statusCode, id).toBe(404);
    }
  });

  it('refuses a stale If-Match version and accepts the current one', async () => {
    const event = await createEvent();
    const stale = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${event.id}`,
      headers: { 'if-match': `"${event.version + 5}"` },
      payload: validEventBody(ctx, imageUrl),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('EVENT_CHANGED');
    const fresh = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${event.id}`,
      headers: { 'if-match': `"${event.version}"` },
      payload: validEventBody(ctx, imageUrl),
    });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers.etag).toBe(`"${event.version + 1}"`);
  });

  it('removes the replaced image file when no other event shows it', async () => {
    const own = await uploadImage(ctx, admin);
    const event = await createEvent({ imageUrl: own });
    expect((await ctx.app.inject({ method: 'GET', url: own })).statusCode).toBe(200);
    const next = await uploadImage(ctx, admin);
    const res = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${event.id}`,
      payload: validEventBody(ctx, next),
    });
    expect(res.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: own })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: next })).statusCode).toBe(200);
  });
});

describe('capacity against held and sold tickets', () => {
  async function setCapacity(id: string, tickets: number, language?: string) {
    return ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${id}`,
      headers: language ? { 'accept-language': language } : {},
      payload: validEventBody(ctx, imageUrl, { tickets }),
    });
  }

  it('offers tickets added to a sold-out event to its waitlist first, in the same statement', async () => {
    const event = await createEvent({ tickets: 2 });
    const buyer = await ctx.createUser();
    await takeTickets(ctx, buyer, event.id, 2, 'paid');
    const waiting = await ctx.createUser();
    const joined = await ctx.request(waiting, {
      method: 'POST',
      url: `/api/events/${event.id}/waitlist`,
      payload: { quantity: 2 },
    });
    expect(joined.statusCode).toBe(201);

    const up = await setCapacity(event.id, 5);
    // Two of the three new tickets are held for the waiting user; one is on sale.
    expect(up.json()).toMatchObject({ capacity: 5, ticketsAvailable: 1 });
    const mine = await ctx.request(waiting, { method: 'GET', url: '/api/me/waitlist' });
    expect(mine.json().items[0]).toMatchObject({ eventId: event.id, status: 'offered', offer: { quantity: 2 } });
  });

  it('moves available tickets by the capacity change, keeping held and sold ones', async () => {
    const event = await createEvent({ tickets: 20 });
    const buyer = await ctx.createUser();
    await takeTickets(ctx, buyer, event.id, 3, 'pending');
    await takeTickets(ctx, buyer, event.id, 4, 'paid');

    const up = await setCapacity(event.id, 30);
    expect(up.json()).toMatchObject({ capacity: 30, ticketsAvailable: 23 });
    const down = await setCapacity(event.id, 10);
    expect(down.json()).toMatchObject({ capacity: 10, ticketsAvailable: 3 });
    const exact = await setCapacity(event.id, 7);
    expect(exact.json()).toMatchObject({ capacity: 7, ticketsAvailable: 0 });
  });

  it('refuses a capacity below what is held and sold, with a clear message', async () => {
    const event = await createEvent({ tickets: 20 });
    const buyer = await ctx.createUser();
    await takeTickets(ctx, buyer, event.id, 5, 'pending');
    await takeTickets(ctx, buyer, event.id, 6, 'paid');
    const res = await setCapacity(event.id, 10);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'CAPACITY_BELOW_TAKEN',
      detail: 'Tickets cannot be fewer than the 11 already held or sold for this event',
      errors: { tickets: 'Tickets cannot be fewer than the 11 already held or sold for this event' },
    });
    // In Arabic, the count's form: '١١ تذكرة' (and '٣ تذاكر' for three).
    expect((await setCapacity(event.id, 10, 'ar')).json()).toMatchObject({
      code: 'CAPACITY_BELOW_TAKEN',
      detail: 'لا يمكن أن يقل عدد التذاكر عن ١١ تذكرة محجوزة أو مُباعة بالفعل لهذه الفعالية',
      taken: 11,
    });
    const read = await ctx.request(admin, { method: 'GET', url: `/api/admin/events/${event.id}` });
    expect(read.json()).toMatchObject({ capacity: 20, ticketsAvailable: 9, version: event.version });
  });

  it('never corrupts availability when admins edit while tickets are taken', async () => {
    const event = await createEvent({ tickets: 50 });
    const buyers = await Promise.all(Array.from({ length: 6 }, () => ctx.createUser()));
    await Promise.all([
      ...buyers.map((b) => takeTickets(ctx, b, event.id, 5, 'paid')),
      setCapacity(event.id, 45),
      setCapacity(event.id, 60),
      setCapacity(event.id, 40),
    ]);
    const [row] = (
      await ctx.database.db.execute(sql`
        SELECT e.capacity, e.tickets_available,
          (SELECT coalesce(sum(quantity), 0)::int FROM bookings b WHERE b.event_id = e.id) AS taken
        FROM events e WHERE e.id = ${event.id}`)
    ).rows as Array<{ capacity: number; tickets_available: number; taken: number }>;
    expect(row?.taken).toBe(30);
    expect(row && row.capacity - row.tickets_available).toBe(30);
  });
});

describe('DELETE /api/admin/events/:id', () => {
  it('soft-deletes: the event leaves the admin list and cannot be read or deleted again', async () => {
    const event = await createEvent({ title: 'Zzz To Delete' });
    const res = await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` });
    expect(res.statusCode).toBe(204);
    const [row] = (
      await ctx.database.db.execute(sql`SELECT is_deleted, deleted_at, version FROM events WHERE id = ${event.id}`)
    ).rows as Array<{ is_deleted: boolean; deleted_at: Date | null; version: number }>;
    expect(row?.is_deleted).toBe(true);
    expect(row?.deleted_at).not.toBeNull();
    expect(row?.version).toBe(event.version + 1);

    const list = (await ctx.request(admin, { method: 'GET', url: '/api/admin/events?q=Zzz' })).json();
    expect(list.total).toBe(0);
    const again = await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` });
    expect(again.statusCode).toBe(404);
    const malformed = await ctx.request(admin, { method: 'DELETE', url: '/api/admin/events/abc' });
    expect(malformed.statusCode).toBe(404);
  });

  it('keeps bookings of a deleted event', async () => {
    const event = await createEvent();
    const buyer = await ctx.createUser();
    await takeTickets(ctx, buyer, event.id, 2, 'paid');
    await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` });
    const { rows } = await ctx.database.db.execute(sql`SELECT status FROM bookings WHERE event_id = ${event.id}`);
    expect(rows).toEqual([{ status: 'paid' }]);
  });

  it('ends the holds of a deleted event at once: their tickets go back, each says why', async () => {
    const event = await createEvent();
    const [paying, holding, other] = [await ctx.createUser(), await ctx.createUser(), await ctx.createUser()];
    await takeTickets(ctx, paying, event.id, 2, 'paid');
    await takeTickets(ctx, holding, event.id, 3, 'pending');
    await takeTickets(ctx, other, event.id, 1, 'pending');
    const deleted = await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${event.id}` });
    expect(deleted.statusCode).toBe(204);
    const { rows } = await ctx.database.db.execute(
      sql`SELECT status, failure_message AS "failureMessage", quantity FROM bookings WHERE event_id = ${event.id}
           ORDER BY quantity`,
    );
    expect(rows).toEqual([
      { status: 'failed', failureMessage: payment.eventGone, quantity: 1 },
      { status: 'paid', failureMessage: null, quantity: 2 },
      { status: 'failed', failureMessage: payment.eventGone, quantity: 3 },
    ]);
    const [left] = (
      await ctx.database.db.execute(sql`SELECT tickets_available, capacity FROM events WHERE id = ${event.id}`)
    ).rows as Array<{ tickets_available: number; capacity: number }>;
    expect(left?.tickets_available).toBe((left?.capacity ?? 0) - 2);
  });
});
