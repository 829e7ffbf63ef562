import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { expect } from 'vitest';
import { addDays, todayIn } from '../../contracts/dates';
import { type CapacityParts, capacityPartsQuery } from './capacity-invariant';
import type { TestContext, TestUser } from './helpers';
import { TICKETS_NOT_FOLLOWING_BOOKINGS, type TicketMismatch } from './ticket-invariant';

/** Factories and invariants shared by the bookings and payments suites. */

export async function createTestEvent(
  pool: pg.Pool,
  overrides: {
    capacity?: number;
    pricePiasters?: number;
    title?: string;
    daysAhead?: number;
    isDeleted?: boolean;
  } = {},
): Promise<{ id: string; capacity: number; pricePiasters: number; title: string }> {
  const capacity = overrides.capacity ?? 100;
  const price = overrides.pricePiasters ?? 15_000;
  const title = overrides.title ?? `Concert ${randomUUID().slice(0, 6)}`;
  const today = todayIn('Africa/Cairo');
  const eventDate = addDays(today, overrides.daysAhead ?? 30);
  const result = await pool.query<{ id: string }>(
    `INSERT INTO events (title, host, location, description, price_piasters, capacity, tickets_available,
                         start_date, end_date, event_date, start_time, end_time, image_url, category_id, is_deleted)
     VALUES ($1, 'Host', 'Cairo', 'A fine evening of music and more.', $2, $3, $3, $4, $5, $5, '19:30', '22:00',
             '/uploads/eventImg/x.webp', 'music', $6)
     RETURNING id`,
    [title, price, capacity, addDays(eventDate, -30), eventDate, overrides.isDeleted ?? false],
  );
  return { id: (result.rows[0] as { id: string }).id, capacity, pricePiasters: price, title };
}

/**
 * Many signed-in users at once: rows inserted straight into users and sessions, with the session cookie
 * better-auth expects (token signed with the app secret).
 */
export async function createUsersFast(
  pool: pg.Pool,
  authSecret: string,
  count: number,
  cookieName = 'eventry.session_token',
): Promise<TestUser[]> {
  const { createHmac } = await import('node:crypto');
  const ids: string[] = [];
  const emails: string[] = [];
  const tokens: string[] = [];
  const sessionIds: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(randomUUID());
    emails.push(`buyer-${randomBytes(6).toString('hex')}@example.com`);
    tokens.push(randomBytes(24).toString('base64url'));
    sessionIds.push(randomUUID());
  }
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, first_name, last_name)
     SELECT id, 'Buyer', email, true, 'Buy', 'Er' FROM unnest($1::text[], $2::text[]) AS t(id, email)`,
    [ids, emails],
  );
  await pool.query(
    `INSERT INTO sessions (id, token, user_id, expires_at)
     SELECT sid, token, uid, now() + interval '1 day' FROM unnest($1::text[], $2::text[], $3::text[]) AS t(sid, token, uid)`,
    [sessionIds, tokens, ids],
  );
  return ids.map((id, i) => {
    const token = tokens[i] as string;
    const signature = createHmac('sha256', authSecret).update(token).digest('base64');
    const value = encodeURIComponent(`${token}.${signature}`);
    return { id, email: emails[i] as string, password: '', cookie: `${cookieName}=${value}` };
  });
}

/**
 * capacity = available + held (pending) + sold (paid), and 0 ≤ available ≤ capacity, for every event; and every
 * booking's tickets follow it (ticket-invariant.ts).
 */
export async function expectCapacityInvariant(pool: pg.Pool): Promise<void> {
  const result = await pool.query<CapacityParts>(capacityPartsQuery());
  for (const row of result.rows) {
    expect(row.available, `event ${row.id}: available`).toBeGreaterThanOrEqual(0);
    expect(
      row.available + row.held + row.offered + row.sold,
      `event ${row.id}: capacity = available + held + offered + sold`,
    ).toBe(row.capacity);
  }
  const mismatched = await pool.query<TicketMismatch>(TICKETS_NOT_FOLLOWING_BOOKINGS);
  expect(mismatched.rows, 'a paid booking has its tickets 1..quantity; any other has none valid').toEqual([]);
}

/** DELETE /api/bookings/:id/hold as `user` (the payment page's "Cancel reservation"). */
export function cancelReservation(ctx: Pick<TestContext, 'request'>, user: TestUser | undefined, bookingId: string) {
  return ctx.request(user, { method: 'DELETE', url: `/api/bookings/${encodeURIComponent(bookingId)}/hold` });
}

/**
 * Reserves and pays `quantity` tickets through the API with the simulated card, as a buyer does; the paid
 * booking's id (its tickets are issued in the same statement).
 */
export async function buyTickets(
  ctx: Pick<TestContext, 'request'>,
  user: TestUser,
  eventId: string,
  quantity: number,
): Promise<string> {
  const reserved = await ctx.request(user, { method: 'POST', url: '/api/bookings', payload: { eventId, quantity } });
  expect(reserved.statusCode).toBe(201);
  const bookingId = reserved.json().id as string;
  const nextYear = (Number(todayIn('Africa/Cairo').slice(0, 4)) + 1) % 100;
  const paid = await ctx.request(user, {
    method: 'POST',
    url: '/api/payments/simulated/confirm',
    payload: { bookingId, cardNumber: '4242424242424242', expMonth: 12, expYear: nextYear, cvc: '123' },
  });
  expect(paid.statusCode).toBe(200);
  return bookingId;
}
