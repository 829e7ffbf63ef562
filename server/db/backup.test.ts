import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../contracts/dates';
import { buildApp } from '../app';
import { uploadImage, validEventBody } from '../test/admin-fixtures';
import { createTestDatabase, setupTestApp, testConfig } from '../test/helpers';
import { RestoreRefused, restoreBackup, writeBackup } from './backup';

const ctx = await setupTestApp();
const scratch = await mkdtemp(path.join(tmpdir(), 'eventry-backup-'));
afterAll(async () => {
  await ctx.close();
  await rm(scratch, { recursive: true, force: true });
});

const nextYear = Number(todayIn('Africa/Cairo').slice(0, 4)) + 1;
const card = { cardNumber: '4242424242424242', expMonth: 12, expYear: nextYear % 100, cvc: '123' };

async function counts(pool: { query: (text: string) => Promise<{ rows: Array<{ name: string }> }> }, names: string[]) {
  const result: Record<string, number> = {};
  for (const name of names) {
    const res = (await pool.query(`SELECT count(*)::int AS n FROM public."${name}"`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    result[name] = res.rows[0]?.n ?? -1;
  }
  return result;
}

describe('backup and restore', () => {
  it('restores, into a fresh database and folder, what the snapshot held while reservations ran: data, sign-ins, tickets, pictures', async () => {
    const admin = await ctx.createUser({ role: 'admin' });
    const imageUrl = await uploadImage(ctx, admin);
    const created = await ctx.request(admin, {
      method: 'POST',
      url: '/api/admin/events',
      payload: validEventBody(ctx, imageUrl, { title: 'Backed Up Night', tickets: '500' }),
    });
    expect(created.statusCode).toBe(201);
    const eventId = created.json().id as string;
    const buyer = await ctx.createUser({ firstName: 'Salma', lastName: 'Fathy' });
    const held = await ctx.request(buyer, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity: 2 } });
    const paid = await ctx.request(buyer, {
      method: 'POST',
      url: '/api/payments/simulated/confirm',
      payload: { bookingId: held.json().id, ...card },
    });
    expect(paid.statusCode).toBe(200);
    const tickets = (await ctx.request(buyer, { method: 'GET', url: '/api/me/tickets' })).json().items;
    expect(tickets).toHaveLength(2);

    // Reservations keep coming while the backup is written.
    const others = await Promise.all(Array.from({ length: 6 }, () => ctx.createUser()));
    let running = true;
    const storm = Promise.all(
      others.map(async (user) => {
        while (running) {
          await ctx.request(user, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity: 1 } });
        }
      }),
    );
    const file = path.join(scratch, 'eventry.backup');
    const summary = await writeBackup(ctx.database.pool, file, {
      uploadsDir: path.join(ctx.config.dataDir, 'uploads'),
    });
    running = false;
    await storm;
    expect(summary.files).toBeGreaterThanOrEqual(1);
    expect(summary.tables.tickets).toBeGreaterThanOrEqual(2);

    const target = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(scratch, 'restored-'));
    try {
      const restored = await restoreBackup(target.database.pool, file, { uploadsDir: path.join(dataDir, 'uploads') });
      expect(restored.tables).toEqual(summary.tables);
      // The database holds exactly what the snapshot held, table by table.
      expect(await counts(target.database.pool, Object.keys(summary.tables))).toEqual(summary.tables);
      // The snapshot is consistent: capacity = available + held + sold, as at one moment.
      const capacity = await target.database.pool.query<{ ok: boolean }>(
        `SELECT e.capacity = e.tickets_available + coalesce(sum(b.quantity) FILTER (WHERE b.status IN ('pending','paid')), 0) AS ok
           FROM events e LEFT JOIN bookings b ON b.event_id = e.id WHERE e.id = $1 GROUP BY e.id`,
        [eventId],
      );
      expect(capacity.rows[0]?.ok).toBe(true);

      const app = await buildApp({
        config: testConfig(dataDir),
        database: target.database,
        logger: false,
        webDir: null,
      });
      try {
        const me = await app.inject({ method: 'GET', url: '/api/me/tickets', headers: { cookie: buyer.cookie } });
        expect(me.statusCode).toBe(200);
        expect(me.json().items.map((t: { code: string }) => t.code)).toEqual(
          tickets.map((t: { code: string }) => t.code),
        );
        const event = await app.inject({ method: 'GET', url: `/api/events/${eventId}` });
        expect(event.json().title).toBe('Backed Up Night');
        const picture = await app.inject({ method: 'GET', url: imageUrl });
        expect(picture.statusCode).toBe(200);
        expect(picture.headers['content-type']).toBe('image/webp');
        // Serial ids go on after the restored ones.
        const mail = await target.database.pool.query(
          `INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body) VALUES ('t', 'a@b.co', 's', 't', 'h') RETURNING id`,
        );
        expect(mail.rowCount).toBe(1);
      } finally {
        await app.close();
      }
    } finally {
      await target.drop();
    }
  });

  it('refuses an archive cut short, a foreign file and a database that has data, changing nothing', async () => {
    const file = path.join(scratch, 'whole.backup');
    await writeBackup(ctx.database.pool, file);
    const lines = gunzipSync(await readFile(file))
      .toString()
      .trimEnd()
      .split('\n');
    const cut = path.join(scratch, 'cut.backup');
    await writeFile(cut, gzipSync(`${lines.slice(0, -1).join('\n')}\n`));
    const foreign = path.join(scratch, 'foreign.backup');
    await writeFile(foreign, gzipSync('{"hello":"world"}\n'));

    const target = await createTestDatabase();
    try {
      await expect(restoreBackup(target.database.pool, cut)).rejects.toThrow(/cut short/);
      await expect(restoreBackup(target.database.pool, foreign)).rejects.toThrow(RestoreRefused);
      const users = await target.database.pool.query('SELECT count(*)::int AS n FROM users');
      expect(users.rows[0].n).toBe(0);
      // Into a database with data of its own (the source itself): refused.
      await expect(restoreBackup(ctx.database.pool, file)).rejects.toThrow(/already has users or events/);
    } finally {
      await target.drop();
    }
  });
});
