import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../contracts/i18n/all';
import type { Storage } from '../../plugins/storage';
import { createUploads, MAX_FAILURES_IN_A_ROW, UPLOAD_GRACE_MS, UPLOADS_JOB } from '../../plugins/uploads';
import {
  afterGrace,
  makeImage,
  multipartBody,
  rememberedUploads,
  served,
  uploadImage,
  validEventBody,
} from '../../test/admin-fixtures';
import { connectionStates, setupTestApp, statementsWaitForALock, type TestUser } from '../../test/helpers';
import { createAdminService } from './service';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

const adminMessages = MESSAGES.en.admin;

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
    // A folder is not listed, and the problem's code says so.
    const folder = await ctx.app.inject({ method: 'GET', url: '/uploads/eventImg/' });
    expect(folder.statusCode).toBe(403);
    expect(folder.json()).toMatchObject({ status: 403, code: 'FORBIDDEN' });
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

  it('refuses a request without a file, or with the file in another field than "file"', async () => {
    const before = await filesInDataDir();
    const json = await ctx.request(admin, { method: 'POST', url: '/api/admin/uploads', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('UPLOAD_MISSING');
    const elsewhere = await ctx.request(admin, {
      method: 'POST',
      url: '/api/admin/uploads',
      ...multipartBody(await makeImage('png'), 'poster.png', 'image/png', 'image'),
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({ code: 'UPLOAD_MISSING', detail: adminMessages.uploadMissing });
    expect(await filesInDataDir()).toEqual(before);
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

describe('unused uploads', () => {
  beforeEach(async () => {
    // Nothing older for the job to remove: earlier tests leave unused uploads behind.
    await ctx.app.uploads.removeUnused(afterGrace());
  });

  /**
   * Starts a run of the job (a day from now) over a storage whose first removal waits until `release` is
   * called; resolves once the run has got there, holding that upload's row.
   */
  async function runPausedAtFirstRemoval() {
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const atRemoval = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let paused = false;
    const storage: Storage = {
      ...ctx.app.storage,
      async remove(url) {
        if (!paused) {
          paused = true;
          reached();
          await gate;
        }
        return ctx.app.storage.remove(url);
      },
    };
    const run = createUploads({ db: ctx.database.db, storage, log: ctx.app.log }).removeUnused(afterGrace());
    await atRemoval;
    return { run, release };
  }

  /** A storage whose `remove` fails for the URLs `fails` accepts, counting the attempts. */
  function storageFailingFor(fails: (url: string) => boolean) {
    const attempts: string[] = [];
    const storage: Storage = {
      ...ctx.app.storage,
      async remove(url) {
        attempts.push(url as string);
        if (fails(url as string)) throw new Error('bucket unavailable');
        return ctx.app.storage.remove(url);
      },
    };
    return { attempts, job: createUploads({ db: ctx.database.db, storage, log: ctx.app.log }) };
  }

  function createEvent(imageUrl: string) {
    return ctx.request(admin, { method: 'POST', url: '/api/admin/events', payload: validEventBody(ctx, imageUrl) });
  }

  it('removes an upload no event shows once the grace period is over, and forgets it', async () => {
    const url = await uploadImage(ctx, admin);
    const copy = url.replace('/uploads/', '/uploads/w800/');
    expect(await served(ctx, copy)).toBe(200);
    expect(await rememberedUploads(ctx)).toContain(url);

    // A day is not over yet: the admin may still be filling in the form.
    await ctx.app.uploads.removeUnused(new Date(Date.now() + UPLOAD_GRACE_MS - 60_000));
    expect(await served(ctx, url)).toBe(200);

    const run = await ctx.app.uploads.removeUnused(afterGrace());
    expect(run.removed).toBeGreaterThanOrEqual(1);
    expect(await served(ctx, url)).toBe(404);
    expect(await served(ctx, copy)).toBe(404);
    expect(await rememberedUploads(ctx)).not.toContain(url);
    // Saving the form afterwards asks for the picture again instead of showing a missing one.
    const late = await createEvent(url);
    expect(late.statusCode).toBe(400);
    expect(late.json().errors).toEqual({ imageUrl: adminMessages.imageInvalid });
  });

  it('keeps a fresh upload', async () => {
    const url = await uploadImage(ctx, admin);
    await ctx.app.uploads.removeUnused();
    expect(await served(ctx, url)).toBe(200);
    expect(await rememberedUploads(ctx)).toContain(url);
  });

  it('never removes a picture an event shows, deleted events included, and forgets its row', async () => {
    const used = await uploadImage(ctx, admin);
    const first = await createEvent(used);
    expect(first.statusCode).toBe(201);
    expect(await rememberedUploads(ctx)).not.toContain(used);
    // A second event shows the same picture; the first moves to another one and hands it back.
    const second = await createEvent(used);
    expect(second.statusCode).toBe(201);
    const other = await uploadImage(ctx, admin);
    const edited = await ctx.request(admin, {
      method: 'PUT',
      url: `/api/admin/events/${first.json().id}`,
      payload: validEventBody(ctx, other),
    });
    expect(edited.statusCode).toBe(200);
    expect(await served(ctx, used)).toBe(200);
    expect(await rememberedUploads(ctx)).toContain(used);

    const deleted = await ctx.request(admin, { method: 'DELETE', url: `/api/admin/events/${second.json().id}` });
    expect(deleted.statusCode).toBe(204);
    const run = await ctx.app.uploads.removeUnused(afterGrace());
    expect(run.forgotten).toBeGreaterThanOrEqual(1);
    expect(await served(ctx, used)).toBe(200);
    expect(await served(ctx, other)).toBe(200);
    expect(await rememberedUploads(ctx)).not.toContain(used);
  });

  it('refuses at once an event saved while the job removes its picture, holding no lock while the storage works', async () => {
    const url = await uploadImage(ctx, admin);
    const { run, release } = await runPausedAtFirstRemoval();
    try {
      // The storage is busy (a slow bucket): the job holds no transaction, so no save waits for it.
      expect(await connectionStates(ctx)).toEqual({ waiting: 0, inTransaction: 0 });
      const saved = await createEvent(url);
      expect(saved.statusCode).toBe(400);
      expect(saved.json().errors).toEqual({ imageUrl: adminMessages.imageInvalid });
    } finally {
      release();
    }
    expect((await run).removed).toBe(1);
    expect(await served(ctx, url)).toBe(404);
    expect(await rememberedUploads(ctx)).not.toContain(url);
  });

  it('waits for the mark of a removal, then refuses the event saved meanwhile', async () => {
    const url = await uploadImage(ctx, admin);
    // The job is deciding: it holds the row, as it does for the moment it checks nothing shows the file.
    const job = await ctx.database.pool.connect();
    try {
      await job.query('BEGIN');
      await job.query('SELECT 1 FROM uploads WHERE url = $1 FOR UPDATE', [url]);
      const saving = createEvent(url);
      await statementsWaitForALock(ctx);
      await job.query('UPDATE uploads SET removal_tried_at = now() WHERE url = $1', [url]);
      await job.query('COMMIT');
      const saved = await saving;
      expect(saved.statusCode).toBe(400);
      expect(saved.json().errors).toEqual({ imageUrl: adminMessages.imageInvalid });
    } finally {
      job.release();
    }
    expect((await ctx.app.uploads.removeUnused()).removed).toBe(1);
    expect(await served(ctx, url)).toBe(404);
  });

  it('never hands out an upload whose removal failed halfway: the next run finishes it', async () => {
    const url = await uploadImage(ctx, admin);
    // The file is gone, then the storage fails (its 800 px copy could not be deleted, or the process died).
    const halfway: Storage = {
      ...ctx.app.storage,
      async remove(target) {
        await ctx.app.storage.remove(target);
        throw new Error('could not delete the 800 px copy');
      },
    };
    const job = createUploads({ db: ctx.database.db, storage: halfway, log: ctx.app.log });
    expect((await job.removeUnused(afterGrace())).removed).toBe(0);
    expect(await served(ctx, url)).toBe(404);
    expect(await rememberedUploads(ctx)).toContain(url);
    // A form still holding that picture is asked for it again, never saved with a missing file.
    const late = await createEvent(url);
    expect(late.statusCode).toBe(400);
    expect(late.json().errors).toEqual({ imageUrl: adminMessages.imageInvalid });

    // Marked, it is tried again whatever its age, and forgotten once removed.
    expect((await ctx.app.uploads.removeUnused()).removed).toBe(1);
    expect(await rememberedUploads(ctx)).not.toContain(url);
  });

  it("keeps a picture an event took between the job's query and its removal", async () => {
    const unused = await uploadImage(ctx, admin);
    const taken = await uploadImage(ctx, admin);
    // The job has listed both (the older first) and is removing the first when the event is saved.
    const { run, release } = await runPausedAtFirstRemoval();
    const saved = await createEvent(taken);
    expect(saved.statusCode).toBe(201);
    release();
    expect((await run).removed).toBe(1);
    expect(await served(ctx, unused)).toBe(404);
    expect(await served(ctx, taken)).toBe(200);
    expect(await rememberedUploads(ctx)).not.toContain(taken);
  });

  it('keeps an upload whose file the storage failed to remove, and removes it on the next run', async () => {
    const url = await uploadImage(ctx, admin);
    const failing: Storage = {
      ...ctx.app.storage,
      async remove() {
        throw new Error('disk unavailable');
      },
    };
    const job = createUploads({ db: ctx.database.db, storage: failing, log: ctx.app.log });
    expect(await ctx.app.scheduler.runNow(UPLOADS_JOB, () => job.removeUnused(afterGrace()))).toBe(true);
    expect(await served(ctx, url)).toBe(200);
    expect(await rememberedUploads(ctx)).toContain(url);

    expect((await ctx.app.uploads.removeUnused(afterGrace())).removed).toBe(1);
    expect(await served(ctx, url)).toBe(404);
  });

  it('goes on past a file it cannot remove, which queues behind the others', async () => {
    const stuck = await uploadImage(ctx, admin);
    const later = await uploadImage(ctx, admin);
    const { attempts, job } = storageFailingFor((url) => url === stuck);
    expect((await job.removeUnused(afterGrace())).removed).toBe(1);
    expect(attempts).toEqual([stuck, later]);
    expect(await served(ctx, stuck)).toBe(200);
    expect(await served(ctx, later)).toBe(404);
    expect(await rememberedUploads(ctx)).toContain(stuck);
  });

  it(`stops a run after ${MAX_FAILURES_IN_A_ROW} failures in a row; the next run starts with the files not tried`, async () => {
    const urls: string[] = [];
    for (let i = 0; i < MAX_FAILURES_IN_A_ROW + 2; i++) urls.push(await uploadImage(ctx, admin));
    const unreachable = storageFailingFor(() => true);
    expect((await unreachable.job.removeUnused(afterGrace())).removed).toBe(0);
    expect(unreachable.attempts).toEqual(urls.slice(0, MAX_FAILURES_IN_A_ROW));

    // The files that failed keep failing: the two never tried go first, then the failures end the run again.
    const failed = new Set(urls.slice(0, MAX_FAILURES_IN_A_ROW));
    const partly = storageFailingFor((url) => failed.has(url));
    expect((await partly.job.removeUnused(afterGrace())).removed).toBe(2);
    expect(partly.attempts).toEqual([...urls.slice(MAX_FAILURES_IN_A_ROW), ...failed]);
    for (const url of urls) expect(await served(ctx, url)).toBe(failed.has(url) ? 200 : 404);

    // Once the storage answers again, they go too.
    expect((await ctx.app.uploads.removeUnused()).removed).toBe(MAX_FAILURES_IN_A_ROW);
    for (const url of urls) expect(await served(ctx, url)).toBe(404);
  });

  it('remembers a replaced picture in the edit itself: a crash right after the commit leaves no file behind', async () => {
    const before = await uploadImage(ctx, admin);
    const created = await createEvent(before);
    expect(created.statusCode).toBe(201);
    const after = await uploadImage(ctx, admin);
    const crashing = {
      ...ctx.app.uploads,
      discard: () => Promise.reject(new Error('the process stopped after the commit')),
    };
    const service = createAdminService({ db: ctx.database.db, uploads: crashing, timeZone: ctx.config.timeZone });
    await expect(service.updateEvent(created.json().id, validEventBody(ctx, after))).rejects.toThrow('stopped');
    expect(await rememberedUploads(ctx)).toContain(before);
    expect(await served(ctx, before)).toBe(200);

    await ctx.app.uploads.removeUnused(afterGrace());
    expect(await served(ctx, before)).toBe(404);
    expect(await served(ctx, after)).toBe(200);
  });

  it('tells a form filled in before another edit that the event changed, even if its picture is gone', async () => {
    const first = await uploadImage(ctx, admin);
    const created = await createEvent(first);
    const { id, version } = created.json() as { id: string; version: number };
    const edit = (imageUrl: string) =>
      ctx.request(admin, {
        method: 'PUT',
        url: `/api/admin/events/${id}`,
        headers: { 'if-match': `"${version}"` },
        payload: validEventBody(ctx, imageUrl),
      });
    // Another admin replaces the picture: its file goes at once.
    expect((await edit(await uploadImage(ctx, admin))).statusCode).toBe(200);
    expect(await served(ctx, first)).toBe(404);
    // The first admin's form, still showing that picture, is out of date: that is what they must hear.
    const stale = await edit(first);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'EVENT_CHANGED', detail: adminMessages.eventChanged });
  });

  it('answers 409, never 500, to one of two admins swapping pictures between two events at the same moment', async () => {
    const [x, y] = [await uploadImage(ctx, admin), await uploadImage(ctx, admin)];
    const one = (await createEvent(x)).json().id as string;
    const two = (await createEvent(y)).json().id as string;
    // Both pictures are remembered (as after an edit that replaced them elsewhere), and the job is forgetting
    // them: both saves wait for it, each holding its own event, then each needs the other's event.
    await ctx.database.pool.query('INSERT INTO uploads (url) VALUES ($1), ($2)', [x, y]);
    const job = await ctx.database.pool.connect();
    let answers: number[];
    let codes: string[];
    try {
      await job.query('BEGIN');
      await job.query('DELETE FROM uploads WHERE url IN ($1, $2)', [x, y]);
      const saves = [
        ctx.request(admin, { method: 'PUT', url: `/api/admin/events/${one}`, payload: validEventBody(ctx, y) }),
        ctx.request(admin, { method: 'PUT', url: `/api/admin/events/${two}`, payload: validEventBody(ctx, x) }),
      ];
      await statementsWaitForALock(ctx, 2);
      await job.query('COMMIT');
      const results = await Promise.all(saves);
      answers = results.map((r) => r.statusCode).sort();
      codes = results.filter((r) => r.statusCode === 409).map((r) => r.json().code);
    } finally {
      job.release();
    }
    expect(answers).toEqual([200, 409]);
    expect(codes).toEqual(['SAVE_COLLIDED']);
  });
});
