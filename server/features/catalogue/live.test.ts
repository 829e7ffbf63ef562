import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEventChange } from '../../../contracts/catalogue';
import { buildApp } from '../../app';
import { type Database, openDatabase } from '../../db/client';
import { events } from '../../db/schema';
import { defaultLiveLimits } from '../../plugins/notifications';
import { setupTestApp } from '../../test/helpers';
import { insertEvent } from './test-events';

interface SseMessage {
  event: string;
  data: string;
}

/** A real EventSource-like client over http.get that records every message it receives. */
function openStream(baseUrl: string, extraHeaders: Record<string, string> = {}) {
  const messages: SseMessage[] = [];
  let headers: http.IncomingHttpHeaders = {};
  let status = 0;
  let raw = '';
  let buffer = '';
  let request: http.ClientRequest | undefined;
  const ended = new Promise<void>((resolve) => {
    request = http.get(
      `${baseUrl}/api/events/live`,
      { headers: { accept: 'text/event-stream', ...extraHeaders } },
      (res) => {
        headers = res.headers;
        status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          raw += chunk;
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const message: SseMessage = { event: 'message', data: '' };
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) message.event = line.slice(7);
              else if (line.startsWith('data: ')) message.data += line.slice(6);
            }
            if (!block.startsWith(':')) messages.push(message);
            end = buffer.indexOf('\n\n');
          }
        });
        res.on('end', () => resolve());
        res.on('close', () => resolve());
      },
    );
    request.on('error', () => resolve());
  });

  async function waitFor(predicate: (m: SseMessage) => boolean, what: string): Promise<SseMessage> {
    for (let i = 0; i < 200; i++) {
      const found = messages.find(predicate);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no SSE message: ${what}; got ${JSON.stringify(messages)}`);
  }

  return {
    messages,
    headers: () => headers,
    status: () => status,
    body: () => raw,
    ended,
    waitFor,
    changesFor: (id: string) =>
      messages
        .filter((m) => m.event === 'change')
        .map((m) => JSON.parse(m.data) as LiveEventChange)
        .filter((c) => c.id === id),
    close: () => request?.destroy(),
  };
}

const ctx = await setupTestApp();
let second: FastifyInstance;
let secondDatabase: Database;
let firstUrl: string;
let secondUrl: string;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  // A second app process on the same database: its own pool, its own LISTEN connection.
  secondDatabase = openDatabase(ctx.database.connection);
  second = await buildApp({ config: ctx.config, database: secondDatabase, logger: false, webDir: null });
  firstUrl = await listen(ctx.app);
  secondUrl = await listen(second);
});

afterAll(async () => {
  await second?.close();
  await secondDatabase?.close();
  await ctx.close();
});

describe('GET /api/events/live', () => {
  it('opens a text/event-stream and says it is ready', async () => {
    const stream = openStream(firstUrl);
    await stream.waitFor((m) => m.event === 'ready', 'ready');
    expect(stream.headers()['content-type']).toContain('text/event-stream');
    expect(stream.headers()['cache-control']).toContain('no-cache');
    expect(ctx.app.notifications.clientCount).toBe(1);
    stream.close();
    await stream.ended;
    for (let i = 0; i < 100 && ctx.app.notifications.clientCount > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(ctx.app.notifications.clientCount).toBe(0);
  });

  it('answers HEAD with the stream headers and no body', async () => {
    const res = await ctx.app.inject({ method: 'HEAD', url: '/api/events/live' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.body).toBe('');
  });

  it('relays a change made through one process to the clients of both processes', async () => {
    const onFirst = openStream(firstUrl);
    const onSecond = openStream(secondUrl);
    await onFirst.waitFor((m) => m.event === 'ready', 'ready on the first process');
    await onSecond.waitFor((m) => m.event === 'ready', 'ready on the second process');

    // Created through the first process's connection pool.
    const created = await insertEvent(ctx.database.db, { title: 'Live one', capacity: 40 });
    const isCreated = (m: SseMessage) => m.event === 'change' && JSON.parse(m.data).id === created.id;
    await onSecond.waitFor(isCreated, 'insert on the second process');
    await onFirst.waitFor(isCreated, 'insert on the first process');
    expect(onSecond.changesFor(created.id)[0]).toEqual({
      op: 'insert',
      id: created.id,
      ticketsAvailable: 40,
      isDeleted: false,
      version: 1,
    });

    // Availability moved through the second process's pool reaches the first process's client.
    await secondDatabase.db.update(events).set({ ticketsAvailable: 37, version: 2 }).where(eq(events.id, created.id));
    await onFirst.waitFor(
      (m) => m.event === 'change' && JSON.parse(m.data).id === created.id && JSON.parse(m.data).version === 2,
      'availability change on the first process',
    );
    expect(onFirst.changesFor(created.id).at(-1)).toEqual({
      op: 'update',
      id: created.id,
      ticketsAvailable: 37,
      isDeleted: false,
      version: 2,
    });

    // A soft delete is announced too.
    await ctx.database.db.update(events).set({ isDeleted: true, version: 3 }).where(eq(events.id, created.id));
    await onSecond.waitFor(
      (m) => m.event === 'change' && JSON.parse(m.data).id === created.id && JSON.parse(m.data).isDeleted === true,
      'soft delete on the second process',
    );

    onFirst.close();
    onSecond.close();
  });

  it('reconnects after losing its LISTEN connection and tells clients to resync', async () => {
    const stream = openStream(secondUrl);
    await stream.waitFor((m) => m.event === 'ready', 'ready');
    await ctx.database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'eventry-live' AND datname = current_database()`,
    );
    await stream.waitFor((m) => m.event === 'resync', 'resync after reconnecting');
    const created = await insertEvent(ctx.database.db, { title: 'After reconnect' });
    await stream.waitFor(
      (m) => m.event === 'change' && JSON.parse(m.data).id === created.id,
      'a change after reconnecting',
    );
    stream.close();
  });

  it('ends open streams when the app closes', async () => {
    const thirdDatabase = openDatabase(ctx.database.connection);
    const third = await buildApp({ config: ctx.config, database: thirdDatabase, logger: false, webDir: null });
    const stream = openStream(await listen(third));
    await stream.waitFor((m) => m.event === 'ready', 'ready');
    await third.close();
    await stream.ended;
    await thirdDatabase.close();
  });
});

describe('limits on live streams', () => {
  it('refuses streams past the per-address and total limits with a 429, and frees a place when a stream ends', async () => {
    const database = openDatabase(ctx.database.connection);
    const limited = await buildApp({
      config: { ...ctx.config, trustProxy: true },
      database,
      logger: false,
      webDir: null,
      liveLimits: { total: 3, perAddress: 2 },
    });
    try {
      const url = await listen(limited);
      const from = (address: string) => openStream(url, { 'x-forwarded-for': address });
      const a1 = from('203.0.113.1');
      const a2 = from('203.0.113.1');
      await a1.waitFor((m) => m.event === 'ready', 'first stream of A');
      await a2.waitFor((m) => m.event === 'ready', 'second stream of A');

      const a3 = from('203.0.113.1');
      await a3.ended;
      expect(a3.status()).toBe(429);
      expect(a3.headers()['retry-after']).toBe('60');
      expect(JSON.parse(a3.body())).toMatchObject({ status: 429, code: 'TOO_MANY_STREAMS' });

      const b1 = from('203.0.113.2');
      await b1.waitFor((m) => m.event === 'ready', 'stream of B');
      const c1 = from('203.0.113.3');
      await c1.ended;
      expect(c1.status()).toBe(429);
      expect(limited.notifications.clientCount).toBe(3);

      // The rest of the API still answers while the streams are full.
      expect((await limited.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

      a1.close();
      await a1.ended;
      for (let i = 0; i < 100 && limited.notifications.clientCount > 2; i++)
        await new Promise((r) => setTimeout(r, 10));
      const a4 = from('203.0.113.1');
      await a4.waitFor((m) => m.event === 'ready', 'A again after one of its streams ended');
      for (const stream of [a2, b1, a4]) stream.close();
    } finally {
      await limited.close();
      await database.close();
    }
  });

  it('gives streams at most half of the process file limit', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eventry-limits-'));
    const file = path.join(dir, 'limits');
    await writeFile(
      file,
      'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 524288               files\n',
    );
    expect(defaultLiveLimits(file)).toEqual({ total: 512, perAddress: 512 });
    expect(defaultLiveLimits(path.join(dir, 'missing'))).toEqual({ total: 10_000, perAddress: 1_000 });
    await rm(dir, { recursive: true, force: true });
  });
});
