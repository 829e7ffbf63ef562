import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { en } from '../../../contracts/i18n/en';
import { UPLOAD_GRACE_MS } from '../../plugins/uploads';
import { rememberedUploads } from '../../test/admin-fixtures';
import { setupTestApp, statementsWaitForALock, type TestUser } from '../../test/helpers';
import { createAccountsService } from './service';
import { cookieOf, postJson } from './test-support';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

const s = en.signup;

function patchMe(user: TestUser | undefined, payload: Record<string, unknown>) {
  return ctx.request(user, { method: 'PATCH', url: '/api/me', payload });
}

function multipartBody(data: Buffer, filename = 'me.png', contentType = 'image/png', field = 'file') {
  const boundary = '----eventry-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

function uploadAvatar(user: TestUser | undefined, data: Buffer, filename?: string, type?: string, field = 'file') {
  const body = multipartBody(data, filename, type, field);
  return ctx.request(user, {
    method: 'POST',
    url: '/api/me/avatar',
    headers: { 'content-type': body.contentType },
    payload: body.payload,
  });
}

const png = (color = '#0d9488') =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
    .png()
    .toBuffer();

function fileOf(url: string): string {
  return path.join(ctx.config.dataDir, url.replace(/^\/uploads\//, 'uploads/'));
}

describe('PATCH /api/me', () => {
  it('is 401 for anonymous visitors', async () => {
    const res = await patchMe(undefined, { firstName: 'Mona', lastName: 'Adel' });
    expect(res.statusCode).toBe(401);
  });

  it('saves the first and last name', async () => {
    const user = await ctx.createUser();
    const res = await patchMe(user, { firstName: 'Nour', lastName: 'El Sayed' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Nour', lastName: 'El Sayed', email: user.email, role: 'user' });
    const me = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(me.json()).toMatchObject({ firstName: 'Nour', lastName: 'El Sayed' });
  });

  it.each([
    ['firstName', { firstName: '' }, s.namesRequired],
    ['lastName', { lastName: 'Al' }, s.nameTooShort],
    ['firstName', { firstName: 'N0ur' }, s.nameLettersOnly],
    ['newPassword', { newPassword: 'Ab1' }, s.passwordTooShort],
    ['newPassword', { newPassword: 'lower123' }, s.passwordUppercase],
  ])('refuses a bad %s with the message of the spec (%j)', async (field, change, message) => {
    const user = await ctx.createUser();
    const res = await patchMe(user, { firstName: 'Nour', lastName: 'Adel', ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ [field]: message });
  });

  it('does not let the email or the role be changed', async () => {
    const user = await ctx.createUser();
    for (const extra of [{ email: 'new@example.com' }, { role: 'admin' }, { image: 'https://evil.example/x.png' }]) {
      const res = await patchMe(user, { firstName: 'Nour', lastName: 'Adel', ...extra });
      expect(res.statusCode).toBe(400);
    }
    const me = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(me.json()).toMatchObject({ email: user.email, role: 'user', imageUrl: null });
  });

  it('changes the password and ends the other sessions, keeping this one', async () => {
    const user = await ctx.createUser();
    const other = cookieOf(
      await postJson(ctx, '/api/auth/sign-in/email', { email: user.email, password: user.password }),
    );
    const res = await patchMe(user, { firstName: 'Test', lastName: 'User', newPassword: 'Changed789' });
    expect(res.statusCode).toBe(200);
    expect((await ctx.request(user, { method: 'GET', url: '/api/me' })).statusCode).toBe(200);
    const otherMe = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: other } });
    expect(otherMe.statusCode).toBe(401);
    const signIn = await postJson(ctx, '/api/auth/sign-in/email', { email: user.email, password: 'Changed789' });
    expect(signIn.statusCode).toBe(200);
  });

  it('answers 409, never 500, when PostgreSQL cancels the save to break a deadlock, and changes nothing', async () => {
    const user = await ctx.createUser();
    const other = cookieOf(
      await postJson(ctx, '/api/auth/sign-in/email', { email: user.email, password: user.password }),
    );
    // Another transaction holds the user's other session, so the save (which holds the user) waits to end
    // it; then that transaction asks for the user: each waits for the other, and PostgreSQL cancels the save.
    const blocker = await ctx.database.pool.connect();
    let res: Awaited<ReturnType<typeof patchMe>>;
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT id FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1 FOR UPDATE', [
        user.id,
      ]);
      const saving = patchMe(user, { firstName: 'Never', lastName: 'Saved', newPassword: 'Changed789' });
      await statementsWaitForALock(ctx);
      await blocker.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [user.id]);
      res = await saving;
      await blocker.query('ROLLBACK');
    } finally {
      blocker.release();
    }
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'TRANSACTION_COLLIDED' });
    const me = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(me.json()).toMatchObject({ firstName: 'Test', lastName: 'User' });
    const otherMe = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: other } });
    expect(otherMe.statusCode).toBe(200);
    const oldPassword = await postJson(ctx, '/api/auth/sign-in/email', { email: user.email, password: user.password });
    expect(oldPassword.statusCode).toBe(200);
  });
});

describe('POST /api/me/avatar', () => {
  it('takes at most 20 pictures a minute from one account, then a clear 429 that others do not share', async () => {
    const user = await ctx.createUser();
    const picture = await png();
    for (let i = 0; i < 20; i++) expect((await uploadAvatar(user, picture)).statusCode).toBe(200);
    const limited = await uploadAvatar(user, picture);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(limited.json().detail).toMatch(
      /^You have uploaded too many pictures\. Please wait \d+ seconds and try again\.$/,
    );
    // Another account, from the same address, has its own allowance.
    expect((await uploadAvatar(await ctx.createUser(), picture)).statusCode).toBe(200);
  });

  it('stores a re-encoded picture under userImg that becomes the picture only when the profile is saved', async () => {
    const user = await ctx.createUser();
    const me = async () => (await ctx.request(user, { method: 'GET', url: '/api/me' })).json();
    const first = await uploadAvatar(user, await png());
    expect(first.statusCode).toBe(200);
    const firstUrl = first.json().imageUrl as string;
    expect(firstUrl).toMatch(/^\/uploads\/userImg\/[0-9a-f-]{36}\.webp$/);
    expect(existsSync(fileOf(firstUrl))).toBe(true);
    const served = await ctx.app.inject({ method: 'GET', url: firstUrl });
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
    // Uploaded, not saved (the user may still press Cancel): the picture has not changed.
    expect((await me()).imageUrl).toBeNull();

    const saved = await patchMe(user, { firstName: 'Test', lastName: 'User', imageUrl: firstUrl });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().imageUrl).toBe(firstUrl);
    expect((await me()).imageUrl).toBe(firstUrl);

    // A second upload that is cancelled leaves the saved picture alone; the next upload removes it.
    const cancelled = (await uploadAvatar(user, await png('#f97316'))).json().imageUrl as string;
    expect((await me()).imageUrl).toBe(firstUrl);
    const third = (await uploadAvatar(user, await png('#7c3aed'))).json().imageUrl as string;
    expect(existsSync(fileOf(cancelled))).toBe(false);
    expect(existsSync(fileOf(firstUrl))).toBe(true);

    // Saving the third replaces the first, whose file goes.
    expect((await patchMe(user, { firstName: 'Test', lastName: 'User', imageUrl: third })).statusCode).toBe(200);
    expect((await me()).imageUrl).toBe(third);
    expect(existsSync(fileOf(firstUrl))).toBe(false);
    // Saving without imageUrl keeps the picture; null removes it.
    expect((await patchMe(user, { firstName: 'Test', lastName: 'User' })).json().imageUrl).toBe(third);
    expect((await patchMe(user, { firstName: 'Test', lastName: 'User', imageUrl: null })).json().imageUrl).toBeNull();
    expect(existsSync(fileOf(third))).toBe(false);
  });

  it("never lets a user take another user's upload, or any other address, as their picture", async () => {
    const [owner, thief] = await Promise.all([ctx.createUser(), ctx.createUser()]);
    const url = (await uploadAvatar(owner, await png())).json().imageUrl as string;
    for (const imageUrl of [url, '/uploads/eventImg/x.webp', 'https://evil.example/x.png', '../../etc/passwd']) {
      const res = await patchMe(thief, { firstName: 'Test', lastName: 'User', imageUrl });
      expect(res.statusCode, imageUrl).toBe(400);
      expect(res.json().errors).toEqual({ imageUrl: en.accounts.pictureNotUploaded });
    }
    expect((await ctx.request(thief, { method: 'GET', url: '/api/me' })).json().imageUrl).toBeNull();
    expect(existsSync(fileOf(url))).toBe(true);
  });

  it('is 401 for anonymous visitors', async () => {
    const res = await uploadAvatar(undefined, await png());
    expect(res.statusCode).toBe(401);
  });

  it('checks the content, not the name or the declared type', async () => {
    const user = await ctx.createUser();
    const res = await uploadAvatar(user, Buffer.from('<svg onload="alert(1)"></svg>'), 'me.png', 'image/png');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('INVALID_IMAGE');
  });

  it('says where the picture goes when the request carries none there, not that the image is bad', async () => {
    const user = await ctx.createUser();
    const misnamed = await uploadAvatar(user, await png(), 'me.png', 'image/png', 'avatar');
    expect(misnamed.statusCode).toBe(400);
    expect(misnamed.json()).toMatchObject({ code: 'UPLOAD_MISSING', detail: en.accounts.pictureMissing });
    const notMultipart = await ctx.request(user, { method: 'POST', url: '/api/me/avatar', payload: { image: 'x' } });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json()).toMatchObject({ code: 'UPLOAD_MISSING' });
  });

  it('refuses files over 5 MB with a clear 400', async () => {
    const user = await ctx.createUser();
    const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024 + 10, 1)]);
    const res = await uploadAvatar(user, big);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'FILE_TOO_LARGE', detail: en.accounts.pictureTooLarge });
  });

  it('removes a picture uploaded and never saved once the uploads grace period is over', async () => {
    const user = await ctx.createUser();
    const saved = (await uploadAvatar(user, await png())).json().imageUrl as string;
    expect((await patchMe(user, { firstName: 'Test', lastName: 'User', imageUrl: saved })).statusCode).toBe(200);
    const unsaved = (await uploadAvatar(user, await png('#f97316'))).json().imageUrl as string;

    await ctx.app.uploads.removeUnused(new Date(Date.now() + UPLOAD_GRACE_MS - 60_000));
    expect(existsSync(fileOf(unsaved))).toBe(true);
    await ctx.app.uploads.removeUnused(new Date(Date.now() + UPLOAD_GRACE_MS + 60_000));
    expect(existsSync(fileOf(unsaved))).toBe(false);
    expect(existsSync(fileOf(saved))).toBe(true);
    // The edit screen left open that long asks for the picture again.
    const late = await patchMe(user, { firstName: 'Test', lastName: 'User', imageUrl: unsaved });
    expect(late.statusCode).toBe(400);
    expect(late.json().errors).toEqual({ imageUrl: en.accounts.pictureNotUploaded });
  });

  it('removes an uploaded picture at once when the profile is saved without any picture', async () => {
    const user = await ctx.createUser();
    const saved = (await uploadAvatar(user, await png())).json().imageUrl as string;
    expect((await patchMe(user, { firstName: 'Test', lastName: 'User', imageUrl: saved })).statusCode).toBe(200);
    const unsaved = (await uploadAvatar(user, await png('#f97316'))).json().imageUrl as string;
    expect((await patchMe(user, { firstName: 'Test', lastName: 'User', imageUrl: null })).statusCode).toBe(200);
    expect(existsSync(fileOf(saved))).toBe(false);
    expect(existsSync(fileOf(unsaved))).toBe(false);
  });

  it('remembers the pictures a save drops in the save itself: a crash right after the commit leaves no file', async () => {
    const user = await ctx.createUser();
    const saved = (await uploadAvatar(user, await png())).json().imageUrl as string;
    expect((await patchMe(user, { firstName: 'Test', lastName: 'User', imageUrl: saved })).statusCode).toBe(200);
    const unsaved = (await uploadAvatar(user, await png('#f97316'))).json().imageUrl as string;
    // The job forgets the saved picture: the profile shows it.
    await ctx.app.uploads.removeUnused();
    expect(await rememberedUploads(ctx)).not.toContain(saved);

    const crashing = {
      ...ctx.app.uploads,
      discard: () => Promise.reject(new Error('the process stopped after the commit')),
    };
    const accounts = createAccountsService({ db: ctx.database.db, uploads: crashing, hashPassword: async () => '' });
    const removing = accounts.updateProfile(
      { userId: user.id, sessionId: 'this-session' },
      { firstName: 'Test', lastName: 'User', imageUrl: null },
    );
    await expect(removing).rejects.toThrow('stopped');
    expect(await rememberedUploads(ctx)).toEqual(expect.arrayContaining([saved, unsaved]));
    expect(existsSync(fileOf(saved))).toBe(true);

    await ctx.app.uploads.removeUnused(new Date(Date.now() + UPLOAD_GRACE_MS + 60_000));
    expect(existsSync(fileOf(saved))).toBe(false);
    expect(existsSync(fileOf(unsaved))).toBe(false);
  });

  it('refuses a request that is not multipart', async () => {
    const user = await ctx.createUser();
    const res = await ctx.request(user, { method: 'POST', url: '/api/me/avatar', payload: { image: 'x' } });
    expect(res.statusCode).toBe(400);
  });
});
