import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../contracts/i18n/all';
// The admin feature's upload helpers, the same as its own upload tests use, here against the bucket.
import * as adminUploads from '../test/admin-fixtures';
import { setupTestApp, type TestContext, type TestUser } from '../test/helpers';
import { S3_RETRIES, S3_TIMEOUT_MS, s3Storage } from './storage';

/**
 * Uploads kept in an S3-compatible bucket (S3_BUCKET and friends), against a stand-in bucket on 127.0.0.1
 * that speaks the part of the S3 API the app uses: PUT, GET, HEAD and DELETE of one object, each request
 * signed with AWS Signature V4 for our access key.
 */
const BUCKET = 'eventry-test';
const ACCESS_KEY = 'test-access-key';

interface Bucket {
  server: Server;
  endpoint: string;
  objects: Map<string, { body: Buffer; type: string }>;
  requests: string[];
  /** While set, every DELETE is refused (403, as a bucket policy without delete rights would). */
  refuseDeletes: boolean;
  /** While set, every DELETE answers this status (503: the bucket is in trouble). */
  failDeletesWith: number | undefined;
  /** While set, no DELETE is ever answered (an unreachable bucket that keeps the connection open). */
  hangDeletes: boolean;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function startBucket(): Promise<Bucket> {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const requests: string[] = [];
  const switches: Pick<Bucket, 'refuseDeletes' | 'failDeletesWith' | 'hangDeletes'> = {
    refuseDeletes: false,
    failDeletesWith: undefined,
    hangDeletes: false,
  };
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://bucket');
    requests.push(`${request.method} ${url.pathname}`);
    const auth = String(request.headers.authorization ?? '');
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/`) || !request.headers['x-amz-date']) {
      response.writeHead(403).end('<Error><Code>AccessDenied</Code></Error>');
      return;
    }
    const prefix = `/${BUCKET}/`;
    if (!url.pathname.startsWith(prefix)) {
      response.writeHead(404).end('<Error><Code>NoSuchBucket</Code></Error>');
      return;
    }
    const key = url.pathname.slice(prefix.length);
    const object = objects.get(key);
    switch (request.method) {
      case 'PUT':
        objects.set(key, { body: await readBody(request), type: String(request.headers['content-type'] ?? '') });
        response.writeHead(200).end();
        return;
      case 'GET':
      case 'HEAD':
        if (!object) {
          response.writeHead(404).end(request.method === 'GET' ? '<Error><Code>NoSuchKey</Code></Error>' : undefined);
          return;
        }
        response.writeHead(200, { 'content-type': object.type, 'content-length': object.body.length });
        response.end(request.method === 'GET' ? object.body : undefined);
        return;
      case 'DELETE':
        if (switches.hangDeletes) return;
        if (switches.failDeletesWith) {
          response.writeHead(switches.failDeletesWith).end('<Error><Code>ServiceUnavailable</Code></Error>');
          return;
        }
        if (switches.refuseDeletes) {
          response.writeHead(403).end('<Error><Code>AccessDenied</Code></Error>');
          return;
        }
        objects.delete(key);
        response.writeHead(204).end();
        return;
      default:
        response.writeHead(405).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(switches, { server, endpoint: `http://127.0.0.1:${port}`, objects, requests });
}

let bucket: Bucket;
let ctx: TestContext;
let admin: TestUser;

beforeAll(async () => {
  bucket = await startBucket();
  ctx = await setupTestApp({
    config: {
      s3: {
        endpoint: bucket.endpoint,
        bucket: BUCKET,
        accessKeyId: ACCESS_KEY,
        secretAccessKey: 'test-secret',
        region: 'us-east-1',
      },
    },
  });
  admin = await ctx.createUser({ role: 'admin' });
});

afterAll(async () => {
  await ctx?.close();
  bucket?.server.closeAllConnections();
  await new Promise((resolve) => bucket?.server.close(resolve));
});

describe('uploads in an S3-compatible bucket', () => {
  it('stores an event image in the bucket, not on disk, and serves it from /uploads', async () => {
    const url = await adminUploads.uploadImage(ctx, admin, await adminUploads.makeImage('jpeg', 1800, 900));
    expect(url).toMatch(/^\/uploads\/eventImg\/[0-9a-f-]{36}\.webp$/);
    const key = url.slice('/uploads/'.length);
    const stored = bucket.objects.get(key);
    expect(stored?.type).toBe('image/webp');
    expect(existsSync(path.join(ctx.config.dataDir, 'uploads', key))).toBe(false);
    const served = await ctx.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.equals(stored?.body as Buffer)).toBe(true);
  });

  it('makes the 800 px copy once, keeps it in the bucket and serves it from there afterwards', async () => {
    const url = await adminUploads.uploadImage(ctx, admin, await adminUploads.makeImage('png', 1600, 800));
    const key = url.slice('/uploads/'.length);
    const variantUrl = `/uploads/w800/${key}`;
    const first = await ctx.app.inject({ method: 'GET', url: variantUrl });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/webp');
    expect(bucket.objects.has(`w800/${key}`)).toBe(true);
    const putsBefore = bucket.requests.filter((r) => r.startsWith('PUT')).length;
    const again = await ctx.app.inject({ method: 'GET', url: variantUrl });
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(bucket.requests.filter((r) => r.startsWith('PUT')).length).toBe(putsBefore);
  });

  it('answers 404 for an image the bucket does not have', async () => {
    const missing = '/uploads/eventImg/00000000-0000-4000-8000-000000000000.webp';
    expect((await ctx.app.inject({ method: 'GET', url: missing })).statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ method: 'GET', url: missing.replace('/uploads/', '/uploads/w800/') })).statusCode,
    ).toBe(404);
  });

  it('accepts an event picture only if the bucket holds it, and deletes the one an edit replaces', async () => {
    const first = await adminUploads.uploadImage(ctx, admin);
    const created = await ctx.request(admin, {
      method: 'POST',
      url: '/api/admin/events',
      payload: adminUploads.validEventBody(ctx, first),
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;

    const invented = '/uploads/eventImg/00000000-0000-4000-8000-000000000002.webp';
    const refused = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${id}`,
      payload: adminUploads.validEventBody(ctx, invented),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({ imageUrl: MESSAGES.en.admin.imageInvalid });

    const second = await adminUploads.uploadImage(ctx, admin);
    const edited = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${id}`,
      payload: adminUploads.validEventBody(ctx, second),
    });
    expect(edited.statusCode).toBe(200);
    expect(bucket.objects.has(first.slice('/uploads/'.length))).toBe(false);
    expect(bucket.objects.has(second.slice('/uploads/'.length))).toBe(true);
  });

  it('removes an unused upload from the bucket, and tries again later when the bucket refuses', async () => {
    const url = await adminUploads.uploadImage(ctx, admin);
    const key = url.slice('/uploads/'.length);
    bucket.refuseDeletes = true;
    try {
      expect((await ctx.app.uploads.removeUnused(adminUploads.afterGrace())).removed).toBe(0);
    } finally {
      bucket.refuseDeletes = false;
    }
    expect(bucket.objects.has(key)).toBe(true);
    expect(await adminUploads.rememberedUploads(ctx)).toContain(url);

    expect((await ctx.app.uploads.removeUnused(adminUploads.afterGrace())).removed).toBeGreaterThanOrEqual(1);
    expect(bucket.objects.has(key)).toBe(false);
    expect(await adminUploads.served(ctx, url)).toBe(404);
    expect(await adminUploads.rememberedUploads(ctx)).not.toContain(url);
  });

  it('stores a profile picture in the bucket too', async () => {
    const user = await ctx.createUser();
    const body = adminUploads.multipartBody(await adminUploads.makeImage('webp'), 'me.webp', 'image/webp');
    const res = await ctx.request(user, { method: 'POST', url: '/api/me/avatar', ...body });
    expect(res.statusCode).toBe(200);
    const url = res.json().imageUrl as string;
    expect(url).toMatch(/^\/uploads\/userImg\/[0-9a-f-]{36}\.webp$/);
    expect(bucket.objects.has(url.slice('/uploads/'.length))).toBe(true);
  });

  it(`gives up on a bucket in trouble after ${S3_RETRIES} retries, not after aws4fetch's ten`, async () => {
    const url = await adminUploads.uploadImage(ctx, admin);
    const key = url.slice('/uploads/'.length);
    const before = bucket.requests.length;
    bucket.failDeletesWith = 503;
    try {
      await expect(ctx.app.storage.remove(url)).rejects.toThrow(/503/);
    } finally {
      bucket.failDeletesWith = undefined;
    }
    expect(bucket.requests.slice(before)).toEqual(Array(1 + S3_RETRIES).fill(`DELETE /${BUCKET}/${key}`));
    expect(bucket.objects.has(key)).toBe(true);
  });

  it('abandons a call the bucket never answers (S3_TIMEOUT_MS), so a removal cannot hang', async () => {
    expect(S3_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
    const url = await adminUploads.uploadImage(ctx, admin);
    const storage = s3Storage(ctx.config.s3 as NonNullable<typeof ctx.config.s3>, { timeoutMs: 300 });
    bucket.hangDeletes = true;
    const started = Date.now();
    try {
      await expect(storage.remove(url)).rejects.toThrow(/abort|timeout/i);
    } finally {
      bucket.hangDeletes = false;
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(bucket.objects.has(url.slice('/uploads/'.length))).toBe(true);
  });
});
