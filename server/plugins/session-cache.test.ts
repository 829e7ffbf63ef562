import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sessions, users } from '../db/schema';
import { dropLiveConnection, eventually, setupTestApp, type TestUser } from '../test/helpers';
import { SessionCache } from './session-cache';

interface Entry {
  user: { id: string };
}
const alice: Entry = { user: { id: 'alice' } };
const bob: Entry = { user: { id: 'bob' } };

describe('SessionCache', () => {
  it('answers within its time to live and never past the session’s own expiry', () => {
    const cache = new SessionCache<Entry>(1_000, 10_000, () => 0);
    cache.set('t1', alice, 10_500, cache.generation, 10_000);
    cache.set('t2', null, 99_000, cache.generation, 10_000);
    expect(cache.get('t1', 10_400)).toBe(alice);
    expect(cache.get('t2', 10_999)).toBeNull();
    expect(cache.get('t1', 10_500)).toBeUndefined(); // the session itself ended
    expect(cache.get('t2', 11_000)).toBeUndefined(); // the time to live is over
    expect(cache.get('unknown', 10_000)).toBeUndefined();
  });

  it('spreads the expiry of entries stored at the same moment over the second half of the time to live', () => {
    const draws = [0, 0.5, 0.999];
    const cache = new SessionCache<Entry>(1_000, 10_000, () => draws.shift() ?? 0);
    for (const token of ['a', 'b', 'c']) cache.set(token, alice, Number.MAX_SAFE_INTEGER, cache.generation, 10_000);
    expect(['a', 'b', 'c'].map((token) => cache.get(token, 10_500) !== undefined)).toEqual([true, true, true]);
    expect(['a', 'b', 'c'].map((token) => cache.get(token, 10_600) !== undefined)).toEqual([true, true, false]);
    expect(['a', 'b', 'c'].map((token) => cache.get(token, 10_800) !== undefined)).toEqual([true, false, false]);
    expect(cache.get('a', 11_000)).toBeUndefined();
  });

  it('evicts one user’s sessions, or everything', () => {
    const cache = new SessionCache<Entry>(60_000);
    cache.set('a1', alice, Number.MAX_SAFE_INTEGER, cache.generation);
    cache.set('a2', alice, Number.MAX_SAFE_INTEGER, cache.generation);
    cache.set('b1', bob, Number.MAX_SAFE_INTEGER, cache.generation);
    cache.evictUser('alice');
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('b1')).toBe(bob);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('does not store a read that began before an eviction', () => {
    const cache = new SessionCache<Entry>(60_000);
    const before = cache.generation;
    cache.evictUser('alice'); // e.g. a sign-out committed while the read was running
    cache.set('a1', alice, Number.MAX_SAFE_INTEGER, before);
    expect(cache.get('a1')).toBeUndefined();
    cache.set('a1', alice, Number.MAX_SAFE_INTEGER, cache.generation);
    expect(cache.get('a1')).toBe(alice);
  });

  it('stays within its size', () => {
    const cache = new SessionCache<Entry>(60_000, 3);
    for (const token of ['a', 'b', 'c', 'd']) cache.set(token, alice, Number.MAX_SAFE_INTEGER, cache.generation);
    expect(cache.size).toBeLessThanOrEqual(3);
    expect(cache.get('d')).toBe(alice);
  });
});

// The whole app with the cache on and a time to live far longer than any test: whatever ends a session
// here can only be the eviction (a notification from the database, or this process's own request).
const ctx = await setupTestApp({ config: { nodeEnv: 'development' }, sessionCacheTtlMs: 60_000 });
afterAll(() => ctx.close());
const origin = new URL(ctx.config.appUrl).origin;

/** Number of session lookups a request made. */
async function sessionQueries(user: TestUser, url = '/api/me'): Promise<{ status: number; queries: number }> {
  const query = vi.spyOn(ctx.database.pool, 'query');
  try {
    const res = await ctx.request(user, { method: 'GET', url });
    const queries = query.mock.calls.filter(([text]) => String(text).includes('FROM sessions s JOIN users u')).length;
    return { status: res.statusCode, queries };
  } finally {
    query.mockRestore();
  }
}

async function cached(user: TestUser): Promise<void> {
  await eventually(
    () => sessionQueries(user),
    ({ status, queries }) => status === 200 && queries === 0,
    'a repeat request answered without a session query',
  );
}

describe('sessions resolved from the cache', () => {
  it('answers a signed-in visitor’s repeat requests without asking the database', async () => {
    const user = await ctx.createUser();
    const first = await sessionQueries(user);
    expect(first).toEqual({ status: 200, queries: 1 });
    await cached(user);
  });

  it('ends the session at sign-out at once', async () => {
    const user = await ctx.createUser();
    await cached(user);
    const out = await ctx.request(user, {
      method: 'POST',
      url: '/api/auth/sign-out',
      payload: {},
      headers: { origin },
    });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expect((await ctx.request(user, { method: 'GET', url: '/api/me' })).statusCode).toBe(401);
  });

  it('keeps other visitors’ cached sessions through a sign-up and a sign-in (an on-sale signs people in all the time)', async () => {
    const user = await ctx.createUser();
    await cached(user);
    const email = `newcomer-${Date.now()}@example.com`;
    const signUp = await ctx.request(undefined, {
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email, password: 'Secret123', name: 'New Comer', firstName: 'New', lastName: 'Comer' },
      headers: { origin },
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    expect(await sessionQueries(user)).toEqual({ status: 200, queries: 0 });
    const signIn = await ctx.request(undefined, {
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password: 'Secret123' },
      headers: { origin },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(await sessionQueries(user)).toEqual({ status: 200, queries: 0 });
    // Anything else under /api/auth still empties it before it answers (here a sign-out of the newcomer).
    const newcomer = { cookie: signIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ') };
    const out = await ctx.request(newcomer as TestUser, {
      method: 'POST',
      url: '/api/auth/sign-out',
      payload: {},
      headers: { origin },
    });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expect(await sessionQueries(user)).toEqual({ status: 200, queries: 1 });
  });

  it('ends a session deleted by another process within moments, long before the time to live', async () => {
    const user = await ctx.createUser();
    await cached(user);
    await ctx.database.db.delete(sessions).where(eq(sessions.userId, user.id));
    await eventually(
      async () => (await ctx.request(user, { method: 'GET', url: '/api/me' })).statusCode,
      (status) => status === 401,
      'the deleted session refused',
    );
  });

  it('applies a role given elsewhere (npm run admin -- grant) within moments', async () => {
    const user = await ctx.createUser();
    await cached(user);
    expect((await ctx.request(user, { method: 'GET', url: '/api/admin/events' })).statusCode).toBe(403);
    await ctx.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
    await eventually(
      async () => (await ctx.request(user, { method: 'GET', url: '/api/admin/events' })).statusCode,
      (status) => status === 200,
      'the new admin let in',
    );
  });

  it('is not used while the connection that relays revocations is down', async () => {
    const user = await ctx.createUser();
    await cached(user);
    await dropLiveConnection(ctx);
    // Nothing relays this delete now; the request must see it anyway.
    await ctx.database.db.execute(sql`DELETE FROM sessions WHERE user_id = ${user.id}`);
    expect((await ctx.request(user, { method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    await ctx.app.notifications.whenListening();
  });
});
