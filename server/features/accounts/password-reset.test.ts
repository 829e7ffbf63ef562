import { eq, like } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { en } from '../../../contracts/i18n/en';
import { emailOutbox, verifications } from '../../db/schema';
import { setupTestApp } from '../../test/helpers';
import { EMAIL_LIMITS } from './service';
import { latestMail, nextAddress, pathOf, postJson, uniqueEmail } from './test-support';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

const REQUEST = '/api/auth/request-password-reset';
const RESET = '/api/auth/reset-password';

/** Asks for a reset link and follows it like a browser: returns the token the web page receives. */
async function resetTokenFor(email: string): Promise<string> {
  const res = await postJson(ctx, REQUEST, { email });
  expect(res.statusCode).toBe(200);
  const mail = await latestMail(ctx, email, 'password-reset');
  const open = await ctx.app.inject({ method: 'GET', url: pathOf(mail?.link as string) });
  expect(open.statusCode).toBe(302);
  const target = new URL(open.headers.location as string);
  expect(target.pathname).toBe('/reset-password');
  return target.searchParams.get('token') as string;
}

/** A reset with `token` (and a valid new password), answered as a wrong or spent link. */
async function expectRefusedToken(token: string): Promise<void> {
  const res = await postJson(ctx, RESET, { token, newPassword: 'Fresh456' });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN', detail: en.accounts.invalidResetLink });
}

describe('password reset', () => {
  it('emails a link that opens /reset-password and sets a new password', async () => {
    const user = await ctx.createUser();
    const token = await resetTokenFor(user.email);
    const res = await postJson(ctx, RESET, { token, newPassword: 'Fresh456' });
    expect(res.statusCode).toBe(200);
    const oldPassword = await postJson(ctx, '/api/auth/sign-in/email', { email: user.email, password: user.password });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await postJson(ctx, '/api/auth/sign-in/email', { email: user.email, password: 'Fresh456' });
    expect(newPassword.statusCode).toBe(200);
  });

  it('ends the sessions that existed before the reset', async () => {
    const user = await ctx.createUser();
    const token = await resetTokenFor(user.email);
    expect((await postJson(ctx, RESET, { token, newPassword: 'Fresh456' })).statusCode).toBe(200);
    expect((await ctx.request(user, { method: 'GET', url: '/api/me' })).statusCode).toBe(401);
  });

  it('works once', async () => {
    const user = await ctx.createUser();
    const token = await resetTokenFor(user.email);
    expect((await postJson(ctx, RESET, { token, newPassword: 'Fresh456' })).statusCode).toBe(200);
    await expectRefusedToken(token);
  });

  it('expires', async () => {
    const user = await ctx.createUser();
    const token = await resetTokenFor(user.email);
    await ctx.database.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.identifier, `reset-password:${token}`));
    await expectRefusedToken(token);
    // The emailed link itself now leads to the page with an error instead of a token.
    const mail = await latestMail(ctx, user.email, 'password-reset');
    const open = await ctx.app.inject({ method: 'GET', url: pathOf(mail?.link as string) });
    expect(open.statusCode).toBe(302);
    expect(open.headers.location).toMatch(/\/reset-password\?error=INVALID_TOKEN$/);
  });

  it('refuses a made-up token', async () => {
    await expectRefusedToken('not-a-real-token');
  });

  it.each(['\u0000', 'a\u0000b', 'tok en', 'jeton-é'])(
    'answers a token no link could carry (%j) as a wrong one',
    (token) => expectRefusedToken(token),
  );

  it('still takes a real token after a NUL byte was tried', async () => {
    const user = await ctx.createUser();
    const token = await resetTokenFor(user.email);
    await expectRefusedToken(`${token}\u0000`);
    expect((await postJson(ctx, RESET, { token, newPassword: 'Fresh456' })).statusCode).toBe(200);
  });

  it('opens the reset page from a link whose query string was cut off', async () => {
    const user = await ctx.createUser();
    await postJson(ctx, REQUEST, { email: user.email });
    const mail = await latestMail(ctx, user.email, 'password-reset');
    const open = await ctx.app.inject({ method: 'GET', url: new URL(mail?.link as string).pathname });
    expect(open.statusCode).toBe(302);
    const target = new URL(open.headers.location as string);
    expect(target.pathname).toBe('/reset-password');
    const token = target.searchParams.get('token') as string;
    expect((await postJson(ctx, RESET, { token, newPassword: 'Fresh456' })).statusCode).toBe(200);
  });

  it.each([
    [{ newPassword: '' }, en.signup.fieldRequired],
    [{ newPassword: 'Ab1' }, en.signup.passwordTooShort],
    [{ newPassword: 'lower123' }, en.signup.passwordUppercase],
  ])('checks the new password with the sign-up rules (%j)', async (change, message) => {
    const res = await postJson(ctx, RESET, { token: 'whatever', ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ newPassword: message });
  });

  it('refuses oversized tokens and unexpected fields', async () => {
    expect((await postJson(ctx, RESET, { token: 'x'.repeat(2000), newPassword: 'Fresh456' })).statusCode).toBe(400);
    expect((await postJson(ctx, RESET, { token: 'x', newPassword: 'Fresh456', userId: '1' })).statusCode).toBe(400);
  });

  it('ignores a redirect chosen by the caller', async () => {
    const user = await ctx.createUser();
    await postJson(ctx, REQUEST, { email: user.email, redirectTo: 'https://evil.example/steal' });
    const mail = await latestMail(ctx, user.email, 'password-reset');
    expect(mail?.link).not.toContain('evil');
    expect(decodeURIComponent(mail?.link as string)).toContain('callbackURL=/reset-password');
  });
});

describe('no account enumeration', () => {
  it('answers a registered and an unknown address identically, and mails only the registered one', async () => {
    const user = await ctx.createUser();
    const unknown = uniqueEmail('nobody');
    const known = await postJson(ctx, REQUEST, { email: user.email });
    const missing = await postJson(ctx, REQUEST, { email: unknown });
    expect(missing.statusCode).toBe(known.statusCode);
    expect(missing.body).toBe(known.body);
    expect(missing.headers['content-type']).toBe(known.headers['content-type']);
    expect(await latestMail(ctx, user.email, 'password-reset')).toBeDefined();
    const mails = await ctx.database.db.select().from(emailOutbox).where(like(emailOutbox.to, unknown));
    expect(mails).toHaveLength(0);
  });

  it('rate-limits per email whether or not the address is registered', async () => {
    const user = await ctx.createUser();
    const unknown = uniqueEmail('nobody');
    for (const email of [user.email, unknown]) {
      for (let i = 0; i < EMAIL_LIMITS.passwordReset.max; i++) {
        expect((await postJson(ctx, REQUEST, { email })).statusCode).toBe(200);
      }
      const res = await postJson(ctx, REQUEST, { email }, { address: nextAddress() });
      expect(res.statusCode).toBe(429);
      expect(res.json().detail).toBe(en.accounts.rateLimited);
    }
  });

  it('needs a valid email', async () => {
    const res = await postJson(ctx, REQUEST, { email: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ email: en.login.emailInvalid });
  });
});
