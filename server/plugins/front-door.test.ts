import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventDto } from '../../contracts/catalogue';
import { events } from '../db/schema';
import { insertEvent } from '../features/catalogue/test-events';
import { eventually, setupTestApp } from '../test/helpers';
import { type FrontAnswer, FrontDoor } from './front-door';

/** Headers a client compares: everything but the ones the connection and the clock decide. */
function comparable(headers: Headers | Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) out[name] = String(value);
  }
  return out;
}

/** A GET with exactly these headers (fetch would add Accept-Encoding and decode the answer). */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe('FrontDoor on a bare HTTP server', () => {
  const answer: FrontAnswer = {
    status: 200,
    headers: { etag: 'W/"x"', 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from('{"ready":true}'),
    route: '/ready',
  };

  async function serve(door: FrontDoor) {
    const reachedFallback: string[] = [];
    const server = door.serverFactory()(
      (request, response) => {
        reachedFallback.push(`${request.method} ${request.url}`);
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('fallback');
      },
      { keepAliveTimeout: 5_000, requestTimeout: 10_000, connectionTimeout: 0, maxRequestsPerSocket: 0 },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, reachedFallback, server, stop: () => new Promise((r) => server.close(r)) };
  }

  it('writes a ready GET answer with the security headers and its length, and lets everything else through', async () => {
    const door = new FrontDoor({ enabled: true });
    door.setSecurityHeaders({ 'x-content-type-options': 'nosniff' });
    const observed: Array<[string, number]> = [];
    door.onAnswered((route, status) => observed.push([route, status]));
    door.serve((url) => (url === '/ready' ? answer : undefined));
    const { base, reachedFallback, server, stop } = await serve(door);
    try {
      // What Fastify would have set on the server it makes itself.
      expect(server.keepAliveTimeout).toBe(5_000);
      expect(server.requestTimeout).toBe(10_000);
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${base}/ready`);
        expect(res.status).toBe(200);
        expect(comparable(res.headers)).toEqual({
          'x-content-type-options': 'nosniff',
          etag: 'W/"x"',
          'content-type': 'application/json; charset=utf-8',
          'content-length': String('{"ready":true}'.length),
        });
        expect(await res.text()).toBe('{"ready":true}');
      }
      expect(observed).toEqual([
        ['/ready', 200],
        ['/ready', 200],
      ]);
      expect(await (await fetch(`${base}/other`)).text()).toBe('fallback');
      expect(await (await fetch(`${base}/ready`, { method: 'POST', body: '{}' })).text()).toBe('fallback');
      expect((await fetch(`${base}/ready`, { method: 'HEAD' })).headers.get('content-type')).toBe('text/plain');
      door.close();
      expect(await (await fetch(`${base}/ready`)).text()).toBe('fallback');
      expect(reachedFallback).toEqual(['GET /other', 'POST /ready', 'HEAD /ready', 'GET /ready']);
    } finally {
      await stop();
    }
  });

  it('stands aside entirely when it is not enabled (every request logged)', async () => {
    const door = new FrontDoor({ enabled: false });
    door.serve(() => answer);
    const { base, reachedFallback, stop } = await serve(door);
    try {
      expect(await (await fetch(`${base}/ready`)).text()).toBe('fallback');
      expect(reachedFallback).toEqual(['GET /ready']);
    } finally {
      await stop();
    }
  });
});

// The whole app over HTTP with its response cache on (NODE_ENV=test turns it off) and metrics to count the door's
// answers.
const token = 'front-door-metrics-0123456789';
const ctx = await setupTestApp({ config: { nodeEnv: 'development', metricsToken: token } });
const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
afterAll(() => ctx.close());
const db = ctx.database.db;

beforeEach(async () => {
  await db.delete(events);
});

/** How many answers the front door has written for `route`, from GET /metrics. */
async function doorAnswers(route: string, status = 200): Promise<number> {
  const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
  const line = res.body
    .split('\n')
    .find((l) => l.startsWith(`eventry_http_front_door_answers_total{route="${route}",status="${status}"}`));
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

describe('the catalogue through the front door', () => {
  it('answers a repeat over HTTP before Fastify with the bytes and headers Fastify sends', async () => {
    for (let i = 0; i < 7; i++) await insertEvent(db, { title: `Door ${i}` });
    const row = await insertEvent(db, { title: 'Door detail' });
    for (const [url, route] of [
      ['/api/events?page=1', '/api/events'],
      ['/api/events?category=music', '/api/events'],
      ['/api/events/search?q=door', '/api/events/search'],
      [`/api/events/${row.id}`, '/api/events/:id'],
      ['/api/categories', '/api/categories'],
    ] as const) {
      const before = await doorAnswers(route);
      // Once the inserts' notifications have come and gone, the answer is kept and a repeat meets the door.
      const viaDoor = await eventually(
        async () => ({ res: await rawGet(`${address}${url}`), answered: (await doorAnswers(route)) > before }),
        ({ answered }) => answered,
        `${url} answered by the front door`,
      ).then(({ res }) => res);
      // Fastify's own answer from the same cache entry (inject never passes the HTTP server's door).
      const viaFastify = await ctx.app.inject({ method: 'GET', url });
      expect(viaDoor.status).toBe(200);
      expect(viaDoor.body.toString()).toBe(viaFastify.body);
      expect(comparable(viaDoor.headers)).toEqual(comparable(viaFastify.headers));
      expect(viaDoor.headers['x-content-type-options']).toBe('nosniff');
      expect(viaDoor.headers.etag).toMatch(/^W\/"/);
    }
  });

  it('answers If-None-Match with 304 and stored brotli and gzip that decode to the same JSON', async () => {
    for (let i = 0; i < 7; i++) await insertEvent(db, { title: `Coded ${i}` });
    const url = `${address}/api/events`;
    const plain = await eventually(
      async () => {
        const before = await doorAnswers('/api/events');
        return { res: await rawGet(url), answered: (await doorAnswers('/api/events')) > before };
      },
      ({ answered }) => answered,
      'the list answered by the front door',
    ).then(({ res }) => res);
    expect(plain.headers.vary).toBe('accept-encoding');
    const etag = String(plain.headers.etag);
    const notModified = await rawGet(url, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers['content-length']).toBeUndefined();
    expect(await doorAnswers('/api/events', 304)).toBe(1);

    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      // The first asks Fastify to compress on the fly and starts storing the variant; later ones meet the door.
      const stored = await eventually(
        async () => {
          const before = await doorAnswers('/api/events');
          const res = await rawGet(url, { 'accept-encoding': `${encoding}, identity` });
          return { res, door: (await doorAnswers('/api/events')) > before };
        },
        ({ door }) => door,
        `${encoding} from the front door`,
      ).then(({ res }) => res);
      expect(stored.headers['content-encoding']).toBe(encoding);
      expect(Number(stored.headers['content-length'])).toBe(stored.body.length);
      expect(decode(stored.body).toString()).toBe(plain.body.toString());
    }
  });

  it('never answers from an entry a change has made stale', async () => {
    const row = await insertEvent(db, { title: 'Changing', capacity: 40 });
    const read = async () => (await (await fetch(`${address}/api/events/${row.id}`)).json()) as EventDto;
    const before = await doorAnswers('/api/events/:id');
    await eventually(
      async () => ({ event: await read(), door: (await doorAnswers('/api/events/:id')) > before }),
      ({ door }) => door,
      'the detail answered by the front door',
    );
    await db.update(events).set({ ticketsAvailable: 39, version: 2 }).where(eq(events.id, row.id));
    await eventually(read, (event) => event.ticketsAvailable === 39, 'the change over HTTP');
    // From then on, every answer shows it: the door and Fastify alike.
    for (let i = 0; i < 5; i++) expect((await read()).ticketsAvailable).toBe(39);
  });

  it('leaves HEAD, unknown addresses and bad paths to Fastify', async () => {
    const row = await insertEvent(db, { title: 'Headed' });
    await fetch(`${address}/api/events/${row.id}`);
    const head = await fetch(`${address}/api/events/${row.id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const encoded = await fetch(`${address}/%61pi/events/${row.id}`);
    expect(encoded.status).toBe(400);
    expect((await fetch(`${address}/api/events/not-a-uuid`)).status).toBe(404);
  });
});
