import { waitForMail } from './support/fixtures';
import { expect, test } from './support/test';

test.use({ storageState: { cookies: [], origins: [] } });

test('an account made on the Arabic site gets its verification email in Arabic, right to left', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL as string }]);
  const email = `arabic-${Date.now().toString(36)}@example.com`;
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { firstName: 'Mona', lastName: 'Adel', email, password: 'Secret123' },
    headers: { origin: new URL(baseURL as string).origin },
  });
  expect(res.status()).toBe(200);
  const mail = await waitForMail(email, /^إيفنتري: أكّد بريدك الإلكتروني$/);
  expect(mail.text).toMatch(/^مرحبًا \u2068Mona Adel\u2069،/);
  expect(mail.html).toContain('<html lang="ar" dir="rtl">');

  expect(mail.html).toContain('>تأكيد البريد الإلكتروني</a>');
  expect(/https?:\/\/\S+/.exec(mail.text)?.[0]).toMatch(/\/api\/auth\/verify-email\?token=/);
});
