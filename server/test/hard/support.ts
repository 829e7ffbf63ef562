import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { addDays, todayIn } from '../../../contracts/dates';
import type { Database } from '../../db/client';
import { events } from '../../db/schema';

/**
 * Shared pieces of the hostile suites: the explicit access classification of every route, a sampler
 * that turns the OpenAPI JSON schemas into valid-looking requests, database fingerprints and helpers.
 */

export type Access =
  /** Anyone: never 401/403. */
  | 'public'
  /** Signed-in users (any role): 401 when anonymous. */
  | 'user'
  /** A resource of the signed-in user addressed by id: 401 anonymous, 404/403 for another user's id. */
  | 'owner'
  /** Admins: 401 anonymous, 403 for users. */
  | 'admin'
  /** Admins and the door staff of the event named in the request: 401 anonymous, 403 for anyone else. */
  | 'door'
  /** better-auth's mount: checked by the session tests. */
  | 'auth'
  /** Called by Stripe, authenticated by signature: 4xx without one, never 401/403 by role. */
  | 'webhook'
  /** The OpenAPI document and its UI: public. */
  | 'docs'
  /** Uploaded images: public files. */
  | 'files'
  /** A Server-Sent Events stream: public, checked over a real socket. */
  | 'stream'
  /** The admins' Server-Sent Events stream: 401 anonymous, 403 for users, checked over a real socket. */
  | 'admin-stream';

/**
 * Every route of the app, classified by hand. A route that is not listed here fails
 * access-matrix.test.ts until someone decides who may call it.
 */
/** Routes of another configuration than the tests' (uploads served from an S3 bucket, not the disk). */
export const OTHER_CONFIGURATION_ROUTES = new Set(['GET /uploads/:folder/:file']);

export const ACCESS: Record<string, Access> = {
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'GET /api/docs': 'docs',
  'GET /api/docs/static/index.html': 'docs',
  'GET /api/docs/static/swagger-initializer.js': 'docs',
  'GET /api/docs/json': 'docs',
  'GET /api/docs/yaml': 'docs',
  'GET /api/docs/static/*': 'docs',
  'GET /uploads/*': 'files',
  'GET /uploads/:folder/:file': 'files',
  'GET /uploads/w800/:folder/:file': 'files',
  'GET /api/auth/*': 'auth',
  'POST /api/auth/*': 'auth',
  // catalogue
  'GET /api/categories': 'public',
  'GET /api/events': 'public',
  'GET /api/events/search': 'public',
  'GET /api/events/:id': 'public',
  'GET /api/events/live': 'stream',
  // the dashboard's funnel: counts a view, reads and sets no cookie
  'POST /api/events/:id/view': 'public',
  // an event's calendar file, as public as its page
  'GET /api/events/:id/calendar.ics': 'public',
  // accounts
  // null for visitors without a session (every page asks); 401 for a session cookie that has ended.
  'GET /api/me': 'public',
  'PATCH /api/me': 'user',
  'POST /api/me/avatar': 'user',
  // The signed-in user's own language (their emails', and the site's at each sign-in).
  'PUT /api/me/language': 'user',
  'GET /api/me/bookings': 'user',
  'GET /api/me/tickets': 'user',
  // Only ever the caller's own hold: someone else's is null, as no hold is.
  'GET /api/me/holds/:eventId': 'user',
  // bookings and payments
  'POST /api/bookings': 'user',
  'GET /api/bookings/:id': 'owner',
  'POST /api/bookings/:id/payment': 'owner',
  'DELETE /api/bookings/:id/hold': 'owner',
  'GET /api/bookings/:id/tickets.pdf': 'owner',
  'GET /api/payments/config': 'public',
  'POST /api/payments/simulated/confirm': 'user',
  'POST /api/payments/stripe/webhook': 'webhook',
  'POST /api/payments/paymob/callback': 'webhook',
  'POST /api/payments/paymob/start': 'user',
  'GET /api/bookings/:id/refund-quote': 'user',
  'POST /api/bookings/:id/cancel': 'user',
  // the waitlist: always the caller's own entry of the event
  'POST /api/events/:id/waitlist': 'user',
  'DELETE /api/events/:id/waitlist': 'user',
  'GET /api/me/waitlist': 'user',
  'POST /api/me/waitlist/:eventId/decline': 'user',
  // The buyer's browser back from Paymob: signed by Paymob, not by a session (a forged one is refused).
  'GET /api/payments/paymob/return': 'webhook',
  // check-in: admins, and the door staff of the event (who are otherwise users)
  'GET /api/check-in/events': 'user',
  'POST /api/check-in': 'door',
  'GET /api/check-in/:eventId/bundle': 'door',
  'POST /api/check-in/:eventId/sync': 'door',
  // contact
  'POST /api/contact': 'public',
  // languages: the switch (a redirect back to the page) and the admin area's messages
  'GET /api/language/:lang': 'public',
  'GET /api/messages/:lang/:bundle': 'public',
  // admin
  'GET /api/admin/events': 'admin',
  'GET /api/admin/events/:id': 'admin',
  'POST /api/admin/events': 'admin',
  'PUT /api/admin/events/:id': 'admin',
  'DELETE /api/admin/events/:id': 'admin',
  'POST /api/admin/events/:id/cancel': 'admin',
  'POST /api/admin/bookings/:id/refund': 'admin',
  'POST /api/admin/uploads': 'admin',
  'GET /api/admin/mailbox': 'admin',
  'GET /api/admin/form-meta': 'admin',
  'GET /api/admin/events/:id/attendees': 'admin',
  'GET /api/admin/events/:id/attendees.csv': 'admin',
  'GET /api/admin/dashboard': 'admin',
  'GET /api/admin/orders.csv': 'admin',
  'GET /api/admin/attendees.csv': 'admin',
  'GET /api/admin/live': 'admin-stream',
  'GET /api/admin/events/:id/door-staff': 'admin',
  'POST /api/admin/events/:id/door-staff': 'admin',
  'DELETE /api/admin/events/:id/door-staff/:userId': 'admin',
};

/** What a route would be if nobody classified it: used so unclassified routes are still exercised. */
export function inferredAccess(url: string): Access {
  if (url.startsWith('/api/admin')) return 'admin';
  if (url.startsWith('/api/me') || url.startsWith('/api/bookings')) return url.includes(':') ? 'owner' : 'user';
  if (url.startsWith('/api/auth')) return 'auth';
  return 'public';
}

export interface RouteKey {
  method: string;
  url: string;
  key: string;
}

/** Every route of the app except HEAD twins, from the route table filled in server/app.ts. */
export function appRoutes(app: FastifyInstance): RouteKey[] {
  const seen = new Map<string, RouteKey>();
  for (const { method, url } of app.routeTable) {
    if (method === 'HEAD' || method === 'OPTIONS') continue;
    const key = `${method} ${url}`;
    if (!seen.has(key)) seen.set(key, { method, url, key });
  }
  return [...seen.values()].sort((a, b) => a.key.localeCompare(b.key));
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// ---------------------------------------------------------------------------------------------------
// OpenAPI
// ---------------------------------------------------------------------------------------------------

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  default?: unknown;
  $ref?: string;
  additionalProperties?: boolean | JsonSchema;
};

export interface Operation {
  method: string;
  /** Fastify form: /api/events/:id */
  url: string;
  body: JsonSchema | undefined;
  bodyContentTypes: string[];
  query: Array<{ name: string; required: boolean; schema: JsonSchema }>;
  params: Array<{ name: string; schema: JsonSchema }>;
}

interface OpenApiDoc {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}
interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export function operationsOf(app: FastifyInstance): Operation[] {
  const doc = (app as unknown as { swagger(): OpenApiDoc }).swagger();
  const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined => resolveRefs(schema, doc, 0);
  const ops: Operation[] = [];
  for (const [openPath, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content ?? {};
      const json = content['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        url: openPath.replace(/\{([^}]+)\}/g, ':$1'),
        body: resolve(json),
        bodyContentTypes: Object.keys(content),
        query: (op.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required === true, schema: resolve(p.schema) ?? {} })),
        params: (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, schema: resolve(p.schema) ?? {} })),
      });
    }
  }
  return ops;
}

function resolveRefs(schema: JsonSchema | undefined, doc: OpenApiDoc, depth: number): JsonSchema | undefined {
  if (!schema || depth > 20) return schema;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return resolveRefs(doc.components?.schemas?.[name], doc, depth + 1);
  }
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, resolveRefs(v, doc, depth + 1) ?? {}]),
    );
  }
  if (schema.items) out.items = resolveRefs(schema.items, doc, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (schema[key]) out[key] = schema[key]?.map((s) => resolveRefs(s, doc, depth + 1) ?? {});
  }
  return out;
}

/** Merges allOf and picks the first non-null branch of anyOf/oneOf. */
export function flatten(schema: JsonSchema): JsonSchema {
  if (schema.allOf) {
    const merged: JsonSchema = { properties: {}, required: [] };
    for (const part of schema.allOf.map(flatten)) {
      Object.assign(merged, { ...part, properties: merged.properties, required: merged.required });
      Object.assign(merged.properties as object, part.properties);
      merged.required?.push(...(part.required ?? []));
    }
    return merged;
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const nonNull = branches.find((b) => b.type !== 'null') ?? branches[0] ?? {};
    return flatten(nonNull);
  }
  return schema;
}

export function typesOf(schema: JsonSchema): string[] {
  const s = schema;
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return branches.flatMap(typesOf);
  if (s.allOf) return s.allOf.flatMap(typesOf).slice(0, 1);
  const types = s.type === undefined ? [] : [s.type].flat();
  if (s.nullable) types.push('null');
  if (s.const !== undefined && types.length === 0) types.push(typeof s.const);
  if (s.enum && types.length === 0) types.push(...new Set(s.enum.map((v) => (v === null ? 'null' : typeof v))));
  return types;
}

const STRING_CANDIDATES = [
  'Sample value for testing',
  '2030-01-15',
  '10:00',
  'sample@example.com',
  'music',
  '4242424242424242',
  '123',
  '12',
  '2035',
  'https://example.com/a',
];

/** A value that satisfies the schema as far as a plain sampler can tell (used to get past validation). */
export function sample(input: JsonSchema | undefined, name = '', today = todayIn('Africa/Cairo')): unknown {
  if (!input) return undefined;
  const schema = flatten(input);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = typesOf(schema).find((t) => t !== 'null') ?? (schema.properties ? 'object' : 'string');
  const lower = name.toLowerCase();
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) out[key] = sample(prop, key, today);
      return out;
    }
    case 'array': {
      const n = schema.minItems ?? 0;
      return Array.from({ length: n }, () => sample(schema.items, name, today));
    }
    case 'integer':
    case 'number': {
      if (lower.includes('month')) return 12;
      if (lower.includes('year')) return 2035;
      if (lower.includes('quantity')) return 1;
      let value = lower.includes('piasters') || lower.includes('price') ? 10000 : lower.includes('capacity') ? 100 : 1;
      const min =
        typeof schema.exclusiveMinimum === 'number'
          ? schema.exclusiveMinimum + 1
          : schema.minimum !== undefined
            ? schema.minimum
            : undefined;
      if (min !== undefined && value < min) value = min;
      if (schema.maximum !== undefined && value > schema.maximum) value = schema.maximum;
      return value;
    }
    case 'boolean':
      return false;
    default:
      return sampleString(schema, lower, today);
  }
}

function sampleString(schema: JsonSchema, lower: string, today: string): string {
  let value: string;
  if (schema.format === 'email' || lower.includes('email')) value = `sample-${randomUUID().slice(0, 6)}@example.com`;
  else if (schema.format === 'uuid' || lower.endsWith('id')) value = randomUUID();
  else if (schema.format === 'date-time') value = new Date().toISOString();
  else if (schema.format === 'date' || lower.endsWith('date')) value = addDays(today, 30);
  else if (lower.endsWith('time')) value = lower.startsWith('end') ? '20:00' : '18:00';
  else if (schema.format === 'uri' || schema.format === 'url' || lower.includes('url'))
    value = `/uploads/eventImg/${randomUUID()}.webp`;
  else if (lower.includes('password')) value = 'Secret123';
  else if (lower.includes('phone')) value = '01012345678';
  else if (lower.includes('card')) value = '4242424242424242';
  else if (lower.includes('cvc')) value = '123';
  else if (lower.includes('category')) value = 'music';
  else if (lower.includes('name')) value = 'Sample';
  else value = 'Sample text that is long enough for any rule';
  if (schema.pattern) {
    const re = new RegExp(schema.pattern);
    if (!re.test(value)) value = STRING_CANDIDATES.find((c) => re.test(c)) ?? value;
  }
  if (schema.minLength !== undefined && value.length < schema.minLength) value = value.padEnd(schema.minLength, 'x');
  if (schema.maxLength !== undefined && value.length > schema.maxLength) value = value.slice(0, schema.maxLength);
  return value;
}

/** Fills :params of a Fastify path. */
export function fillPath(url: string, values: Record<string, string> = {}): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? randomUUID()));
}

// ---------------------------------------------------------------------------------------------------
// Database and files
// ---------------------------------------------------------------------------------------------------

/** Tables whose rows change as a side effect of any request (counters), never domain data. */
const VOLATILE_TABLES = new Set(['rate_limits']);

/** Row count and a content hash of every table: any insert, update or delete changes it. */
export async function databaseFingerprint(database: Database): Promise<Record<string, string>> {
  const tables = await database.pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    if (VOLATILE_TABLES.has(name)) continue;
    const ident = `"${name.replaceAll('"', '""')}"`;
    const res = await database.pool.query<{ n: number; h: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${ident} t`,
    );
    out[name] = `${res.rows[0]?.n}:${res.rows[0]?.h}`;
  }
  return out;
}

/** Every file under a folder (recursive), relative paths. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(current: string): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out.push(path.relative(dir, full));
    }
  }
  await walk(dir);
  return out.sort();
}

/** An active event straight into the database (independent of the admin API). */
export async function insertEvent(
  database: Database,
  overrides: Partial<typeof events.$inferInsert> = {},
  timeZone = 'Africa/Cairo',
): Promise<{ id: string; capacity: number }> {
  const today = todayIn(timeZone);
  const capacity = overrides.capacity ?? 100;
  const [row] = await database.db
    .insert(events)
    .values({
      title: `Hostile test event ${randomUUID().slice(0, 6)}`,
      host: 'Test host',
      location: 'Cairo',
      description: 'An event created by the hostile-input suite.',
      pricePiasters: 15000,
      capacity,
      ticketsAvailable: capacity,
      startDate: today,
      endDate: addDays(today, 20),
      eventDate: addDays(today, 21),
      startTime: '19:00',
      endTime: '22:00',
      imageUrl: '/uploads/eventImg/00000000-0000-0000-0000-000000000000.webp',
      categoryId: 'music',
      ...overrides,
    })
    .returning({ id: events.id, capacity: events.capacity });
  if (!row) throw new Error('insert failed');
  return row;
}

// ---------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------

export function describeResponse(res: LightMyRequestResponse): string {
  return `${res.statusCode} ${res.headers['content-type'] ?? ''} ${res.body.slice(0, 300)}`;
}

/** A client error rendered by the one error handler: 4xx and application/problem+json with a code. */
export function expectProblem(res: LightMyRequestResponse, context: string): void {
  const info = `${context} → ${describeResponse(res)}`;
  expect(res.statusCode, info).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, info).toBeLessThan(500);
  expect(String(res.headers['content-type']), info).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.body) as { status?: number; code?: string };
  expect(body.status, info).toBe(res.statusCode);
  expect(typeof body.code, info).toBe('string');
}

/** Never a server error; client errors are problems. */
export function expectNoServerError(res: LightMyRequestResponse, context: string): void {
  const info = `${context} → ${describeResponse(res)}`;
  expect(res.statusCode, info).toBeLessThan(500);
  if (res.statusCode >= 400) expectProblem(res, context);
}

/** A random private address, so per-IP rate limits of one case do not starve the next. */
export function randomIp(): string {
  const b = () => Math.floor(Math.random() * 250) + 1;
  return `10.${b()}.${b()}.${b()}`;
}

/** multipart/form-data body with one file part (and optional text fields). */
export function multipart(
  parts: Array<{ name: string; filename?: string; contentType?: string; data: Buffer | string }>,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----hostile${randomUUID().replaceAll('-', '')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
