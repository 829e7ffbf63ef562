import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventDto, EventsPage } from '../../../contracts/catalogue';
import { events } from '../../db/schema';
import { dropLiveConnection, eventually, setupTestApp } from '../../test/helpers';
import { preferredEncoding, ResponseCache } from './response-cache';
import { insertEvent } from './test-events';

describe('ResponseCache', () => {
  const body = (text: string) => async () => text;

  it('keeps an answer and finds it by its key and by an alias', async () => {
    const cache = new ResponseCache();
    const entry = await cache.fill('k', { kind: 'events' }, body('{"a":1}'));
    cache.alias('/api/events?x', entry);
    expect(cache.get('k')?.body).toBe('{"a":1}');
    expect(cache.get('/api/events?x')).toBe(entry);
    expect(entry.etag).toMatch(/^W\/"[\w-]+"$/);
  });

  it('runs one fill at a time per key', async () => {
    const cache = new ResponseCache();
    let calls = 0;
    const produce = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return '[]';
    };
    const all = await Promise.all([1, 2, 3].map(() => cache.fill('k', { kind: 'static' }, produce)));
    expect(calls).toBe(1);
    expect(new Set(all).size).toBe(1);
  });

  it('invalidates the changed event and every list, but not other events', async () => {
    const cache = new ResponseCache();
    const a = randomUUID();
    const b = randomUUID();
    await cache.fill('event:a', { kind: 'event', id: a }, body('"a"'));
    await cache.fill('event:b', { kind: 'event', id: b }, body('"b"'));
    await cache.fill('list', { kind: 'events' }, body('[]'));
    await cache.fill('categories', { kind: 'static' }, body('[]'));
    cache.invalidateEvent(a);
    expect(cache.get('event:a')).toBeUndefined();
    expect(cache.get('list')).toBeUndefined();
    expect(cache.get('event:b')?.body).toBe('"b"');
    expect(cache.get('categories')?.body).toBe('[]');
    cache.clear();
    expect(cache.get('event:b')).toBeUndefined();
    expect(cache.get('categories')).toBeUndefined();
  });

  it('does not keep an answer whose fill overlapped a change, and later callers do not join that fill', async () => {
    const cache = new ResponseCache();
    let release: (text: string) => void = () => {};
    const slow = cache.fill('list', { kind: 'events' }, () => new Promise<string>((r) => (release = r)));
    cache.invalidateEvent(randomUUID());
    const fresh = cache.fill('list', { kind: 'events' }, body('"new"'));
    release('"old"');
    expect((await slow).body).toBe('"old"');
    expect((await fresh).body).toBe('"new"');
    expect(cache.get('list')?.body).toBe('"new"');
  });

  it('stays within its size, dropping the least recently used', async () => {
    const cache = new ResponseCache({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) await cache.fill(key, { kind: 'events' }, body(`"${key}"`));
    cache.get('a');
    await cache.fill('d', { kind: 'events' }, body('"d"'));
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.body).toBe('"a"');
    for (let i = 0; i < 50; i++) await cache.fill(`k${i}`, { kind: 'events' }, body('1'));
    expect(cache.size).toBe(3);
  });

  it('forgets answers after their time to live', async () => {
    const cache = new ResponseCache({ ttlMs: 5 });
    await cache.fill('k', { kind: 'static' }, body('1'));
    await new Promise((r) => setTimeout(r, 20));
    expect(cache.get('k')).toBeUndefined();
  });

  it('reads Accept-Encoding preferring brotli and honouring q=0', () => {
    expect(preferredEncoding(undefined)).toBeUndefined();
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeUndefined();
  });
});

// The whole app with its cache on (NODE_ENV=test turns it off for the other suites, which write to the
// database and read back faster than a notification travels).
const ctx = await setupTestApp({ config: { nodeEnv: 'development' } });
afterAll(() => ctx.close());
const db = ctx.database.db;

beforeEach(async () => {
  await db.delete(events);
  vi.restoreAllMocks();
});

async function getJson<T>(url: string): Promise<T> {
  const res = await ctx.app.inject({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('catalogue answers from the cache', () => {
  it('answers a repeat request without asking the database, with the same bytes and ETag', async () => {
    await insertEvent(db, { title: 'Cached once' });
    const query = vi.spyOn(ctx.database.pool, 'query');
    const first = await ctx.app.inject({ method: 'GET', url: '/api/events?page=1' });
    expect(first.statusCode).toBe(200);
    expect(query).toHaveBeenCalled();
    // Once the insert's own notification has come and gone, a repeat is answered from memory.
    const second = await eventually(
      async () => {
        query.mockClear();
        const res = await ctx.app.inject({ method: 'GET', url: '/api/events?page=1' });
        return { res, queries: query.mock.calls.length };
      },
      ({ queries }) => queries === 0,
      'a repeat request without queries',
    ).then(({ res }) => res);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['cache-control']).toBe('no-cache');
    // The security headers are still sent.
    expect(second.headers['x-content-type-options']).toBe('nosniff');
    // The same list asked for differently shares the answer.
    const same = await ctx.app.inject({ method: 'GET', url: '/api/events?category=all&page=1&q=' });
    expect(same.body).toBe(first.body);
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const row = await insertEvent(db, { title: 'Revalidated' });
    const first = await ctx.app.inject({ method: 'GET', url: `/api/events/${row.id}` });
    const etag = first.headers.etag as string;
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/events/${row.id}`,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
  });

  it('shows a change made straight in the database (another process, a booking) within a second', async () => {
    const row = await insertEvent(db, { title: 'Moving', capacity: 50 });
    expect((await getJson<EventDto>(`/api/events/${row.id}`)).ticketsAvailable).toBe(50);
    expect((await getJson<EventsPage>('/api/events')).items[0]?.ticketsAvailable).toBe(50);
    await db.update(events).set({ ticketsAvailable: 49, version: 2 }).where(eq(events.id, row.id));
    await eventually(
      () => getJson<EventDto>(`/api/events/${row.id}`),
      (e) => e.ticketsAvailable === 49,
      'detail after a booking',
    );
    await eventually(
      () => getJson<EventsPage>('/api/events'),
      (p) => p.items[0]?.ticketsAvailable === 49,
      'list after a booking',
    );

    // A new event appears in lists and searches; a deleted one disappears and its page is a 404.
    await getJson('/api/events/search?q=new');
    const added = await insertEvent(db, { title: 'New arrival' });
    await eventually(
      () => getJson<{ items: Array<{ id: string }> }>('/api/events/search?q=new'),
      (s) => s.items.some((i) => i.id === added.id),
      'search after an insert',
    );
    await db.update(events).set({ isDeleted: true, version: 3 }).where(eq(events.id, row.id));
    await eventually(
      async () => (await ctx.app.inject({ method: 'GET', url: `/api/events/${row.id}` })).statusCode,
      (status) => status === 404,
      'detail after a delete',
    );
    await eventually(
      () => getJson<EventsPage>('/api/events'),
      (p) => p.items.every((e) => e.id !== row.id) && p.total === 1,
      'list after a delete',
    );
  });

  it('does not trust the cache while the live connection is down, and starts afresh after it reconnects', async () => {
    const row = await insertEvent(db, { title: 'Outage', capacity: 30 });
    await eventually(
      () => getJson<EventDto>(`/api/events/${row.id}`),
      (e) => e.ticketsAvailable === 30,
      'first read',
    );
    await dropLiveConnection(ctx);
    // No notification can arrive now: the change must still show.
    await db.update(events).set({ ticketsAvailable: 29, version: 2 }).where(eq(events.id, row.id));
    expect((await getJson<EventDto>(`/api/events/${row.id}`)).ticketsAvailable).toBe(29);
    await eventually(
      async () => ctx.app.notifications.listening,
      (up) => up,
      'the live connection is back',
    );
    await db.update(events).set({ ticketsAvailable: 28, version: 3 }).where(eq(events.id, row.id));
    await eventually(
      () => getJson<EventDto>(`/api/events/${row.id}`),
      (e) => e.ticketsAvailable === 28,
      'a change after reconnecting',
    );
  });

  it('sends stored brotli and gzip variants that decode to the same JSON', async () => {
    for (let i = 0; i < 6; i++) await insertEvent(db, { title: `Compressed ${i}` });
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/events' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const responses = [];
      for (let i = 0; i < 3; i++) {
        responses.push(
          await ctx.app.inject({ method: 'GET', url: '/api/events', headers: { 'accept-encoding': encoding } }),
        );
        await new Promise((r) => setTimeout(r, 20));
      }
      for (const res of responses) {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toContain('accept-encoding');
        expect(decode(res.rawPayload).toString()).toBe(plain.body);
      }
    }
  });

  it('still answers a 404 problem for unknown events and 400-free defaults for odd queries', async () => {
    const missing = await ctx.app.inject({ method: 'GET', url: `/api/events/${randomUUID()}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    const odd = await getJson<EventsPage>('/api/events?page=abc&category=nope');
    expect(odd).toEqual({ items: [], page: 1, pageCount: 0, total: 0 });
  });
});
