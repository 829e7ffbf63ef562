import { afterAll, describe, expect, it } from 'vitest';
import { changeRole } from '../../cli/admin';
import { setupTestApp } from '../../test/helpers';
import { postJson, validSignUp } from './test-support';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

/** Every /api/admin route the app has right now (other features keep adding some). */
function adminRoutes() {
  const seen = new Set<string>();
  return ctx.app.routeTable
    .filter((r) => r.url === '/api/admin' || r.url.startsWith('/api/admin/'))
    .filter((r) => {
      const key = `${r.method} ${r.url}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((r) => ({
      method: r.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS',
      url: r.url.replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'anything'),
    }));
}

describe('roles on the API', () => {
  it('finds the admin routes in the route table', () => {
    expect(adminRoutes().length).toBeGreaterThan(0);
  });

  it('answers every /api/admin route with 401 for anonymous visitors and 403 for users', async () => {
    const user = await ctx.createUser();
    for (const route of adminRoutes()) {
      const payload = ['POST', 'PUT', 'PATCH'].includes(route.method) ? { title: 'x' } : undefined;
      const anonymous = await ctx.request(undefined, { method: route.method, url: route.url, payload });
      expect(anonymous.statusCode, `${route.method} ${route.url} anonymous`).toBe(401);
      const asUser = await ctx.request(user, { method: route.method, url: route.url, payload });
      expect(asUser.statusCode, `${route.method} ${route.url} as a user`).toBe(403);
    }
  });

  it('lets an admin through the same routes', async () => {
    const admin = await ctx.createUser({ role: 'admin' });
    // The admins' live stream never ends; the access matrix opens it over a real socket.
    for (const route of adminRoutes().filter((r) => r.method === 'GET' && r.url !== '/api/admin/live')) {
      const res = await ctx.request(admin, { method: route.method, url: route.url });
      expect([401, 403], `${route.method} ${route.url}`).not.toContain(res.statusCode);
    }
  });

  it('makes every sign-up a user, whatever the request says', async () => {
    const res = await postJson(ctx, '/api/auth/sign-up/email', { ...validSignUp(), role: 'admin' });
    expect(res.statusCode).toBe(400);
    const created = await ctx.app.auth.api.signUpEmail({
      body: { ...validSignUp(), name: 'x', role: 'admin' } as never,
      asResponse: true,
    });
    // better-auth refuses input for the role field; either way no admin is created.
    if (created.ok) expect(((await created.json()) as { user: { role: string } }).user.role).toBe('user');
  });
});

describe('npm run admin -- grant <email>', () => {
  it('promotes an existing account to admin, and revoke makes it a user again', async () => {
    const user = await ctx.createUser();
    expect(await changeRole(ctx.database.db, user.email.toUpperCase(), 'grant')).toBe(true);
    const asAdmin = await ctx.request(user, { method: 'GET', url: '/api/me' });
    expect(asAdmin.json().role).toBe('admin');
    expect(await changeRole(ctx.database.db, user.email, 'revoke')).toBe(true);
    expect((await ctx.request(user, { method: 'GET', url: '/api/me' })).json().role).toBe('user');
  });

  it('reports an unknown email', async () => {
    expect(await changeRole(ctx.database.db, 'nobody@example.com', 'grant')).toBe(false);
  });
});
