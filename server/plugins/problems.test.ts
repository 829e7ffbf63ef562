import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/helpers';

/** The generic problems (server/plugins/errors.ts) keep their codes and speak the request's language. */
const ctx = await setupTestApp();
afterAll(() => ctx.close());

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

describe('generic problems', () => {
  it('say the English they always said', async () => {
    expect((await get('/nothing-here')).json()).toMatchObject({ code: 'NOT_FOUND', detail: 'Not found' });
    expect((await get('/api/nothing-here')).json()).toMatchObject({
      code: 'NOT_FOUND',
      detail: 'No route for GET /api/nothing-here',
    });
    expect((await get('/api/contact')).json()).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      detail: 'GET is not allowed on /api/contact',
    });
    expect((await get('/api/admin/mailbox')).json()).toMatchObject({
      code: 'UNAUTHENTICATED',
      detail: 'Sign in to continue',
    });
    const user = await ctx.createUser();
    expect((await ctx.request(user, { method: 'GET', url: '/api/admin/mailbox' })).json()).toMatchObject({
      code: 'FORBIDDEN',
      detail: 'You are not allowed to do this',
    });
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('say it in Arabic to an Arabic page, with the same codes', async () => {
    const arabic = { cookie: 'lang=ar' };
    expect((await get('/nothing-here', arabic)).json()).toMatchObject({ code: 'NOT_FOUND', detail: 'غير موجود' });
    expect((await get('/api/nothing-here', arabic)).json()).toMatchObject({
      code: 'NOT_FOUND',
      detail: 'لا يوجد مسار للطلب GET /api/nothing-here',
    });
    expect((await get('/api/admin/mailbox', { 'accept-language': 'ar' })).json()).toMatchObject({
      code: 'UNAUTHENTICATED',
      detail: 'سجّل الدخول للمتابعة',
    });
    const user = await ctx.createUser();
    const forbidden = await get('/api/admin/mailbox', { cookie: `${user.cookie}; lang=ar` });
    expect(forbidden.json()).toMatchObject({ code: 'FORBIDDEN', detail: 'غير مسموح لك بتنفيذ هذا الإجراء' });
    const notText = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 12345, email: 'a@example.com', subject: 'Hello', description: 'x'.repeat(30) },
      headers: arabic,
    });
    expect(notText.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: 'الطلب غير صالح',
      errors: { name: 'يجب أن تكون القيمة نصًا' },
    });
  });
});
