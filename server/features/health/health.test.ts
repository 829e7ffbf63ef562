import { afterAll, describe, expect, it } from 'vitest';
import { createTestEvent } from '../../test/booking-fixtures';
import { setupTestApp } from '../../test/helpers';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

describe('GET /api/health', () => {
  it('answers ok after checking the database', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('carries the security headers of an API answer, and not the policies that only documents use', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    // Nothing loads from a JSON answer opened as a page, and nothing may frame it.
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    for (const documentOnly of ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-xss-protection']) {
      expect(res.headers[documentOnly]).toBeUndefined();
    }
  });

  it('keeps the full document policy on the API documentation pages', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('errors', () => {
  it('answers unknown API paths with a problem+json 404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('answers a known API address asked with another method with 405 and the methods it allows', async () => {
    const put = await ctx.app.inject({ method: 'PUT', url: '/api/events?page=2' });
    expect(put.statusCode).toBe(405);
    expect(put.headers['content-type']).toContain('application/problem+json');
    expect(put.headers.allow).toBe('GET, HEAD');
    expect(put.json()).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });

    // A path with parameters, and one address with several methods.
    const del = await ctx.app.inject({ method: 'DELETE', url: '/api/events/6f1c1c52-3f1e-4d5e-9a7b-2b2f5c4d1e00' });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD');
    const me = await ctx.app.inject({ method: 'DELETE', url: '/api/me' });
    expect(me.statusCode).toBe(405);
    expect(me.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'PATCH']);

    // An address nothing answers stays 404, whatever the method.
    const unknown = await ctx.app.inject({ method: 'POST', url: '/api/does-not-exist' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('answers malformed JSON with a 400 problem', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('refuses state-changing requests from another origin', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CROSS_ORIGIN' });
  });

  it('refuses a path with needlessly encoded letters, which would reach a route past checks on the address', async () => {
    const user = await ctx.createUser({ firstName: 'Mona', lastName: 'Adel' });
    for (const url of ['/%61pi/me', '/ap%69/me', '/api/%6De', '/api%2Fme']) {
      const res = await ctx.request(user, {
        method: 'PATCH',
        url,
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'same-site' },
        payload: { firstName: 'Hacked', lastName: 'Name' },
      });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    const refused = await ctx.app.inject({ method: 'GET', url: '/%61pi/events' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'BAD_URL' });
    const me = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(me.json()).toMatchObject({ firstName: 'Mona', lastName: 'Adel' });
    // Encoded characters that need it (a space, '&', 'É') are as welcome as ever; encoded letters in the query too.
    for (const url of ['/api/events/%20', '/api/events?q=%C3%89', '/api/events?q=%61']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.json().code, url).not.toBe('BAD_URL');
    }
  });
});

describe('GET /api/me', () => {
  it('is null for anonymous visitors, and 401 for a session cookie that is not (or no longer) valid', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/me' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toBeNull();
    const other = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: 'theme=dark' } });
    expect(other.json()).toBeNull();
    const ended = await ctx.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: 'eventry.session_token=not-a-session.c2lnbmF0dXJl' },
    });
    expect(ended.statusCode).toBe(401);
  });

  it("returns the signed-in user's profile with role user", async () => {
    const user = await ctx.createUser({ firstName: 'Mona', lastName: 'Adel' });
    const res = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: user.email, firstName: 'Mona', lastName: 'Adel', role: 'user' });
  });
});

describe('GET /api/ready', () => {
  it('is ready once the database answers and has every migration of this build', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('is not ready on a database that lacks a migration of this build (an older backup restored)', async () => {
    const behind = await setupTestApp();
    try {
      await behind.database.pool.query(
        'DELETE FROM drizzle.__drizzle_migrations WHERE id = (SELECT max(id) FROM drizzle.__drizzle_migrations)',
      );
      const res = await behind.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'MIGRATIONS_PENDING' });
      // Liveness is another question: the process itself is fine.
      expect((await behind.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await behind.close();
    }
  });
});

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it("gives Prometheus metrics to the token's bearer only: latency by route, reservations by outcome, holds, outbox, pools", async () => {
    const token = 'metrics-token-0123456789';
    const withMetrics = await setupTestApp({ config: { metricsToken: token } });
    try {
      const event = await createTestEvent(withMetrics.database.pool, { capacity: 2 });
      const buyer = await withMetrics.createUser();
      const reserve = (quantity: number) =>
        withMetrics.request(buyer, { method: 'POST', url: '/api/bookings', payload: { eventId: event.id, quantity } });
      expect((await reserve(2)).statusCode).toBe(201);
      expect((await reserve(3)).statusCode).toBe(409);
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789', token]) {
        const refused = await withMetrics.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: authorization ? { authorization } : {},
        });
        expect(refused.statusCode).toBe(401);
      }
      const res = await withMetrics.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      const body = res.body;
      expect(body).toMatch(
        /eventry_http_request_duration_seconds_count\{method="POST",route="\/api\/bookings",status="201"\} 1/,
      );
      expect(body).toMatch(/eventry_reservations_total\{outcome="held"\} 1/);
      expect(body).toMatch(/eventry_reservations_total\{outcome="sold_out"\} 1/);
      expect(body).toMatch(/eventry_holds_active 1/);
      expect(body).toMatch(/eventry_mail_outbox_pending \d+/);
      expect(body).toMatch(/eventry_db_pool_connections\{pool="main",state="total"\} \d+/);
      expect(body).toMatch(/eventry_live_clients 0/);
      expect(body).toMatch(/eventry_process_resident_memory_bytes \d+/);
    } finally {
      await withMetrics.close();
    }
  });
});
