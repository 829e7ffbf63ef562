import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ar } from '../../../contracts/i18n/ar';
import { en } from '../../../contracts/i18n/en';
import { users } from '../../db/schema';
import { setupTestApp } from '../../test/helpers';
import { cookieOf, nextAddress, uniqueEmail, validSignUp } from './test-support';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

const SIGN_UP = '/api/auth/sign-up/email';
const SIGN_IN = '/api/auth/sign-in/email';
const LANGUAGE = '/api/me/language';

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers,
    remoteAddress: nextAddress(),
  });
}

async function languageOf(email: string) {
  const [row] = await ctx.database.db.select({ language: users.language }).from(users).where(eq(users.email, email));
  return row?.language;
}

/** The Set-Cookie header of a response that names the language cookie. */
function langCookieOf(res: { headers: Record<string, unknown> }): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return (list as string[]).find((cookie) => cookie.startsWith('lang='));
}

describe("the user's language", () => {
  it('follows the language switch of a signed-in user, and the switch changes no one else', async () => {
    const user = await ctx.createUser();
    const other = await ctx.createUser();
    const res = await ctx.request(user, { method: 'GET', url: '/api/language/ar?to=/profile' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/profile');
    expect(await languageOf(user.email)).toBe('ar');
    expect(await languageOf(other.email)).toBeNull();
    await ctx.request(user, { method: 'GET', url: '/api/language/en' });
    expect(await languageOf(user.email)).toBe('en');
    // A visitor's switch only sets the cookie.
    const visitor = await ctx.app.inject({ method: 'GET', url: '/api/language/ar' });
    expect(visitor.statusCode).toBe(303);
  });

  it('is kept in the users table: null, en or ar, and nothing else', async () => {
    const user = await ctx.createUser();
    expect(await languageOf(user.email)).toBeNull();
    await ctx.database.db.update(users).set({ language: 'ar' }).where(eq(users.id, user.id));
    expect(await languageOf(user.email)).toBe('ar');
    const me = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(me.json()).toMatchObject({ email: user.email, language: 'ar' });
    await expect(
      ctx.database.pool.query(`UPDATE users SET language = 'fr' WHERE id = $1`, [user.id]),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('is null in GET /api/me until the user has one, and comes back from PATCH /api/me', async () => {
    const user = await ctx.createUser();
    const me = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(me.json()).toMatchObject({ language: null });
    const patched = await ctx.request(user, {
      method: 'PATCH',
      url: '/api/me',
      payload: { firstName: 'Mona', lastName: 'Adel' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ language: null });
  });
});

describe('PUT /api/me/language', () => {
  it('refuses a visitor with 401, whatever the body', async () => {
    for (const payload of [{ language: 'ar' }, { language: 'fr' }, {}]) {
      const res = await ctx.app.inject({ method: 'PUT', url: LANGUAGE, payload });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  it.each([
    [{ language: 'fr' }],
    [{ language: 'AR' }],
    [{ language: null }],
    [{}],
    [{ language: 'ar', role: 'admin' }],
  ])('refuses the body %j with 400', async (payload) => {
    const user = await ctx.createUser();
    const res = await ctx.request(user, { method: 'PUT', url: LANGUAGE, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await languageOf(user.email)).toBeNull();
  });

  it('saves the language (204), shows it in GET /api/me and sets this browser to it', async () => {
    const user = await ctx.createUser();
    const res = await ctx.request(user, { method: 'PUT', url: LANGUAGE, payload: { language: 'ar' } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(langCookieOf(res)).toBe('lang=ar; Path=/; Max-Age=31536000; SameSite=Lax');
    expect(await languageOf(user.email)).toBe('ar');
    const me = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(me.json()).toMatchObject({ language: 'ar' });

    const back = await ctx.request(user, { method: 'PUT', url: LANGUAGE, payload: { language: 'en' } });
    expect(back.statusCode).toBe(204);
    expect(await languageOf(user.email)).toBe('en');
  });

  it('answers a bad body in the language of the request', async () => {
    const user = await ctx.createUser();
    const headers = { cookie: `${user.cookie}; lang=ar` };
    const res = await ctx.app.inject({ method: 'PUT', url: LANGUAGE, headers, payload: { language: 'fr' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ language: ar.accounts.languageInvalid });
  });
});

describe('sign-up', () => {
  it.each([
    ['the language cookie', { cookie: 'lang=ar' }, 'ar'],
    ["the browser's preference", { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.8' }, 'ar'],
    ['the cookie over the preference', { cookie: 'lang=en', 'accept-language': 'ar' }, 'en'],
    ['nothing (English)', {}, 'en'],
  ] as const)("stores the request's language, from %s", async (_from, headers, language) => {
    const body = validSignUp();
    const res = await post(SIGN_UP, body, headers);
    expect(res.statusCode).toBe(200);
    expect(await languageOf(body.email)).toBe(language);
  });

  it('does not take a language from the body', async () => {
    const body = { ...validSignUp(), language: 'ar' };
    const res = await post(SIGN_UP, body);
    expect(res.statusCode).toBe(400);
    expect(await languageOf(body.email)).toBeUndefined();
  });

  it("answers a short name in the request's language", async () => {
    const short = { ...validSignUp(), firstName: 'Al' };
    const arabic = await post(SIGN_UP, short, { cookie: 'lang=ar' });
    expect(arabic.statusCode).toBe(400);
    expect(arabic.json().errors).toMatchObject({ firstName: ar.signup.nameTooShort });
    expect(arabic.json().errors.firstName).toMatch(/\p{Script=Arabic}/u);

    const english = await post(SIGN_UP, short);
    expect(english.statusCode).toBe(400);
    expect(english.json().errors).toMatchObject({ firstName: 'Minimum 3 charachters required in each field' });
    expect(en.signup.nameTooShort).toBe('Minimum 3 charachters required in each field');
  });

  it("answers a taken email in the request's language, with the same code", async () => {
    const body = validSignUp();
    expect((await post(SIGN_UP, body)).statusCode).toBe(200);
    const again = await post(SIGN_UP, body, { 'accept-language': 'ar' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'EMAIL_TAKEN',
      detail: ar.signup.emailTaken,
      errors: { email: ar.signup.emailTaken },
    });
  });
});

describe('sign-in', () => {
  it("sets the site's language to the user's saved one", async () => {
    const email = uniqueEmail();
    expect((await post(SIGN_UP, validSignUp(email), { cookie: 'lang=ar' })).statusCode).toBe(200);
    // From an English browser: the next page is in the user's language.
    const res = await post(SIGN_IN, { email, password: 'Secret123' }, { cookie: 'lang=en' });
    expect(res.statusCode).toBe(200);
    expect(langCookieOf(res)).toBe('lang=ar; Path=/; Max-Age=31536000; SameSite=Lax');
    // The session cookie is still there beside it.
    expect(cookieOf(res)).toContain('eventry.session_token=');
  });

  it('leaves the language cookie alone for a user without a saved language, or when the sign-in fails', async () => {
    const user = await ctx.createUser();
    const signedIn = await post(SIGN_IN, { email: user.email, password: user.password });
    expect(signedIn.statusCode).toBe(200);
    expect(langCookieOf(signedIn)).toBeUndefined();

    await ctx.database.db.update(users).set({ language: 'ar' }).where(eq(users.id, user.id));
    const wrong = await post(SIGN_IN, { email: user.email, password: 'Wrong1234' });
    expect(wrong.statusCode).toBe(401);
    expect(langCookieOf(wrong)).toBeUndefined();
  });

  it("answers wrong credentials in the request's language", async () => {
    const res = await post(SIGN_IN, { email: uniqueEmail(), password: 'Secret123' }, { cookie: 'lang=ar' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', detail: ar.login.wrongCredentials });
  });
});
