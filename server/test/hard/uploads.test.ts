import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupTestApp, type TestUser } from '../helpers';
import {
  appRoutes,
  databaseFingerprint,
  describeResponse,
  expectProblem,
  listFiles,
  multipart,
  randomIp,
} from './support';

/**
 * Upload endpoints get files that are not what they claim: wrong types, polyglots, SVG, oversized,
 * truncated and pixel-flood images. Each must answer 400 (413 accepted for a body over the limit),
 * store nothing and change nothing in the database.
 */

const ctx = await setupTestApp();
afterAll(() => ctx.close());

const UPLOAD_ROUTES = ['POST /api/admin/uploads', 'POST /api/me/avatar'];
const present = appRoutes(ctx.app)
  .map((r) => r.key)
  .filter((k) => UPLOAD_ROUTES.includes(k));
const uploadsDir = path.join(ctx.config.dataDir, 'uploads');

let user: TestUser;
let admin: TestUser;
beforeAll(async () => {
  admin = await ctx.createUser({ role: 'admin' });
});
// A user of each test's own: an account may upload 20 profile pictures a minute, and a refusal for that
// would hide what these tests check.
beforeEach(async () => {
  user = await ctx.createUser();
});

// --- crafted files -----------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid PNG header declaring width × height, with a little compressed data: decompression bomb bait. */
function pixelFloodPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64 * 1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

let validPng: Buffer;
let validJpeg: Buffer;
let validGif: Buffer;
let noisyJpeg: Buffer;
beforeAll(async () => {
  const base = sharp({ create: { width: 64, height: 48, channels: 3, background: '#0f766e' } });
  validPng = await base.clone().png().toBuffer();
  validJpeg = await base.clone().jpeg().toBuffer();
  validGif = await base.clone().gif().toBuffer();
  // Random pixels do not compress: a real JPEG just over 5 MB.
  const side = 2000;
  const noise = randomBytes(side * side * 3);
  noisyJpeg = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 100 })
    .toBuffer();
});

const HTML = '<html><body><script>alert(document.cookie)</script></body></html>';
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>`;

function hostileFiles(): Array<[string, { filename: string; contentType: string; data: Buffer }]> {
  const jpegHeader = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
  return [
    ['plain text named .png', { filename: 'a.png', contentType: 'image/png', data: Buffer.from('hello world') }],
    ['HTML declared as JPEG', { filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.from(HTML) }],
    [
      'a JPEG header followed by HTML (polyglot)',
      { filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.concat([jpegHeader, Buffer.from(HTML)]) },
    ],
    [
      'a GIF header followed by JavaScript (polyglot)',
      { filename: 'a.gif', contentType: 'image/gif', data: Buffer.from('GIF89a/*\x00\x00*/=alert(1)//') },
    ],
    ['an SVG with a script', { filename: 'a.svg', contentType: 'image/svg+xml', data: Buffer.from(SVG) }],
    ['an SVG declared as PNG', { filename: 'a.png', contentType: 'image/png', data: Buffer.from(SVG) }],
    ['a GIF (not an accepted format)', { filename: 'a.gif', contentType: 'image/gif', data: validGif }],
    [
      'a truncated PNG',
      { filename: 'a.png', contentType: 'image/png', data: validPng.subarray(0, Math.floor(validPng.length / 2)) },
    ],
    [
      'a truncated JPEG',
      { filename: 'a.jpg', contentType: 'image/jpeg', data: validJpeg.subarray(0, Math.floor(validJpeg.length / 2)) },
    ],
    [
      'a PNG declaring 50000×50000 pixels',
      { filename: 'flood.png', contentType: 'image/png', data: pixelFloodPng(50_000, 50_000) },
    ],
    [
      'a PNG declaring 1×100000000 pixels',
      { filename: 'flood.png', contentType: 'image/png', data: pixelFloodPng(1, 100_000_000) },
    ],
    ['an empty file', { filename: 'a.png', contentType: 'image/png', data: Buffer.alloc(0) }],
    ['a JPEG over 5 MB', { filename: 'big.jpg', contentType: 'image/jpeg', data: noisyJpeg }],
    [
      'zero bytes padded to 6 MB',
      { filename: 'big.png', contentType: 'image/png', data: Buffer.concat([validPng, Buffer.alloc(6 * 1024 * 1024)]) },
    ],
    ['a Windows executable', { filename: 'a.png', contentType: 'image/png', data: Buffer.from('MZ\x90\x00\x03\x00') }],
    ['a PDF', { filename: 'a.png', contentType: 'image/png', data: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj') }],
  ];
}

function callerOf(route: string): TestUser {
  return route.includes('/admin/') ? admin : user;
}

describe.each(present.map((r) => [r]))('%s', (route) => {
  const url = route.split(' ')[1] as string;

  async function upload(parts: Parameters<typeof multipart>[0], as: TestUser = callerOf(route)) {
    const { payload, headers } = multipart(parts);
    return ctx.request(as, { method: 'POST', url, payload, headers, remoteAddress: randomIp() });
  }

  it('stores a real image as WebP under a generated name (the control case)', async () => {
    const res = await upload([{ name: 'file', filename: 'ok.png', contentType: 'image/png', data: validPng }]);
    expect(res.statusCode, describeResponse(res)).toBeLessThan(300);
    const files = await listFiles(uploadsDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file).toMatch(/^(eventImg|userImg)\/[0-9a-f-]{36}\.webp$/);
  });

  it('refuses every hostile file with a 400 and stores nothing', async () => {
    expect(noisyJpeg.length).toBeGreaterThan(5 * 1024 * 1024);
    for (const [label, file] of hostileFiles()) {
      const filesBefore = await listFiles(uploadsDir);
      const dbBefore = await databaseFingerprint(ctx.database);
      const res = await upload([{ name: 'file', ...file }]);
      const info = `${route} with ${label}`;
      expectProblem(res, info);
      expect([400, 413], `${info} → ${describeResponse(res)}`).toContain(res.statusCode);
      expect(await listFiles(uploadsDir), `${info}: a file was stored`).toEqual(filesBefore);
      expect(await databaseFingerprint(ctx.database), `${info}: the database changed`).toEqual(dbBefore);
    }
  });

  it('re-encodes a real JPEG carrying HTML after its end so the stored file has none of it', async () => {
    const before = await listFiles(uploadsDir);
    const res = await upload([
      {
        name: 'file',
        filename: 'a.jpg',
        contentType: 'image/jpeg',
        data: Buffer.concat([validJpeg, Buffer.from(HTML)]),
      },
    ]);
    expect(res.statusCode, describeResponse(res)).toBeLessThan(500);
    const added = (await listFiles(uploadsDir)).filter((f) => !before.includes(f));
    for (const file of added) {
      const served = await ctx.app.inject({ method: 'GET', url: `/uploads/${file}` });
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload.includes(Buffer.from('<script>'))).toBe(false);
    }
  });

  it('refuses malformed multipart requests with a 400 and stores nothing', async () => {
    const before = await listFiles(uploadsDir);
    const cases: Array<[string, Parameters<typeof multipart>[0]]> = [
      ['no parts', []],
      ['only a text field', [{ name: 'note', data: 'hello' }]],
      [
        'two files',
        [
          { name: 'file', filename: 'a.png', contentType: 'image/png', data: validPng },
          { name: 'file2', filename: 'b.png', contentType: 'image/png', data: validPng },
        ],
      ],
      ['a file name climbing folders', [{ name: 'file', filename: '../../../etc/x.png', data: validPng }]],
    ];
    for (const [label, parts] of cases) {
      const res = await upload(parts);
      expectProblem(res, `${route} with ${label} → ${describeResponse(res)}`);
      expect(res.statusCode, `${route} with ${label}`).toBe(400);
    }
    const truncated = await ctx.request(callerOf(route), {
      method: 'POST',
      url,
      payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expectProblem(truncated, `${route} with an unterminated multipart body`);
    expect(truncated.statusCode, `${route} with an unterminated multipart body`).toBe(400);
    const after = await listFiles(uploadsDir);
    for (const file of after.filter((f) => !before.includes(f))) {
      expect(file).toMatch(/^(eventImg|userImg)\/[0-9a-f-]{36}\.webp$/);
    }
  });
});

it('finds the upload routes', () => {
  expect(present.length).toBeGreaterThan(0);
});
