import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import { emailOutbox, sessions } from '../../db/schema';
import { mailBodies } from '../../plugins/mailer';
import { createTestDatabase, setupTestApp, testConfig } from '../helpers';
import { appRoutes, describeResponse, expectProblem, fillPath, randomIp, STATE_CHANGING } from './support';

/**
 * Sessions and abuse: cookie flags, a fresh session at each sign-in, sign-out and password changes that
 * really end sessions, the same-origin check on every state-changing route, rate limits and security headers.
 */

const ctx = await setupTestApp();
afterAll(() => ctx.close());
const APP_ORIGIN = new URL(ctx.config.appUrl).origin;

function post(url: string, payload: unknown, options: Partial<InjectOptions> = {}): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload: payload as InjectOptions['payload'],
    remoteAddress: randomIp(),
    ...options,
  });
}

function sessionCookie(res: LightMyRequestResponse): { header: string; value: string; raw: string } {
  const raw = [res.headers['set-cookie'] ?? []]
    .flat()
    .find((c) => /session_token=/.test(String(c)) && !/=;/.test(String(c)));
  if (!raw) throw new Error(`no session cookie in ${describeResponse(res)}`);
  const header = String(raw).split(';')[0] as string;
  return { header, value: header.split('=')[1] ?? '', raw: String(raw) };
}

async function signUp(email = `s-${randomUUID().slice(0, 8)}@example.com`, password = 'Secret123') {
  const res = await post('/api/auth/sign-up/email', { firstName: 'Sam', lastName: 'Session', email, password });
  expect(res.statusCode, describeResponse(res)).toBeLessThan(300);
  return { email, password, cookie: sessionCookie(res) };
}

async function signIn(email: string, password: string, headers: Record<string, string> = {}) {
  const res = await post('/api/auth/sign-in/email', { email, password }, { headers });
  expect(res.statusCode, describeResponse(res)).toBe(200);
  return sessionCookie(res);
}

async function me(cookie: string): Promise<number> {
  return (await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode;
}

describe('session cookies', () => {
  it('are httpOnly, SameSite=Lax and scoped to the whole site', async () => {
    const { cookie } = await signUp();
    expect(cookie.raw).toMatch(/;\s*HttpOnly/i);
    expect(cookie.raw).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie.raw).toMatch(/;\s*Path=\//i);
  });

  it('are Secure and __Secure- prefixed when the app is served over https', async () => {
    const secure = await setupTestApp({ config: { appUrl: 'https://tickets.example.com' } });
    try {
      const email = `s-${randomUUID().slice(0, 8)}@example.com`;
      const res = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        remoteAddress: randomIp(),
        payload: { firstName: 'Sam', lastName: 'Secure', email, password: 'Secret123' },
      });
      const { raw } = sessionCookie(res);
      expect(raw).toMatch(/^__Secure-/);
      expect(raw).toMatch(/;\s*Secure/i);
      expect(raw).toMatch(/;\s*HttpOnly/i);
      expect(String(res.headers['strict-transport-security'] ?? '')).toMatch(/max-age=\d+/);
    } finally {
      await secure.close();
    }
  });
});

describe('session lifecycle', () => {
  it('issues a new session token at every sign-in, even when one is presented', async () => {
    const { email, password, cookie: first } = await signUp();
    const second = await signIn(email, password, { cookie: first.header });
    const third = await signIn(email, password);
    expect(new Set([first.value, second.value, third.value]).size).toBe(3);
  });

  it('ends the session at sign-out: the old cookie no longer works', async () => {
    const { email, password } = await signUp();
    const session = await signIn(email, password);
    expect(await me(session.header)).toBe(200);
    const out = await post('/api/auth/sign-out', {}, { headers: { cookie: session.header, origin: APP_ORIGIN } });
    expect(out.statusCode, describeResponse(out)).toBeLessThan(300);
    expect(await me(session.header)).toBe(401);
    const token = decodeURIComponent(session.value).split('.')[0] as string;
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.token, token))).toEqual([]);
  });

  it('ends the other sessions when the password changes, and the old password stops working', async () => {
    const { email, password } = await signUp();
    const here = await signIn(email, password);
    const elsewhere = await signIn(email, password);
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: { cookie: here.header },
      payload: { firstName: 'Sam', lastName: 'Session', newPassword: 'Changed456' },
    });
    expect(res.statusCode, describeResponse(res)).toBe(200);
    expect(await me(elsewhere.header)).toBe(401);
    expect(await me(here.header)).toBe(200);
    const old = await post('/api/auth/sign-in/email', { email, password });
    expect(old.statusCode).toBe(401);
    await signIn(email, 'Changed456');
  });

  it('ends every session after a password reset, and the reset link works once', async () => {
    const { email, password } = await signUp();
    const session = await signIn(email, password);
    const asked = await post('/api/auth/request-password-reset', { email });
    expect(asked.statusCode, describeResponse(asked)).toBeLessThan(300);
    const mails = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
    const link = mails
      .map((m) => /https?:\/\/\S*reset-password\S*/.exec(mailBodies(m).text)?.[0])
      .find((l): l is string => l !== undefined);
    expect(link, 'a reset email with a link').toBeDefined();
    const url = new URL(link as string);
    const token = url.searchParams.get('token') ?? url.pathname.split('/').pop() ?? '';
    const reset = await post('/api/auth/reset-password', { newPassword: 'Reset789', token });
    expect(reset.statusCode, describeResponse(reset)).toBe(200);
    expect(await me(session.header)).toBe(401);
    const again = await post('/api/auth/reset-password', { newPassword: 'Other789', token });
    expectProblem(again, 'the same reset token a second time');
    await signIn(email, 'Reset789');
  });

  it('refuses a forged or tampered session cookie', async () => {
    const { cookie } = await signUp();
    const [name, value] = cookie.header.split('=') as [string, string];
    const decoded = decodeURIComponent(value);
    const dot = decoded.lastIndexOf('.');
    const flip = (c: string | undefined) => (c === 'A' ? 'B' : 'A');
    // One changed character of the signature, one of the token, and a signature spelled with different padding bits.
    const signatureTampered = `${decoded.slice(0, dot + 1)}${flip(decoded[dot + 1])}${decoded.slice(dot + 2)}`;
    const tokenTampered = `${flip(decoded[0])}${decoded.slice(1)}`;
    // A 32-byte HMAC in base64 ends in a character whose two low bits are padding (A, E, I, … 8): the next
    // character of the alphabet decodes to the same bytes.
    const beforePadding = decoded.length - 2;
    const paddingBits = `${decoded.slice(0, beforePadding)}${String.fromCharCode(decoded.charCodeAt(beforePadding) + 1)}=`;
    for (const tampered of [signatureTampered, tokenTampered, paddingBits]) {
      expect(tampered).not.toBe(decoded);
    }
    // The genuine cookie first: verified cookies are remembered, and that must not let a lookalike through.
    expect(await me(cookie.header)).toBe(200);
    for (const forged of [
      ...[signatureTampered, tokenTampered, paddingBits].map((t) => `${name}=${encodeURIComponent(t)}`),
      `${name}=${randomUUID()}`,
      `${name}=`,
    ]) {
      expect(await me(forged), forged).toBe(401);
    }
  });
});

describe('cross-site requests', () => {
  const routes = appRoutes(ctx.app).filter((r) => STATE_CHANGING.has(r.method));
  const EXEMPT = new Set(['POST /api/payments/stripe/webhook', 'POST /api/payments/paymob/callback']);
  let admin: { cookie: string };
  beforeAll(async () => {
    admin = await ctx.createUser({ role: 'admin' });
  });

  it.each(routes.map((r) => [r.key, r] as const))('%s refuses a cross-site browser request', async (key, route) => {
    const url = fillPath(route.url).replace('*', 'sign-in/email');
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:3000.evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    ]) {
      const res = await ctx.app.inject({
        method: route.method as InjectOptions['method'],
        url,
        remoteAddress: randomIp(),
        headers: { ...headers, cookie: admin.cookie },
        payload: {},
      });
      const info = `${key} with ${JSON.stringify(headers)} → ${describeResponse(res)}`;
      if (EXEMPT.has(key)) {
        expect(res.statusCode, info).not.toBe(403);
        continue;
      }
      expect(res.statusCode, info).toBe(403);
      expectProblem(res, info);
      expect(res.json().code, info).toBe('CROSS_ORIGIN');
    }
    // The same address with a letter percent-encoded reaches the same route: it is refused before it does.
    const encoded = url.replace('/api/', '/%61pi/');
    const res = await ctx.app.inject({
      method: route.method as InjectOptions['method'],
      url: encoded,
      remoteAddress: randomIp(),
      headers: { origin: 'https://evil.example', cookie: admin.cookie },
      payload: {},
    });
    expect(res.statusCode, `${encoded} → ${describeResponse(res)}`).toBe(400);
    expect(res.json().code).toBe('BAD_URL');
  });

  it('lets same-origin browser requests through the origin check', async () => {
    const res = await post(
      '/api/auth/sign-in/email',
      { email: 'nobody@example.com', password: 'Secret123' },
      { headers: { origin: APP_ORIGIN, 'sec-fetch-site': 'same-origin' } },
    );
    expect(res.statusCode).not.toBe(403);
  });

  it('never grants cross-origin reads with credentials (no permissive CORS)', async () => {
    const user = await ctx.createUser();
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { origin: 'https://evil.example', cookie: user.cookie },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/me',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PATCH' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('rate limits', () => {
  async function until429(send: (i: number) => Promise<LightMyRequestResponse>, max: number) {
    for (let i = 0; i < max; i++) {
      const res = await send(i);
      expect(res.statusCode, describeResponse(res)).toBeLessThan(500);
      if (res.statusCode === 429) return res;
    }
    throw new Error(`no 429 after ${max} requests`);
  }

  it('limits sign-in attempts from one address', async () => {
    const ip = randomIp();
    const res = await until429(
      () =>
        post('/api/auth/sign-in/email', { email: 'victim@example.com', password: 'Wrong123' }, { remoteAddress: ip }),
      30,
    );
    expectProblem(res, 'sign-in flood');
  });

  it('limits sign-in attempts against one account from many addresses', async () => {
    const { email } = await signUp();
    // Every attempt from a new address: only the per-email ceiling (50 in 15 minutes) stops them.
    const res = await until429(() => post('/api/auth/sign-in/email', { email, password: 'Wrong123' }), 60);
    expectProblem(res, 'distributed sign-in flood');
    // Fifty-one password checks (scrypt, on purpose slow) take over 30 s on a loaded 2-core machine.
  }, 120_000);

  it('limits sign-ups from one address', async () => {
    const ip = randomIp();
    const res = await until429(
      () =>
        post(
          '/api/auth/sign-up/email',
          {
            firstName: 'Flood',
            lastName: 'Flood',
            email: `f-${randomUUID().slice(0, 8)}@example.com`,
            password: 'Secret123',
          },
          { remoteAddress: ip },
        ),
      30,
    );
    expectProblem(res, 'sign-up flood');
  });

  it('limits password-reset requests', async () => {
    const ip = randomIp();
    const res = await until429(
      (i) => post('/api/auth/request-password-reset', { email: `r${i}@example.com` }, { remoteAddress: ip }),
      30,
    );
    expectProblem(res, 'reset flood');
  });

  it('limits contact messages', async () => {
    if (!appRoutes(ctx.app).some((r) => r.key === 'POST /api/contact')) return;
    const ip = randomIp();
    const res = await until429(
      (i) =>
        post(
          '/api/contact',
          {
            name: 'Flood Person',
            email: 'flood@example.com',
            subject: `Flood ${i}`,
            description: 'A message that is long enough to be valid.',
          },
          { remoteAddress: ip },
        ),
      30,
    );
    expectProblem(res, 'contact flood');
  });
});

describe('security headers', () => {
  let app: FastifyInstance;
  let webDir: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    webDir = await mkdtemp(path.join(tmpdir(), 'eventry-web-'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    const created = await createTestDatabase();
    drop = created.drop;
    app = await buildApp({ config: testConfig(webDir), database: created.database, logger: false, webDir });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await drop();
    await rm(webDir, { recursive: true, force: true });
  });

  function expectSafeHeaders(res: LightMyRequestResponse, info: string): void {
    const csp = String(res.headers['content-security-policy'] ?? '');
    const message = `${info}: ${csp}`;
    expect(csp, message).not.toBe('');
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    const scripts = directives['script-src'] ?? directives['default-src'] ?? '';
    expect(scripts, message).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*/);
    expect(directives['frame-ancestors'], message).toBe("'none'");
    expect(res.headers['x-content-type-options'], info).toBe('nosniff');
    expect(res.headers['referrer-policy'], info).toBeTruthy();
  }

  it.each([
    ['the home page', '/'],
    ['a deep link', '/event-details/123'],
    ['an unknown page', '/no/such/page'],
    ['the API docs', '/api/docs'],
    ['the API docs page', '/api/docs/static/index.html'],
    ['the API', '/api/health'],
    ['an unknown API path', '/api/nope'],
    ['a protected API path', '/api/me'],
    ['an upload that does not exist', '/uploads/eventImg/x.webp'],
    ['a malformed address', '/api/events/%E0%A4%A'],
  ])('are sent on %s', async (label, url) => {
    const res = await app.inject({ method: 'GET', url });
    expectSafeHeaders(res, `${label} ${url} → ${res.statusCode}`);
  });

  it('are sent on validation errors, oversized bodies and cross-site refusals', async () => {
    const cases: InjectOptions[] = [
      {
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: '{bad',
        headers: { 'content-type': 'application/json' },
      },
      { method: 'POST', url: '/api/contact', payload: { a: 'x'.repeat(1_100_000) } },
      { method: 'POST', url: '/api/contact', payload: {}, headers: { origin: 'https://evil.example' } },
    ];
    for (const options of cases) {
      const res = await app.inject({ ...options, remoteAddress: randomIp() });
      expectSafeHeaders(res, `${options.method} ${options.url} → ${res.statusCode}`);
    }
  });
});

describe('a database outage', () => {
  it('is a 503 for signed-in requests, not a 401 that would sign the user out', async () => {
    const signedIn = await ctx.createUser();
    const webDir = await mkdtemp(path.join(tmpdir(), 'eventry-outage-'));
    // A database nobody listens on: every query fails to connect, as during a PostgreSQL restart.
    const database = openDatabase({ host: path.join(webDir, 'no-such-socket'), port: 5432, user: 'x', database: 'x' });
    const app = await buildApp({ config: testConfig(webDir), database, logger: false, webDir: null });
    try {
      await app.ready();
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      const list = await app.inject({ method: 'GET', url: '/api/events' });
      expect(list.statusCode, describeResponse(list)).toBe(503);
      const res = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: signedIn.cookie } });
      expect(res.statusCode, describeResponse(res)).toBe(503);
    } finally {
      await app.close();
      await database.close();
      await rm(webDir, { recursive: true, force: true });
    }
  });
});
