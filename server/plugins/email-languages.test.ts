import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { latestMail } from '../features/accounts/test-support';
import { setupTestApp } from '../test/helpers';
import { accountLang } from './mail-language';

/**
 * The emails of accounts (verification, password reset) in their recipient's language: the account's choice,
 * else the language of the page that asked for them. The English ones are what they always were.
 */
const ctx = await setupTestApp();
afterAll(() => ctx.close());

let address = 0;
function post(url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  address += 1;
  return ctx.app.inject({ method: 'POST', url, payload, headers, remoteAddress: `10.77.0.${address}` });
}

/** The latest email of a kind to an address (the accounts tests' helper), which must have its bodies. */
async function latest(to: string, kind: string) {
  const mail = await latestMail(ctx, to, kind);
  if (!mail?.text || !mail.html) throw new Error(`no ${kind} email to ${to}`);
  return { subject: mail.subject, text: mail.text, html: mail.html };
}

const signUp = (email: string) => ({ firstName: 'Mona', lastName: 'Adel', email, password: 'Secret123' });

describe('account emails', () => {
  it('verify an address signed up from the Arabic site in Arabic, right to left', async () => {
    const res = await post('/api/auth/sign-up/email', signUp('arabic-signup@example.com'), { cookie: 'lang=ar' });
    expect(res.statusCode).toBe(200);
    const mail = await latest('arabic-signup@example.com', 'verification');
    expect(mail.subject).toBe('إيفنتري: أكّد بريدك الإلكتروني');
    expect(mail.text).toMatch(/^مرحبًا \u2068Mona Adel\u2069،\n\nأهلًا بك في إيفنتري!/);
    expect(mail.text).toMatch(/\nhttp:\/\/localhost:3000\/api\/auth\/verify-email\?token=\S+\n/);
    expect(mail.text.endsWith('— فريق إيفنتري')).toBe(true);
    expect(mail.html).toMatch(/^<!doctype html><html lang="ar" dir="rtl"><body /);
    expect(mail.html).toContain('>تأكيد البريد الإلكتروني</a>');
    expect(mail.html).toMatch(
      /أو افتح هذا الرابط: <span dir="ltr" style="[^"]*">http:\/\/localhost:3000\/api\/auth\/verify-email/,
    );
  });

  it('verify an address signed up from a browser that prefers Arabic in Arabic too', async () => {
    await post('/api/auth/sign-up/email', signUp('arabic-browser@example.com'), {
      'accept-language': 'ar-EG,ar;q=0.9',
    });
    expect((await latest('arabic-browser@example.com', 'verification')).subject).toBe('إيفنتري: أكّد بريدك الإلكتروني');
  });

  it('keep the English verification email as it was', async () => {
    await post('/api/auth/sign-up/email', signUp('english-signup@example.com'));
    const mail = await latest('english-signup@example.com', 'verification');
    expect(mail.subject).toBe('Eventry: verify your email address');
    expect(mail.text).toMatch(
      /^Hi Mona Adel,\n\nWelcome to Eventry! Please confirm your email address by opening this link:\n\nhttp:\/\/\S+\n\nIf you did not create an account, you can ignore this email.\n\n— Eventry$/,
    );
    expect(mail.html).toMatch(
      /^<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:system-ui,sans-serif/,
    );
    expect(mail.html).not.toContain('dir=');
  });

  it("send a password reset in the account's language before the page's", async () => {
    const user = await ctx.createUser({ email: 'reset-ar@example.com' });
    expect(await accountLang(ctx.database.db, { id: user.id })).toBeUndefined();
    await ctx.database.db.execute(sql`UPDATE users SET language = 'ar' WHERE id = ${user.id}`);
    expect(await accountLang(ctx.database.db, { email: 'Reset-AR@example.com' })).toBe('ar');

    await post('/api/auth/request-password-reset', { email: user.email }, { cookie: 'lang=en' });
    const mail = await latest(user.email, 'password-reset');
    expect(mail.subject).toBe('إيفنتري: إعادة تعيين كلمة المرور');
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail.html).toContain('>اختر كلمة مرور جديدة</a>');

    await ctx.database.db.execute(sql`UPDATE users SET language = NULL WHERE id = ${user.id}`);
    await post('/api/auth/request-password-reset', { email: user.email });
    expect((await latest(user.email, 'password-reset')).subject).toBe('Eventry: reset your password');
  });
});
