import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestUser } from '../helpers';
import {
  ACCESS,
  type Access,
  appRoutes,
  describeResponse,
  expectProblem,
  fillPath,
  inferredAccess,
  insertEvent,
  type Operation,
  OTHER_CONFIGURATION_ROUTES,
  operationsOf,
  type RouteKey,
  randomIp,
  sample,
} from './support';

/**
 * Access-control matrix: every route of the running app (read from its route table, so a new route
 * cannot escape) × {anonymous, user, another user, door staff, admin} → the status class its classification
 * allows. The door staff keep one event's door (`doorEvent`); the sampled requests name other events.
 */

const ctx = await setupTestApp();
afterAll(() => ctx.close());

const routes = appRoutes(ctx.app);
const operations = operationsOf(ctx.app);
const opFor = (route: RouteKey): Operation | undefined =>
  operations.find((o) => o.method === route.method && o.url === route.url);
const accessOf = (route: RouteKey): Access => ACCESS[route.key] ?? inferredAccess(route.url);

type Role = 'anonymous' | 'user' | 'another user' | 'door staff' | 'admin';
const ROLES: Role[] = ['anonymous', 'user', 'another user', 'door staff', 'admin'];
const people: Partial<Record<Role, TestUser>> = {};
let doorEvent: { id: string };

beforeAll(async () => {
  people.user = await ctx.createUser();
  people['another user'] = await ctx.createUser();
  people['door staff'] = await ctx.createUser();
  people.admin = await ctx.createUser({ role: 'admin' });
  doorEvent = await insertEvent(ctx.database);
  const granted = await ctx.request(people.admin, {
    method: 'POST',
    url: `/api/admin/events/${doorEvent.id}/door-staff`,
    payload: { email: people['door staff']?.email },
  });
  expect(granted.statusCode, describeResponse(granted)).toBe(200);
});

/** A request that passes validation as far as the schema tells, so the answer reflects access alone. */
function requestFor(route: RouteKey): InjectOptions {
  const op = opFor(route);
  const params: Record<string, string> = {};
  for (const p of op?.params ?? []) {
    const value = sample(p.schema, p.name);
    if (typeof value === 'string') params[p.name] = value;
  }
  let url = fillPath(route.url, params).replace('*', 'index.html');
  const query = new URLSearchParams();
  for (const q of op?.query ?? []) if (q.required) query.set(q.name, String(sample(q.schema, q.name)));
  if ([...query].length > 0) url += `?${query}`;
  const options: InjectOptions = { method: route.method as InjectOptions['method'], url, remoteAddress: randomIp() };
  if (op?.body) options.payload = sample(op.body) as InjectOptions['payload'];
  else if (['POST', 'PUT', 'PATCH'].includes(route.method) && !op?.bodyContentTypes.length) options.payload = {};
  return options;
}

/** What each role may get back for a route of a given class. */
function expectAccess(access: Access, role: Role, res: { statusCode: number }, info: string): void {
  const status = res.statusCode;
  expect(status, `${info}: never a server error`).toBeLessThan(500);
  const denied = status === 401 || status === 403;
  switch (access) {
    case 'public':
    case 'docs':
    case 'files':
      expect(denied, `${info}: public routes never refuse by role`).toBe(false);
      return;
    case 'user':
    case 'owner':
      if (role === 'anonymous') expect(status, `${info}: sign-in needed`).toBe(401);
      else expect(denied, `${info}: any signed-in user may call it`).toBe(false);
      return;
    case 'admin':
      if (role === 'anonymous') expect(status, `${info}: sign-in needed`).toBe(401);
      else if (role === 'admin') expect(denied, `${info}: admins may call it`).toBe(false);
      else expect(status, `${info}: users are forbidden`).toBe(403);
      return;
    case 'door':
      // The sampled request names an event the door staff do not keep (door-staff checks follow).
      if (role === 'anonymous') expect(status, `${info}: sign-in needed`).toBe(401);
      else if (role === 'admin') expect(denied, `${info}: admins may call it`).toBe(false);
      else expect(status, `${info}: only the event's door staff and admins`).toBe(403);
      return;
    case 'webhook':
      expect(status, `${info}: a webhook without a valid signature is refused`).toBeGreaterThanOrEqual(400);
      return;
    default:
      return;
  }
}

describe('the route table', () => {
  it('has every route classified in the access table', () => {
    const unclassified = routes.filter((r) => !(r.key in ACCESS)).map((r) => r.key);
    expect(unclassified, 'classify these routes in server/test/hard/support.ts ACCESS').toEqual([]);
  });

  it('classifies only routes that exist (a removed route leaves no stale entry behind)', () => {
    const keys = new Set(routes.map((r) => r.key));
    const stale = Object.keys(ACCESS).filter((key) => !keys.has(key) && !OTHER_CONFIGURATION_ROUTES.has(key));
    expect(stale, 'remove these from server/test/hard/support.ts ACCESS').toEqual([]);
  });

  it('classifies every /api/admin route as admin-only', () => {
    const wrong = routes
      .filter((r) => r.url.startsWith('/api/admin') && !['admin', 'admin-stream'].includes(accessOf(r)))
      .map((r) => r.key);
    expect(wrong).toEqual([]);
  });

  it('classifies /api/me and /api/bookings routes as needing a session', () => {
    const wrong = routes
      .filter((r) => /^\/api\/(me|bookings)(\/|$)/.test(r.url) && r.key !== 'GET /api/me')
      .filter((r) => !['user', 'owner'].includes(accessOf(r)))
      .map((r) => r.key);
    expect(wrong).toEqual([]);
  });
});

const matrixRoutes = routes.filter((r) => !['auth', 'stream', 'admin-stream'].includes(accessOf(r)));
afterAll(() => {
  // The README's 'Reliability' figures come from this line.
  process.stdout.write(
    `access-matrix: ${routes.length} routes in the table, ${matrixRoutes.length} × ${ROLES.length} roles = ${matrixRoutes.length * ROLES.length} checks\n`,
  );
});

describe('each route answers each role as classified', () => {
  it.each(matrixRoutes.map((r) => [r.key, r] as const))('%s', async (_key, route) => {
    const access = accessOf(route);
    for (const role of ROLES) {
      const options = requestFor(route);
      const res = await ctx.request(people[role], options);
      const info = `${role} ${route.method} ${options.url} [${access}] → ${describeResponse(res)}`;
      expectAccess(access, role, res, info);
      if (res.statusCode === 401 || res.statusCode === 403) expectProblem(res, info);
    }
  });
});

describe('protected routes refuse anonymous callers whatever the body', () => {
  const protectedRoutes = matrixRoutes.filter((r) => ['user', 'owner', 'admin', 'door'].includes(accessOf(r)));
  it.each(protectedRoutes.map((r) => [r.key, r] as const))('%s', async (_key, route) => {
    for (const payload of [undefined, {}, { role: 'admin' }, 'not json']) {
      const res = await ctx.request(undefined, {
        method: route.method as InjectOptions['method'],
        url: fillPath(route.url).replace('*', 'x'),
        remoteAddress: randomIp(),
        ...(payload !== undefined && route.method !== 'GET' && route.method !== 'DELETE'
          ? { payload, headers: typeof payload === 'string' ? { 'content-type': 'application/json' } : {} }
          : {}),
      });
      const info = `anonymous ${route.key} with ${JSON.stringify(payload)} → ${describeResponse(res)}`;
      expect(res.statusCode, info).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, info).toBeLessThan(500);
      expectProblem(res, info);
    }
  });
});

describe('the door staff', () => {
  const doorRoutes = matrixRoutes.filter((r) => accessOf(r) === 'door');

  it('has door routes to check', () => expect(doorRoutes.length).toBeGreaterThan(0));

  it.each(doorRoutes.map((r) => [r.key, r] as const))(
    '%s admits them at their event and refuses them at another',
    async (_key, route) => {
      const other = await insertEvent(ctx.database);
      for (const [eventId, admitted] of [
        [doorEvent.id, true],
        [other.id, false],
      ] as const) {
        const options = requestFor(route);
        if (route.url.includes(':eventId')) options.url = fillPath(route.url, { eventId });
        else options.payload = { ...(options.payload as Record<string, unknown>), eventId };
        for (const role of ['door staff', 'user'] as const) {
          const res = await ctx.request(people[role], options);
          const info = `${role} ${route.key} at ${admitted ? 'their' : 'another'} event → ${describeResponse(res)}`;
          expect(res.statusCode, info).toBeLessThan(500);
          if (admitted && role === 'door staff') expect([401, 403], info).not.toContain(res.statusCode);
          else expect(res.statusCode, info).toBe(403);
        }
      }
    },
  );
});

describe('another user’s resources', () => {
  const has = (key: string) => routes.some((r) => r.key === key);
  const bookable = has('POST /api/bookings');

  it.runIf(bookable)('answers 404 or 403 to another user for every route that takes a booking id', async () => {
    const owner = people.user as TestUser;
    const stranger = people['another user'] as TestUser;
    const event = await insertEvent(ctx.database);
    const created = await ctx.request(owner, {
      method: 'POST',
      url: '/api/bookings',
      headers: { 'idempotency-key': `matrix-${Date.now()}` },
      payload: { eventId: event.id, quantity: 1 },
    });
    expect(created.statusCode, describeResponse(created)).toBe(201);
    const booking = created.json() as { id: string; status: string };

    let checked = 0;
    for (const route of routes) {
      const op = opFor(route);
      const byPath = /^\/api\/(bookings|payments|me)\/.*:(id|bookingId)\b/.test(route.url);
      const bodyProps = Object.keys(op?.body?.properties ?? {});
      const byBody = bodyProps.includes('bookingId');
      if (!byPath && !byBody) continue;
      const options = requestFor(route);
      if (byPath) options.url = fillPath(route.url, { id: booking.id, bookingId: booking.id });
      if (byBody) options.payload = { ...(options.payload as Record<string, unknown>), bookingId: booking.id };
      const res = await ctx.request(stranger, options);
      const info = `another user ${route.key} with the owner's booking → ${describeResponse(res)}`;
      expect([403, 404], info).toContain(res.statusCode);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);

    if (has('GET /api/bookings/:id')) {
      const mine = await ctx.request(owner, { method: 'GET', url: `/api/bookings/${booking.id}` });
      expect(mine.statusCode, describeResponse(mine)).toBe(200);
      expect((mine.json() as { status: string }).status, 'a stranger’s attempts change nothing').toBe('pending');
    }
  });

  it.runIf(has('GET /api/me/bookings'))('never lists another user’s bookings', async () => {
    const res = await ctx.request(people['another user'], { method: 'GET', url: '/api/me/bookings' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { tickets: Array<{ id: string }>; history: Array<{ id: string }> };
    expect([...body.tickets, ...body.history]).toEqual([]);
  });
});

it('answers the live stream to anonymous visitors without a server error', async () => {
  const stream = routes.find((r) => accessOf(r) === 'stream');
  if (!stream) return;
  const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const abort = new AbortController();
  try {
    const res = await fetch(`${address}${stream.url}`, { signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  } finally {
    abort.abort();
  }
});

it('answers the admins’ live stream to admins only, over a real socket', async () => {
  const stream = routes.find((r) => accessOf(r) === 'admin-stream');
  expect(stream).toBeDefined();
  // The public stream's test may have started listening already.
  const address = ctx.app.server.listening
    ? `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`
    : await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const statusOf = async (role: (typeof ROLES)[number]) => {
    const abort = new AbortController();
    try {
      const cookie = people[role]?.cookie;
      const res = await fetch(`${address}${stream?.url}`, {
        signal: abort.signal,
        headers: cookie ? { cookie } : {},
      });
      return { status: res.status, type: res.headers.get('content-type') ?? '' };
    } finally {
      abort.abort();
    }
  };
  for (const role of ROLES) {
    const { status, type } = await statusOf(role);
    if (role === 'admin') {
      expect(status, role).toBe(200);
      expect(type).toMatch(/^text\/event-stream/);
    } else {
      expect(status, role).toBe(role === 'anonymous' ? 401 : 403);
    }
  }
});
