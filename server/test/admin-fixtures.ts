import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { addDays, todayIn } from '../../contracts/dates';
import { uploads } from '../db/schema';
import { UPLOAD_GRACE_MS } from '../plugins/uploads';
import type { TestContext, TestUser } from './helpers';

/** A real image made by sharp, in the given format. */
export async function makeImage(format: 'png' | 'jpeg' | 'webp', width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 180, b: 160 } } })
    .toFormat(format)
    .toBuffer();
}

/** A multipart/form-data body with one file part named 'file' (or another field name). */
export function multipartBody(
  data: Buffer,
  filename: string,
  contentType = 'application/octet-stream',
  fieldName = 'file',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----eventry-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function uploadImage(ctx: TestContext, admin: TestUser, data?: Buffer): Promise<string> {
  const body = multipartBody(data ?? (await makeImage('png')), 'poster.png', 'image/png');
  const res = await ctx.request(admin, { method: 'POST', url: '/api/admin/uploads', ...body });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { url: string }).url;
}

/** A valid form body, dated from today in the app's time zone. */
export function validEventBody(ctx: TestContext, imageUrl: string, overrides: Record<string, unknown> = {}) {
  const today = todayIn(ctx.config.timeZone);
  return {
    title: 'Cairo Jazz Night',
    host: 'Cairo Jazz Club',
    location: 'Zamalek, Cairo',
    price: '150.50',
    tickets: '100',
    categoryId: 'music',
    startDate: today,
    endDate: addDays(today, 5),
    eventDate: addDays(today, 6),
    startTime: '19:30',
    endTime: '22:00',
    description: 'An evening of live jazz by the Nile.',
    imageUrl,
    ...overrides,
  };
}

/** Simulates the bookings feature: a booking row that holds (pending) or has sold (paid) tickets. */
export async function takeTickets(
  ctx: TestContext,
  user: TestUser,
  eventId: string,
  quantity: number,
  status: 'pending' | 'paid',
): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO bookings (user_id, event_id, quantity, unit_price_piasters, total_piasters, status, expires_at)
      VALUES (${user.id}, ${eventId}, ${quantity}, 100, ${quantity * 100}, ${status}, now() + interval '10 minutes')`);
    await tx.execute(sql`UPDATE events SET tickets_available = tickets_available - ${quantity} WHERE id = ${eventId}`);
  });
}

/** A clock just past the unused-uploads grace period: what the job sees a day after now. */
export function afterGrace(): Date {
  return new Date(Date.now() + UPLOAD_GRACE_MS + 60_000);
}

/** The URLs the unused-uploads job remembers (uploads not yet shown, pictures replaced). */
export async function rememberedUploads(ctx: TestContext): Promise<string[]> {
  const rows = await ctx.database.db.select({ url: uploads.url }).from(uploads);
  return rows.map((r) => r.url);
}

/** Whether an upload URL answers 200 (its file is stored) or 404. */
export async function served(ctx: TestContext, url: string): Promise<number> {
  return (await ctx.app.inject({ method: 'GET', url })).statusCode;
}
