import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestUser } from '../helpers';
import {
  ACCESS,
  type Access,
  databaseFingerprint,
  expectNoServerError,
  expectProblem,
  fillPath,
  flatten,
  inferredAccess,
  insertEvent,
  type JsonSchema,
  type Operation,
  operationsOf,
  randomIp,
  STATE_CHANGING,
  sample,
  typesOf,
} from './support';

/**
 * Hostile input, driven by the OpenAPI document: every JSON endpoint gets wrong types, missing and extra
 * fields, huge strings and numbers, unicode and null bytes, prototype keys, malformed JSON, wrong content
 * types and oversized bodies. Invalid input must give a 4xx problem and leave the database as it was;
 * nothing may ever give a 5xx.
 */

const RUNS = 50;

const ctx = await setupTestApp();
afterAll(() => ctx.close());

const accessOf = (op: Operation): Access => ACCESS[`${op.method} ${op.url}`] ?? inferredAccess(op.url);
const operations = operationsOf(ctx.app).filter((op) => {
  const access = accessOf(op);
  return !['docs', 'stream', 'files', 'auth'].includes(access);
});

let user: TestUser;
let admin: TestUser;
let eventId: string;
const figures = { cases: 0, rejected: 0 };

beforeAll(async () => {
  user = await ctx.createUser();
  admin = await ctx.createUser({ role: 'admin' });
  eventId = (await insertEvent(ctx.database)).id;
});

function callerFor(op: Operation): TestUser | undefined {
  const access = accessOf(op);
  if (access === 'admin') return admin;
  if (access === 'user' || access === 'owner') return user;
  return undefined;
}

/** A sample body with real ids where the schema names them, so hostile changes reach deep code. */
function baseBody(op: Operation): Record<string, unknown> {
  const body = (sample(op.body) ?? {}) as Record<string, unknown>;
  if ('eventId' in body) body.eventId = eventId;
  if ('categoryId' in body) body.categoryId = 'music';
  return body;
}

const HUGE = 'x'.repeat(1024 * 1024 + 16);

/** Values that break most schemas, and a few that stress whatever accepts them. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    1e308,
    -1e308,
    2 ** 53 + 2,
    -(2 ** 31) - 1,
    2 ** 31,
    1.5,
    -1,
    0,
    -0,
    'NaN',
    'Infinity',
    '1e308',
    '-0',
    null,
    true,
    false,
    [],
    {},
    [1, 2, 3],
    { $gt: '' },
    'toString',
    'constructor',
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u0007\u001b[31m',
    '\ud800',
    '𝕳𝖔𝖘𝖙𝖎𝖑𝖊 🎟️',
    'مرحبا',
    'Z\u0351\u0352\u0353',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '%00../../etc/passwd',
    '2030-02-30',
    '25:61',
    'x'.repeat(10_000),
    HUGE,
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.object({ maxDepth: 2 }),
);

const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', 'role', 'isAdmin', 'status', 'userId', 'id', 'price'];

type Mutation =
  | { kind: 'set'; field: string; value: unknown }
  | { kind: 'delete'; field: string }
  | { kind: 'replace'; value: unknown };

function mutationFor(op: Operation): fc.Arbitrary<Mutation> {
  const fields = Object.keys(flatten(op.body ?? {}).properties ?? {});
  const anyField = fc.constantFrom(...fields, ...EXTRA_KEYS);
  const options: fc.Arbitrary<Mutation>[] = [
    fc.record({ kind: fc.constant('set' as const), field: anyField, value: hostileValue }),
    fc.record({
      kind: fc.constant('replace' as const),
      value: fc.constantFrom<unknown>(null, [], 'text', 42, true, [{}]),
    }),
  ];
  if (fields.length > 0)
    options.push(fc.record({ kind: fc.constant('delete' as const), field: fc.constantFrom(...fields) }));
  return fc.oneof(...options);
}

/** A JSON Schema pattern as JavaScript reads it: with Unicode semantics (`\\p{L}`), as zod's regexes have. */
function patternOf(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

/** Would a strict reading of the JSON schema refuse this value? (Refinements may refuse more.) */
function violates(schema: JsonSchema | undefined, value: unknown): boolean {
  if (!schema) return false;
  const types = typesOf(schema);
  const s = flatten(schema);
  if (value === null) return types.length > 0 && !types.includes('null');
  if (s.enum && !s.enum.includes(value)) return true;
  const t = Array.isArray(value) ? 'array' : typeof value;
  if (types.length > 0) {
    const ok = types.some(
      (type) =>
        type === t ||
        (type === 'integer' && typeof value === 'number' && Number.isInteger(value)) ||
        (type === 'number' && typeof value === 'number'),
    );
    if (!ok) return true;
  }
  if (typeof value === 'number') {
    if (types.includes('integer') && !types.includes('number') && !Number.isSafeInteger(value)) return true;
    if (s.maximum !== undefined && value > s.maximum) return true;
    if (s.minimum !== undefined && value < s.minimum) return true;
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) return true;
  }
  if (typeof value === 'string') {
    if (s.maxLength !== undefined && value.length > s.maxLength) return true;
    if (s.minLength !== undefined && value.length < s.minLength) return true;
    if (s.pattern && !patternOf(s.pattern).test(value)) return true;
    if (s.format === 'uuid' && !/^[0-9a-f-]{36}$/i.test(value)) return true;
    if (s.format === 'email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) return true;
  }
  return false;
}

function apply(op: Operation, mutation: Mutation): { payload: string; mustReject: boolean } {
  const schema = flatten(op.body ?? {});
  if (mutation.kind === 'replace') return { payload: JSON.stringify(mutation.value), mustReject: true };
  const body = baseBody(op);
  if (mutation.kind === 'delete') {
    delete body[mutation.field];
    return { payload: JSON.stringify(body), mustReject: (schema.required ?? []).includes(mutation.field) };
  }
  // defineProperty makes '__proto__' an own key that JSON.stringify writes out, as an attacker would.
  Object.defineProperty(body, mutation.field, { value: mutation.value, enumerable: true, configurable: true });
  const payload = JSON.stringify(body);
  const known = schema.properties?.[mutation.field];
  const mustReject = payload.length > 1024 * 1024 || (known !== undefined && violates(known, mutation.value));
  return { payload, mustReject };
}

async function send(op: Operation, options: Partial<InjectOptions>): Promise<LightMyRequestResponse> {
  return ctx.request(callerFor(op), {
    method: op.method as InjectOptions['method'],
    url: fillPath(op.url, { id: randomUUID() }),
    remoteAddress: randomIp(),
    ...options,
  });
}

function prototypeIsClean(): void {
  const probe = {} as Record<string, unknown>;
  expect(Object.keys(Object.prototype)).toEqual([]);
  for (const key of ['polluted', 'role', 'isAdmin', 'status', '$gt']) expect(probe[key], key).toBeUndefined();
}

const bodyOps = operations.filter((op) => op.body && STATE_CHANGING.has(op.method));
const queryOps = operations.filter((op) => op.query.length > 0);
const paramOps = operations.filter((op) => op.params.length > 0);
const jsonWriteOps = operations.filter(
  (op) => STATE_CHANGING.has(op.method) && !op.bodyContentTypes.some((t) => t.startsWith('multipart/')),
);

describe('hostile JSON bodies', () => {
  it('finds JSON endpoints in the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  it.each(bodyOps.map((op) => [`${op.method} ${op.url}`, op] as const))(
    '%s answers a 4xx problem to invalid bodies and never a 5xx',
    async (_name, op) => {
      await fc.assert(
        fc.asyncProperty(mutationFor(op), async (mutation) => {
          const { payload, mustReject } = apply(op, mutation);
          const before = mustReject ? await databaseFingerprint(ctx.database) : undefined;
          const res = await send(op, { payload, headers: { 'content-type': 'application/json' } });
          figures.cases++;
          const info = `${op.method} ${op.url} ${JSON.stringify(mutation).slice(0, 200)}`;
          if (mustReject) {
            figures.rejected++;
            expectProblem(res, info);
            expect(await databaseFingerprint(ctx.database), `${info}: the database changed`).toEqual(before);
          } else {
            expectNoServerError(res, info);
          }
          prototypeIsClean();
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    },
  );
});

describe('hostile query strings', () => {
  const hostileQueryValue = fc.oneof(
    fc.constantFrom(
      '',
      '-1',
      '0',
      '1.5',
      '1e308',
      'NaN',
      'Infinity',
      '99999999999999999999',
      '%',
      '\u0000',
      '%00',
      "'; DROP TABLE events; --",
      '.*',
      '[a-',
      '\\',
      '_%',
      '𝕳𝖔𝖘𝖙𝖎𝖑𝖊',
      'x'.repeat(5000),
    ),
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );

  it.each(queryOps.map((op) => [`${op.method} ${op.url}`, op] as const))(
    '%s never fails on hostile query values',
    async (_name, op) => {
      const names = [...op.query.map((q) => q.name), '__proto__[polluted]', 'constructor[prototype][polluted]'];
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom(...names), hostileQueryValue), { minLength: 1, maxLength: 4 }),
          async (pairs) => {
            const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
            const before = op.method === 'GET' ? await databaseFingerprint(ctx.database) : undefined;
            const res = await send(op, { url: `${fillPath(op.url)}?${query}` });
            figures.cases++;
            expectNoServerError(res, `${op.method} ${op.url}?${query.slice(0, 200)}`);
            if (before) expect(await databaseFingerprint(ctx.database)).toEqual(before);
            prototypeIsClean();
          },
        ),
        { numRuns: RUNS, endOnFailure: true },
      );
    },
  );
});

describe('hostile path parameters', () => {
  const hostileId = fc.oneof(
    fc.constantFrom(
      'not-a-uuid',
      '00000000-0000-0000-0000-000000000000',
      'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
      '1',
      '-1',
      '..',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      "1' OR '1'='1",
      '\u0000',
      '𝕳',
      'x'.repeat(199),
      'x'.repeat(400),
    ),
    fc.uuid(),
    fc.string({ minLength: 1, maxLength: 40 }),
  );

  it.each(paramOps.map((op) => [`${op.method} ${op.url}`, op] as const))(
    '%s answers unknown or malformed ids with a 4xx problem',
    async (_name, op) => {
      await fc.assert(
        fc.asyncProperty(hostileId, async (id) => {
          const before = await databaseFingerprint(ctx.database);
          const params = Object.fromEntries(op.params.map((p) => [p.name, id]));
          const url = op.url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? id));
          const payload = op.body ? JSON.stringify(baseBody(op)) : undefined;
          const res = await send(op, {
            url,
            ...(payload ? { payload, headers: { 'content-type': 'application/json' } } : {}),
          });
          figures.cases++;
          const info = `${op.method} ${url.slice(0, 200)}`;
          // A dot segment ('..') names another path, as in any URL (/api/admin/events/../attendees.csv is
          // /api/admin/attendees.csv): that path's own answer, never a server error.
          if (new URL(url, 'http://host').pathname !== url.split('?')[0])
            expect(res.statusCode, info).toBeLessThan(500);
          // Nothing exists under a random id: every answer is a client error, and nothing changes.
          else expectProblem(res, info);
          expect(await databaseFingerprint(ctx.database), `${info}: the database changed`).toEqual(before);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    },
  );
});

describe('malformed addresses', () => {
  it.each(paramOps.map((op) => [`${op.method} ${op.url}`, op] as const))(
    '%s answers broken percent-encoding with a 4xx problem and safe headers',
    async (_name, op) => {
      for (const bad of ['%E0%A4%A', '%', '%zz', '%c0%af']) {
        const url = op.url.replace(/:([A-Za-z0-9_]+)/g, bad);
        const res = await send(op, { url });
        figures.cases++;
        expectProblem(res, `${op.method} ${url}`);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    },
  );
});

describe('malformed envelopes', () => {
  const envelopes: Array<[string, Partial<InjectOptions>]> = [
    ['malformed JSON', { payload: '{"a":', headers: { 'content-type': 'application/json' } }],
    ['a JSON body that is only null', { payload: 'null', headers: { 'content-type': 'application/json' } }],
    ['an empty JSON body', { payload: '', headers: { 'content-type': 'application/json' } }],
    ['a __proto__ key', { payload: '{"__proto__":{"polluted":1}}', headers: { 'content-type': 'application/json' } }],
    [
      'a constructor.prototype key',
      { payload: '{"constructor":{"prototype":{"polluted":1}}}', headers: { 'content-type': 'application/json' } },
    ],
    ['plain text', { payload: 'hello', headers: { 'content-type': 'text/plain' } }],
    ['a form post', { payload: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ['XML', { payload: '<a>1</a>', headers: { 'content-type': 'application/xml' } }],
    ['a bogus content type', { payload: '{}', headers: { 'content-type': 'application/json; charset=utf-7' } }],
    ['a body over 1 MB', { payload: `{"a":"${HUGE}"}`, headers: { 'content-type': 'application/json' } }],
    [
      'deeply nested arrays',
      { payload: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, headers: { 'content-type': 'application/json' } },
    ],
    [
      'a hundred thousand keys',
      {
        payload: `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
        headers: { 'content-type': 'application/json' },
      },
    ],
  ];

  it.each(jsonWriteOps.map((op) => [`${op.method} ${op.url}`, op] as const))(
    '%s refuses malformed bodies with a 4xx problem and changes nothing',
    async (_name, op) => {
      for (const [label, options] of envelopes) {
        const before = await databaseFingerprint(ctx.database);
        const res = await send(op, options);
        figures.cases++;
        const info = `${op.method} ${op.url} with ${label}`;
        // A route with a JSON body schema must refuse all of these; one without may ignore the body.
        if (op.body) expectProblem(res, info);
        else expectNoServerError(res, info);
        if (op.body || res.statusCode >= 400) {
          expect(await databaseFingerprint(ctx.database), `${info}: the database changed`).toEqual(before);
        }
        prototypeIsClean();
      }
    },
  );
});

describe('better-auth endpoints', () => {
  const authOps: Array<[string, Record<string, unknown>]> = [
    [
      '/api/auth/sign-up/email',
      { email: 'fuzz@example.com', password: 'Secret123', name: 'Fuzz Case', firstName: 'Fuzz', lastName: 'Case' },
    ],
    ['/api/auth/sign-in/email', { email: 'fuzz@example.com', password: 'Secret123' }],
    ['/api/auth/request-password-reset', { email: 'fuzz@example.com', redirectTo: '/reset-password' }],
  ];

  it.each(authOps)('POST %s never fails on hostile bodies', async (url, base) => {
    const fields = Object.keys(base);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fields, ...EXTRA_KEYS),
        hostileValue.filter((v) => v !== HUGE),
        async (field, value) => {
          const body: Record<string, unknown> = { ...base, email: `fuzz-${randomUUID().slice(0, 8)}@example.com` };
          Object.defineProperty(body, field, { value, enumerable: true, configurable: true });
          const res = await ctx.app.inject({
            method: 'POST',
            url,
            remoteAddress: randomIp(),
            payload: JSON.stringify(body),
            headers: { 'content-type': 'application/json' },
          });
          figures.cases++;
          expectNoServerError(res, `POST ${url} ${field}=${JSON.stringify(value)?.slice(0, 80)}`);
          prototypeIsClean();
        },
      ),
      { numRuns: 30, endOnFailure: true },
    );
  });
});

afterAll(() => {
  // The README's 'Reliability' figures come from this line.
  process.stdout.write(`hostile-input: ${figures.cases} cases, ${figures.rejected} that had to be refused\n`);
});
