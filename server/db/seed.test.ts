import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/helpers';
import { events } from './schema';
import { demoPlaceholderUrl, seedDemoEvents, writeDemoImages } from './seed';

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
