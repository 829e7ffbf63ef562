import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/helpers';
import { emailOutbox, events, sessions, users } from './schema';
import { demoPlaceholderUrl, ensureAdmin, seedDemoEvents, writeDemoImages } from './seed';

const ctx = await setupTestApp();
afterAll(() => ctx.close());
const db = ctx.database.db;
const fileOf = (url: string) => path.join(ctx.config.dataDir, url.replace(/^\/uploads\//, 'uploads/'));

beforeEach(async () => {
  await db.delete(events);
});

describe('demo data', () => {
  it('inserts the demo events at once, with placeholder pictures the browser can show', async () => {
    expect(await seedDemoEvents(db, 'Africa/Cairo')).toBe(26);
    const rows = await db.select().from(events);
    expect(rows).toHaveLength(26);
    for (const row of rows) expect(row.imageUrl).toMatch(/^data:image\/svg\+xml,/);
    expect(decodeURIComponent(demoPlaceholderUrl(3))).toContain('<svg');
    // Only into an empty catalogue.
    expect(await seedDemoEvents(db, 'Africa/Cairo')).toBe(0);
  });

  it('replaces every placeholder by a real image, and an interrupted run is finished by the next one', async () => {
    await seedDemoEvents(db, 'Africa/Cairo');
    const aborted = new AbortController();
    aborted.abort();
    expect(await writeDemoImages(db, ctx.app.storage, aborted.signal)).toBe(0);

    const [first] = await db.select().from(events).limit(1);
    if (!first) throw new Error('no event');
    const before = first.version;
    expect(await writeDemoImages(db, ctx.app.storage)).toBe(26);
    const rows = await db.select().from(events);
    for (const row of rows) {
      expect(row.imageUrl).toMatch(/^\/uploads\/eventImg\/[0-9a-f-]{36}\.webp$/);
      expect(existsSync(fileOf(row.imageUrl)), row.imageUrl).toBe(true);
    }
    expect(rows.find((r) => r.id === first.id)?.version).toBe(before + 1);
    expect(await writeDemoImages(db, ctx.app.storage)).toBe(0);
  }, 60_000);

  it('leaves a picture that was replaced meanwhile alone', async () => {
    await seedDemoEvents(db, 'Africa/Cairo');
    const [keep, ...rest] = await db.select().from(events).where(like(events.imageUrl, 'data:%'));
    if (!keep) throw new Error('no event');
    // Only one placeholder left, and it is replaced by an admin edit while its picture renders.
    for (const row of rest)
      await db.update(events).set({ imageUrl: '/uploads/eventImg/other.webp' }).where(eq(events.id, row.id));
    const controller = new AbortController();
    const running = writeDemoImages(db, ctx.app.storage, controller.signal);
    await db.update(events).set({ imageUrl: '/uploads/eventImg/admin.webp' }).where(eq(events.id, keep.id));
    await running;
    const [after] = await db.select().from(events).where(eq(events.id, keep.id));
    expect(after?.imageUrl).toBe('/uploads/eventImg/admin.webp');
  });
});

describe('the admin of ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  it('is created verified, without any email, signs in, and a second start changes nothing', async () => {
    const admin = { email: 'Owner@Example.com', password: 'Secret123' };
    await ensureAdmin(db, ctx.app.auth, admin);
    await ensureAdmin(db, ctx.app.auth, admin);
    const rows = await db.select().from(users).where(eq(users.email, 'owner@example.com'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ role: 'admin', emailVerified: true, firstName: 'Eventry', lastName: 'Admin' });
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'owner@example.com'))).toEqual([]);
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      payload: { email: 'owner@example.com', password: 'Secret123' },
    });
    expect(signIn.statusCode).toBe(200);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: String(signIn.headers['set-cookie']).split(';')[0] as string },
    });
    expect(me.json()).toMatchObject({ email: 'owner@example.com', role: 'admin', emailVerified: true });
  });

  it('takes over an unverified account that has the address: ADMIN_PASSWORD, no sessions, then verified admin', async () => {
    const stranger = await ctx.createUser({ email: 'boss@example.com', password: 'Stranger1' });
    expect(await sessionCount(stranger.id)).toBeGreaterThan(0);
    await ensureAdmin(db, ctx.app.auth, { email: 'boss@example.com', password: 'Operator1' });
    const [row] = await db.select().from(users).where(eq(users.id, stranger.id));
    expect(row).toMatchObject({ role: 'admin', emailVerified: true });
    expect(await sessionCount(stranger.id)).toBe(0);
    expect(await signInStatus('boss@example.com', 'Stranger1')).toBe(401);
    expect(await signInStatus('boss@example.com', 'Operator1')).toBe(200);
  });

  it('promotes a verified account with its own password', async () => {
    const owner = await ctx.createUser({ email: 'verified-owner@example.com', password: 'Owner1234' });
    await db.update(users).set({ emailVerified: true }).where(eq(users.id, owner.id));
    await ensureAdmin(db, ctx.app.auth, { email: 'verified-owner@example.com', password: 'Operator1' });
    const [row] = await db.select().from(users).where(eq(users.id, owner.id));
    expect(row).toMatchObject({ role: 'admin', emailVerified: true });
    expect(await signInStatus('verified-owner@example.com', 'Owner1234')).toBe(200);
  });
});

async function sessionCount(userId: string): Promise<number> {
  return (await db.select().from(sessions).where(eq(sessions.userId, userId))).length;
}

async function signInStatus(email: string, password: string): Promise<number> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
    payload: { email, password },
  });
  return res.statusCode;
}
