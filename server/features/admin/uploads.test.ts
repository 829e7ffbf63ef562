import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '../../../contracts/admin';
import { setupTestApp, type TestUser } from '../../test/helpers';
import { makeImage, multipartBody } from './test-support';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

let admin: TestUser;
beforeAll(async () => {
  admin = await ctx.createUser({ role: 'admin' });
});

/** Every file under the data folder (uploads included), relative to it. */
async function filesInDataDir(): Promise<string[]> {
  const entries = await readdir(ctx.config.dataDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(ctx.config.dataDir, path.join(e.parentPath, e.name)))
    .sort();
}

function upload(data: Buffer, filename: string, contentType?: string) {
  return ctx.request(admin, {
    method: 'POST',
    url: '/api/admin/uploads',
    ...multipartBody(data, filename, contentType),
  });
}

describe('POST /api/admin/uploads', () => {
  it.each(['png', 'jpeg', 'webp'] as const)('stores a real %s image re-encoded as WebP', async (format) => {
    const res = await upload(await makeImage(format, 2400, 1200), `poster.${format}`, `image/${format}`);
    expect(res.statusCode).toBe(201);
    const { url } = res.json();
    expect(url).toMatch(/^\/uploads\/eventImg\/[0-9a-f-]{36}\.webp$/);

    const served = await ctx.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toContain('immutable');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    // Size capped: never wider or taller than 1600 px.
    expect(meta.width).toBeLessThanOrEqual(1600);
  });

  it('serves an 800 px copy, made once from the original and kept, and forgets unknown names', async () => {
    const res = await upload(await makeImage('png', 2400, 1200), 'wide.png', 'image/png');
    const { url } = res.json() as { url: string };
    const copyUrl = url.replace('/uploads/', '/uploads/w800/');
    const [first, second] = await Promise.all([
      ctx.app.inject({ method: 'GET', url: copyUrl }),
      ctx.app.inject({ method: 'GET', url: copyUrl }),
    ]);
    for (const copy of [first, second]) {
      expect(copy.statusCode).toBe(200);
      expect(copy.headers['content-type']).toBe('image/webp');
      expect(copy.headers['cache-control']).toContain('immutable');
      expect(await sharp(copy.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 800, height: 400 });
    }
    const kept = path.join('uploads', 'w800', url.replace('/uploads/', ''));
    expect((await filesInDataDir()).filter((f) => f.includes('w800'))).toEqual([kept]);
    expect((await ctx.app.inject({ method: 'GET', url: copyUrl })).rawPayload).toEqual(first?.rawPayload);

    for (const unknown of [
      `/uploads/w800/eventImg/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.webp`,
      '/uploads/w800/eventImg/..%2F..%2F.auth-secret',
      '/uploads/w800/secrets/x.webp',
    ]) {
      expect((await ctx.app.inject({ method: 'GET', url: unknown })).statusCode, unknown).toBe(404);
    }
  });

  it('ignores the declared type and name: a PNG sent as text/plain named .txt is still an image', async () => {
    const res = await upload(await makeImage('png'), 'notes.txt', 'text/plain');
    expect(res.statusCode).toBe(201);
  });

  const bad: Array<[string, () => Promise<[Buffer, string, string?]>]> = [
    ['a text file named .png', async () => [Buffer.from('hello, I am not an image'), 'photo.png', 'image/png']],
    [
      'an SVG image',
      async () => [
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        ),
        'logo.svg',
        'image/svg+xml',
      ],
    ],
    [
      'an SVG named .png',
      async () => [
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'),
        'logo.png',
        'image/png',
      ],
    ],
    [
      'a truncated JPEG',
      async () => {
        const jpeg = await makeImage('jpeg', 400, 300);
        return [jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'cut.jpg', 'image/jpeg'];
      },
    ],
    [
      'a GIF',
      async () => [
        await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
          .gif()
          .toBuffer(),
        'a.gif',
      ],
    ],
    ['an empty file', async () => [Buffer.alloc(0), 'empty.png', 'image/png']],
    ['a real PNG whose name climbs folders', async () => [await makeImage('png'), '../../evil.png', 'image/png']],
    ['a real PNG with a Windows path', async () => [await makeImage('png'), '..\\..\\evil.png', 'image/png']],
  ];

  it.each(bad)('refuses %s with a clear 400 and stores nothing', async (_name, make) => {
    const before = await filesInDataDir();
    const [data, filename, type] = await make();
    const res = await upload(data, filename, type);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().detail).toMatch(/\w/);
    expect(await filesInDataDir()).toEqual(before);
  });

  it('refuses a file over 5 MB with a clear message and stores nothing', async () => {
    const before = await filesInDataDir();
    // Random noise does not compress: a real PNG of about 6.5 MB.
    const noise = Buffer.alloc(1500 * 1500 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 1500, height: 1500, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const res = await upload(big, 'big.png', 'image/png');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'UPLOAD_TOO_LARGE', detail: adminMessages.uploadTooLarge });
    expect(await filesInDataDir()).toEqual(before);
  });

  it('refuses a request without a file', async () => {
    const json = await ctx.request(admin, { method: 'POST', url: '/api/admin/uploads', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('UPLOAD_MISSING');
  });

  it('refuses two files in one request', async () => {
    const png = await makeImage('png');
    const boundary = 'two-files';
    const part = (name: string) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from('\r\n'),
      ]);
    const before = await filesInDataDir();
    const res = await ctx.request(admin, {
      method: 'POST',
      url: '/api/admin/uploads',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([part('a.png'), part('b.png'), Buffer.from(`--${boundary}--\r\n`)]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'UPLOAD_INVALID', detail: adminMessages.uploadOneFile });
    expect(await filesInDataDir()).toEqual(before);
  });
});
