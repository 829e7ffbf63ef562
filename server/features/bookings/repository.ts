import type pg from 'pg';

/**
 * SQL of the bookings feature. The reservation path is hot (every buyer of an on-sale event goes
 * through one events row), so it speaks to node-postgres directly: few round trips, array parameters.
 */

export type Queryable = Pick<pg.PoolClient, 'query'>;

export interface LockedEvent {
  id: string;
  title: string;
  imageUrl: string;
  eventDate: string;
  startTime: string;
  endTime: string;
  endDate: string;
  pricePiasters: number;
  ticketsAvailable: number;
  isDeleted: boolean;
}

/** Locks the event row for the rest of the transaction: reservations for one event queue here. */
export async function lockEvent(db: Queryable, eventId: string): Promise<LockedEvent | undefined> {
  const result = await db.query<LockedEvent>(
    `SELECT id, title, image_url AS "imageUrl", event_date AS "eventDate", start_time AS "startTime",
            end_time AS "endTime", end_date AS "endDate", price_piasters AS "pricePiasters",
            tickets_available AS "ticketsAvailable", is_deleted AS "isDeleted"
       FROM events WHERE id = $1 FOR UPDATE`,
    [eventId],
  );
  return result.rows[0];
}

/** Bookings already created with these (user, Idempotency-Key) pairs. */
export async function findByIdempotencyKeys(
  db: Queryable,
  userIds: string[],
  keys: string[],
): Promise<Array<{ id: string; userId: string; key: string }>> {
  const result = await db.query<{ id: string; userId: string; key: string }>(
    `SELECT b.id, b.user_id AS "userId", b.idempotency_key AS "key"
       FROM bookings b JOIN unnest($1::text[], $2::text[]) AS k(user_id, key)
         ON b.user_id = k.user_id AND b.idempotency_key = k.key`,
    [userIds, keys],
  );
  return result.rows;
}

/**
 * A user holds at most one pending booking per event: the new reservation replaces the old one.
 * The pending holds these users have on the event, locked until the transaction ends. */
export async function lockPendingOfUsers(
  db: Queryable,
  eventId: string,
  userIds: string[],
): Promise<Array<{ id: string; userId: string; quantity: number; paymentIntentId: string | null }>> {
  const result = await db.query<{ id: string; userId: string; quantity: number; paymentIntentId: string | null }>(
    `SELECT id, user_id AS "userId", quantity, payment_intent_id AS "paymentIntentId" FROM bookings
      WHERE event_id = $1 AND status = 'pending' AND user_id = ANY($2::text[])
      FOR UPDATE`,
    [eventId, userIds],
  );
  return result.rows;
}

export async function cancelBookings(db: Queryable, ids: string[]): Promise<void> {
  await db.query(`UPDATE bookings SET status = 'cancelled', updated_at = now() WHERE id = ANY($1::uuid[])`, [ids]);
}

/**
 * Moves tickets in or out of the event's pool; never below zero (and the CHECK stays the last word).
 * Returns false when the pool would go negative, which the caller treats as a bug and rolls back.
 */
export async function adjustAvailable(db: Queryable, eventId: string, delta: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE events SET tickets_available = tickets_available + $2, version = version + 1
      WHERE id = $1 AND tickets_available + $2 >= 0`,
    [eventId, delta],
  );
  return result.rowCount === 1;
}

export interface NewBookingRow {
  id: string;
  userId: string;
  idempotencyKey: string | null;
  quantity: number;
  unitPricePiasters: number;
  totalPiasters: number;
  expiresAt: Date;
}

/** One multi-row insert for a whole batch; rows whose idempotency key already exists are skipped. */
export async function insertPendingBookings(
  db: Queryable,
  input: {
    eventId: string;
    unitPricePiasters: number;
    holdMinutes: number;
    provider: 'stripe' | 'simulated';
    userIds: string[];
    quantities: number[];
    keys: Array<string | null>;
  },
): Promise<NewBookingRow[]> {
  const result = await db.query<NewBookingRow>(
    `INSERT INTO bookings (user_id, event_id, quantity, unit_price_piasters, total_piasters, expires_at,
                           idempotency_key, payment_provider)
     SELECT t.user_id, $1, t.quantity, $2, t.quantity * $2, now() + make_interval(mins => $3), t.key, $4
       FROM unnest($5::text[], $6::int[], $7::text[]) WITH ORDINALITY AS t(user_id, quantity, key, n)
      ORDER BY t.n
     ON CONFLICT DO NOTHING
     RETURNING id, user_id AS "userId", idempotency_key AS "idempotencyKey", quantity,
               unit_price_piasters AS "unitPricePiasters", total_piasters AS "totalPiasters", expires_at AS "expiresAt"`,
    [
      input.eventId,
      input.unitPricePiasters,
      input.holdMinutes,
      input.provider,
      input.userIds,
      input.quantities,
      input.keys,
    ],
  );
  return result.rows;
}

export interface BookingRow {
  id: string;
  userId: string;
  status: 'pending' | 'paid' | 'expired' | 'failed' | 'refunded' | 'cancelled';
  quantity: number;
  unitPricePiasters: number;
  totalPiasters: number;
  expiresAt: Date;
  paidAt: Date | null;
  failureMessage: string | null;
  paymentProvider: 'stripe' | 'simulated' | null;
  paymentIntentId: string | null;
  eventId: string;
  title: string;
  imageUrl: string;
  eventDate: string;
  startTime: string;
  endTime: string;
  pricePiasters: number;
  isDeleted: boolean;
}

const bookingSelect = `
  SELECT b.id, b.user_id AS "userId", b.status, b.quantity, b.unit_price_piasters AS "unitPricePiasters",
         b.total_piasters AS "totalPiasters", b.expires_at AS "expiresAt", b.paid_at AS "paidAt",
         b.failure_message AS "failureMessage", b.payment_provider AS "paymentProvider",
         b.payment_intent_id AS "paymentIntentId", e.id AS "eventId", e.title, e.image_url AS "imageUrl",
         e.event_date AS "eventDate", e.start_time AS "startTime", e.end_time AS "endTime",
         e.price_piasters AS "pricePiasters", e.is_deleted AS "isDeleted"
    FROM bookings b JOIN events e ON e.id = b.event_id`;

/** One booking of one user (another user's booking is simply not found). */
export async function findBookingOfUser(db: Queryable, id: string, userId: string): Promise<BookingRow | undefined> {
  const result = await db.query<BookingRow>(`${bookingSelect} WHERE b.id = $1 AND b.user_id = $2`, [id, userId]);
  return result.rows[0];
}

export async function findBookingsOfUser(db: Queryable, ids: string[], userId: string): Promise<BookingRow[]> {
  const result = await db.query<BookingRow>(`${bookingSelect} WHERE b.id = ANY($1::uuid[]) AND b.user_id = $2`, [
    ids,
    userId,
  ]);
  return result.rows;
}

export async function setPaymentIntent(db: Queryable, bookingId: string, intentId: string): Promise<void> {
  await db.query(`UPDATE bookings SET payment_intent_id = $2, updated_at = now() WHERE id = $1`, [bookingId, intentId]);
}

/** Paid bookings of a user, newest event first, with whether the event is still active. */
export async function findPaidBookingsOfUser(
  db: Queryable,
  userId: string,
  today: string,
): Promise<Array<BookingRow & { active: boolean }>> {
  const result = await db.query<BookingRow & { active: boolean }>(
    `${bookingSelect.replace('e.is_deleted AS "isDeleted"', 'e.is_deleted AS "isDeleted", (NOT e.is_deleted AND e.event_date >= $2::date) AS active')}
      WHERE b.user_id = $1 AND b.status = 'paid'
      ORDER BY e.event_date, e.start_time, b.paid_at`,
    [userId, today],
  );
  return result.rows;
}

/** Events that have pending bookings past their hold (a bounded sample). */
export async function findEventsWithLapsedHolds(db: Queryable, limit: number): Promise<string[]> {
  const result = await db.query<{ eventId: string }>(
    `SELECT DISTINCT event_id AS "eventId" FROM (
       SELECT event_id FROM bookings WHERE status = 'pending' AND expires_at < now() ORDER BY expires_at LIMIT $1
     ) lapsed`,
    [limit],
  );
  return result.rows.map((r) => r.eventId);
}

/**
 * Expires an event's lapsed holds and gives their tickets back, in one statement. The caller has locked
 * the event row first (the same lock order as reservations: event, then bookings), and bookings that a
 * payment is settling right now are skipped and picked up on the next run.
 */
export async function expireLapsedHolds(
  db: Queryable,
  eventId: string,
  limit: number,
): Promise<Array<{ id: string; paymentIntentId: string | null; quantity: number }>> {
  const result = await db.query<{ id: string; paymentIntentId: string | null; quantity: number }>(
    `WITH lapsed AS (
       SELECT id FROM bookings
        WHERE event_id = $1 AND status = 'pending' AND expires_at < now()
        ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
     ), expired AS (
       UPDATE bookings b SET status = 'expired', updated_at = now()
         FROM lapsed WHERE b.id = lapsed.id
       RETURNING b.id, b.quantity, b.payment_intent_id
     ), returned AS (
       UPDATE events SET tickets_available = tickets_available + (SELECT sum(quantity) FROM expired),
                         version = version + 1
        WHERE id = $1 AND EXISTS (SELECT 1 FROM expired)
       RETURNING id
     )
     SELECT id, payment_intent_id AS "paymentIntentId", quantity FROM expired`,
    [eventId, limit],
  );
  return result.rows;
}
