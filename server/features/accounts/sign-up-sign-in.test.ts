import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { en } from '../../../contracts/i18n/en';
import { sessions, users } from '../../db/schema';
import { AUTH_IP_LIMITS } from '../../plugins/auth';
import { setupTestApp } from '../../test/helpers';
import { EMAIL_LIMITS } from './service';
import { cookieOf, latestMail, nextAddress, pathOf, postJson, uniqueEmail, validSignUp } from './test-support';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

const SIGN_UP = '/api/auth/sign-up/email';
const SIGN_IN = '/api/auth/sign-in/email';
const s = en.signup;
const l = en.login;

describe('sign-up', () => {
  it('creates a user, signs them in and queues a verification email', async () => {
    const body = validSignUp();
    const res = await postJson(ctx, SIGN_UP, body);
    expect(res.statusCode).toBe(200);
    const cookie = cookieOf(res);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json()).toMatchObject({
      email: body.email,
      firstName: 'Mona',
      lastName: 'Adel',
      role: 'user',
      emailVerified: false,
      imageUrl: null,
    });
    const mail = await latestMail(ctx, body.email, 'verification');
    expect(mail?.link).toContain('/api/auth/verify-email?token=');
  });

  it('stores the name as first + last and lowercases the email', async () => {
    const email = uniqueEmail('Upper').toUpperCase();
    const res = await postJson(ctx, SIGN_UP, { ...validSignUp(email), name: 'Someone Else' });
    expect(res.statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    expect(row).toMatchObject({ name: 'Mona Adel', role: 'user' });
  });

  it.each([
    ['firstName', { firstName: '' }, s.namesRequired],
    ['lastName', { lastName: '   ' }, s.namesRequired],
    ['firstName', { firstName: 'Al' }, s.nameTooShort],
    ['lastName', { lastName: 'Bo' }, s.nameTooShort],
    ['firstName', { firstName: 'Mona1' }, s.nameLettersOnly],
    ['lastName', { lastName: 'Adel<script>' }, s.nameLettersOnly],
    ['email', { email: '' }, s.fieldRequired],
    ['email', { email: 'mona@example' }, 'Email format: "name@example.com"'],
    ['email', { email: 'mona example@x.com' }, 'Email format: "name@example.com"'],
    ['password', { password: '' }, s.fieldRequired],
    ['password', { password: 'Ab1' }, s.passwordTooShort],
    ['password', { password: 'secret123' }, s.passwordUppercase],
    // Not text at all: said so, rather than called missing.
    ['password', { password: 12345678 }, 'Must be text'],
    ['firstName', { firstName: ['Mona'] }, 'Must be text'],
  ])('refuses a bad %s with the message of the spec (%j)', async (field, change, message) => {
    const res = await postJson(ctx, SIGN_UP, { ...validSignUp(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { [field]: message } });
  });

  it('reports every missing field at once', async () => {
    const res = await postJson(ctx, SIGN_UP, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      firstName: s.namesRequired,
      lastName: s.namesRequired,
      email: s.fieldRequired,
      password: s.fieldRequired,
    });
  });

  it('accepts names in any alphabet, with their accents and vowel marks', async () => {
    for (const [firstName, lastName] of [
      ['منى', 'عادل'],
      ['مُحَمَّد', 'عَلِي'],
      ['Jose\u0301', 'Núñez'],
    ]) {
      const res = await postJson(ctx, SIGN_UP, { ...validSignUp(), firstName, lastName });
      expect(res.statusCode, firstName).toBe(200);
    }
    const mark = await postJson(ctx, SIGN_UP, { ...validSignUp(), firstName: '\u0301Jose' });
    expect(mark.json()).toMatchObject({ errors: { firstName: s.nameLettersOnly } });
    // Two letters are too short, however many marks they carry.
    for (const firstName of ['مُحَ', 'Jo\u0301']) {
      const short = await postJson(ctx, SIGN_UP, { ...validSignUp(), firstName });
      expect(short.json(), firstName).toMatchObject({ errors: { firstName: s.nameTooShort } });
    }
  });

  it('accepts a password with accented letters after its uppercase first letter', async () => {
    for (const password of ['Sécret123', 'Ünïcode!', 'Écrit2026']) {
      const res = await postJson(ctx, SIGN_UP, { ...validSignUp(), password });
      expect(res.statusCode, password).toBe(200);
    }
    const spaced = await postJson(ctx, SIGN_UP, { ...validSignUp(), password: 'Secret 123' });
    expect(spaced.json()).toMatchObject({ errors: { password: s.passwordUppercase } });
  });

  it('refuses unexpected fields such as a role', async () => {
    const res = await postJson(ctx, SIGN_UP, { ...validSignUp(), role: 'admin' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });

  it('refuses oversized fields', async () => {
    const long = 'A'.repeat(300);
    for (const change of [
      { firstName: long },
      { email: `${'a'.repeat(250)}@example.com` },
      { password: `S${'a'.repeat(200)}` },
    ]) {
      const res = await postJson(ctx, SIGN_UP, { ...validSignUp(), ...change });
      expect(res.statusCode).toBe(400);
    }
  });

  it('refuses a body that is not an object', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: SIGN_UP,
      headers: { 'content-type': 'application/json' },
      payload: '["a"]',
      remoteAddress: nextAddress(),
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers a registered email with the spec message and a 409', async () => {
    const body = validSignUp();
    expect((await postJson(ctx, SIGN_UP, body)).statusCode).toBe(200);
    const again = await postJson(ctx, SIGN_UP, { ...body, email: body.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'EMAIL_TAKEN', detail: s.emailTaken, errors: { email: s.emailTaken } });
  });

  it('answers simultaneous sign-ups of one email (a double click) with one account and EMAIL_TAKEN for the rest', async () => {
    const body = validSignUp();
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => postJson(ctx, SIGN_UP, body, { address: `10.77.0.${i + 1}` })),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    for (const res of answers.filter((a) => a.statusCode === 409)) {
      expect(res.json()).toMatchObject({ code: 'EMAIL_TAKEN', detail: s.emailTaken, errors: { email: s.emailTaken } });
    }
    const rows = await ctx.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, body.email.toLowerCase()));
    expect(rows).toHaveLength(1);
  });
});

describe('sign-in', () => {
  it('signs in with the right password and sets a safe session cookie', async () => {
    const user = await ctx.createUser();
    const res = await postJson(ctx, SIGN_IN, { email: user.email, password: user.password });
    expect(res.statusCode).toBe(200);
    const setCookie = [res.headers['set-cookie']].flat().join('\n');
    expect(setCookie).toMatch(/eventry\.session_token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
  });

  it('starts a new session at every sign-in', async () => {
    const user = await ctx.createUser();
    const first = cookieOf(await postJson(ctx, SIGN_IN, { email: user.email, password: user.password }));
    const second = cookieOf(
      await postJson(ctx, SIGN_IN, { email: user.email, password: user.password }, { cookie: first }),
    );
    expect(second).not.toBe(first);
    const rows = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const user = await ctx.createUser();
    const wrong = await postJson(ctx, SIGN_IN, { email: user.email, password: 'Wrong123' });
    const unknown = await postJson(ctx, SIGN_IN, { email: uniqueEmail('ghost'), password: 'Wrong123' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', detail: l.wrongCredentials });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it.each([
    ['email', { email: '' }, l.emailRequired],
    ['email', { email: 'not-an-email' }, l.emailInvalid],
    ['email', { email: 'a@b.c' }, l.emailInvalid],
    ['password', { password: '' }, l.passwordRequired],
  ])('refuses a bad %s with the message of the spec (%j)', async (field, change, message) => {
    const res = await postJson(ctx, SIGN_IN, { email: 'mona@example.com', password: 'Secret123', ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ [field]: message });
  });

  it('refuses unexpected fields', async () => {
    const res = await postJson(ctx, SIGN_IN, { email: 'mona@example.com', password: 'Secret123', admin: true });
    expect(res.statusCode).toBe(400);
  });

  it('signs out', async () => {
    const user = await ctx.createUser();
    const out = await postJson(ctx, '/api/auth/sign-out', {}, { cookie: user.cookie });
    expect(out.statusCode).toBe(200);
    const me = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(me.statusCode).toBe(401);
  });
});

describe('email verification', () => {
  it('verifies the address when the emailed link is opened, then goes to / with ?verified=1', async () => {
    const body = validSignUp();
    const cookie = cookieOf(await postJson(ctx, SIGN_UP, body));
    const mail = await latestMail(ctx, body.email, 'verification');
    const open = await ctx.app.inject({ method: 'GET', url: pathOf(mail?.link as string) });
    expect(open.statusCode).toBe(302);
    expect(open.headers.location).toBe('/?verified=1');
    // Opening the link does not sign anyone in.
    expect(open.headers['set-cookie']).toBeUndefined();
    const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json().emailVerified).toBe(true);
  });

  it('sends a tampered link back with an error instead of verifying', async () => {
    const body = validSignUp();
    const cookie = cookieOf(await postJson(ctx, SIGN_UP, body));
    const mail = await latestMail(ctx, body.email, 'verification');
    const url = new URL(mail?.link as string);
    url.searchParams.set('token', `${url.searchParams.get('token')}x`);
    const open = await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(open.statusCode).toBe(302);
    expect(open.headers.location).toMatch(/^\/\?verified=1&error=/);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json().emailVerified).toBe(false);
  });

  it('resends the link to a signed-in unverified user only', async () => {
    const body = validSignUp();
    const cookie = cookieOf(await postJson(ctx, SIGN_UP, body));
    const anonymous = await postJson(ctx, '/api/auth/send-verification-email', { email: body.email });
    expect(anonymous.statusCode).toBe(401);
    const other = await postJson(ctx, '/api/auth/send-verification-email', { email: 'x@example.com' }, { cookie });
    expect(other.statusCode).toBe(400);
    const before = (await latestMail(ctx, body.email, 'verification'))?.id ?? 0;
    const res = await postJson(ctx, '/api/auth/send-verification-email', { email: body.email }, { cookie });
    expect(res.statusCode).toBe(200);
    expect((await latestMail(ctx, body.email, 'verification'))?.id).toBeGreaterThan(before);
  });
});

describe('the better-auth surface', () => {
  it('answers endpoints the product does not use with 404', async () => {
    const user = await ctx.createUser();
    for (const path of ['/api/auth/update-user', '/api/auth/change-email', '/api/auth/delete-user']) {
      const res = await postJson(ctx, path, { name: 'Hacker' }, { cookie: user.cookie });
      expect(res.statusCode).toBe(404);
    }
    const list = await ctx.request(user, { method: 'GET', url: '/api/auth/list-sessions' });
    expect(list.statusCode).toBe(404);
  });
});

describe('rate limits', () => {
  it('limits sign-in attempts per IP address with a clear 429', async () => {
    const address = nextAddress();
    const max = AUTH_IP_LIMITS['/sign-in/email'].max;
    for (let i = 0; i < max; i++) {
      const res = await postJson(ctx, SIGN_IN, { email: uniqueEmail('ip'), password: 'Wrong123' }, { address });
      expect(res.statusCode).toBe(401);
    }
    const res = await postJson(ctx, SIGN_IN, { email: uniqueEmail('ip'), password: 'Wrong123' }, { address });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', detail: en.accounts.rateLimited });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits sign-up attempts per IP address', async () => {
    const address = nextAddress();
    for (let i = 0; i < AUTH_IP_LIMITS['/sign-up/email'].max; i++) {
      expect((await postJson(ctx, SIGN_UP, validSignUp(), { address })).statusCode).toBe(200);
    }
    expect((await postJson(ctx, SIGN_UP, validSignUp(), { address })).statusCode).toBe(429);
  });

  /** A sign-in from `address` (a new one unless given). */
  const signInFrom = (email: string, password: string, address = nextAddress()) =>
    postJson(ctx, SIGN_IN, { email, password }, { address });

  it('limits failed sign-ins per email from one address, even with the right password, but not the owner elsewhere', async () => {
    const user = await ctx.createUser();
    const guesser = nextAddress();
    for (let i = 0; i < EMAIL_LIMITS.signInFailures.max; i++) {
      expect((await signInFrom(user.email, 'Wrong123', guesser)).statusCode).toBe(401);
    }
    const blocked = await signInFrom(user.email, user.password, guesser);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED', detail: en.accounts.rateLimited });
    // The owner, from their own address, still signs in.
    expect((await signInFrom(user.email, user.password)).statusCode).toBe(200);
  });

  it('limits failed sign-ins per email spread over many addresses', async () => {
    const user = await ctx.createUser();
    const perAddress = EMAIL_LIMITS.signInFailures.max;
    let address = nextAddress();
    for (let i = 0; i < EMAIL_LIMITS.signInFailuresAnyAddress.max; i++) {
      if (i % perAddress === 0) address = nextAddress();
      expect((await signInFrom(user.email, 'Wrong123', address)).statusCode).toBe(401);
    }
    expect((await signInFrom(user.email, user.password)).statusCode).toBe(429);
    // Fifty password checks (scrypt, on purpose slow) take over 30 s on a loaded 2-core machine.
  }, 120_000);

  it('does not count successful sign-ins against the email', async () => {
    const user = await ctx.createUser();
    for (let i = 0; i < EMAIL_LIMITS.signInFailures.max + 2; i++) {
      expect((await postJson(ctx, SIGN_IN, { email: user.email, password: user.password })).statusCode).toBe(200);
    }
  });
});

describe('secure cookies', () => {
  it('marks the session cookie Secure when APP_URL is https', async () => {
    const secure = await setupTestApp({ config: { appUrl: 'https://tickets.example.com' } });
    try {
      const res = await postJson(secure, SIGN_UP, validSignUp());
      expect(res.statusCode).toBe(200);
      const setCookie = [res.headers['set-cookie']].flat().join('\n');
      expect(setCookie).toMatch(/__Secure-eventry\.session_token=/);
      expect(setCookie).toMatch(/; Secure/i);
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
    } finally {
      await secure.close();
    }
  });
});
