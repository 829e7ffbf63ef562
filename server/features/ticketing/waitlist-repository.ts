import type pg from 'pg';
import type { WaitlistItem, WaitlistStatus } from '../../../contracts/waitlist';
import { inTransaction, type Queryable } from '../../db/client';
import type { ProviderName } from '../../domain/payments';

/**
 * The SQL of the waitlist (decision 021). Offers are made by a trigger in whatever statement gives tickets back
 * (sql/eventry_waitlist.sql); here are the user's own moves: join, leave, and the reads.
 */

/** What the offer trigger needs of the app's configuration: written by every start (one row). */
export async function writeBookingSettings(
  db: Queryable,
  settings: { waitlistOfferHours: number; timeZone: string; paymentProvider: ProviderName | null; appUrl: string },
): Promise<void> {
  await db.query(
    `INSERT INTO booking_settings AS s (id, waitlist_offer_hours, time_zone, payment_provider, app_url)
     VALUES (true, $1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE
       SET waitlist_offer_hours = EXCLUDED.waitlist_offer_hours, time_zone = EXCLUDED.time_zone,
           payment_provider = EXCLUDED.payment_provider, app_url = EXCLUDED.app_url, updated_at = now()
     WHERE (s.waitlist_offer_hours, s.time_zone, s.payment_provider, s.app_url)
           IS DISTINCT FROM (EXCLUDED.waitlist_offer_hours, EXCLUDED.time_zone, EXCLUDED.payment_provider,
                             EXCLUDED.app_url)`,
    [settings.waitlistOfferHours, settings.timeZone, settings.paymentProvider, settings.appUrl],
  );
}

export type JoinOutcome =
  | { kind: 'joined' }
  | { kind: 'not-found' }
  | { kind: 'closed' }
  | { kind: 'available'; available: number }
  | { kind: 'holding' }
  | { kind: 'already' };

/**
 * Puts the user at the end of the event's line. The event's row is share-locked first: a statement giving tickets
 * back (which updates that row) either committed before, and then the tickets are there to reserve instead
 * (TICKETS_AVAILABLE), or waits and sees this entry. `today` and `now` are the sales' rule in APP_TIMEZONE.
 */
export function joinWaitlist(
  pool: Pick<pg.Pool, 'connect'>,
  input: { eventId: string; userId: string; quantity: number; acceptFewer: boolean; today: string; timeZone: string },
): Promise<JoinOutcome> {
  return inTransaction(pool, async (client) => {
    const event = await client.query<{ available: number; closed: boolean }>(
      `SELECT tickets_available AS available,
              (cancelled_at IS NOT NULL OR end_date < $2::date
               OR (event_date + start_time) AT TIME ZONE $3 <= now()) AS closed
         FROM events WHERE id = $1 AND NOT is_deleted FOR SHARE`,
      [input.eventId, input.today, input.timeZone],
    );
    const row = event.rows[0];
    if (!row) return { kind: 'not-found' };
    if (row.closed) return { kind: 'closed' };
    if (row.available > 0) return { kind: 'available', available: row.available };
    const holding = await client.query(
      `SELECT 1 FROM bookings WHERE user_id = $1 AND event_id = $2 AND status = 'pending'`,
      [input.userId, input.eventId],
    );
    if (holding.rows.length > 0) return { kind: 'holding' };
    const inserted = await client.query(
      `INSERT INTO waitlist_entries (event_id, user_id, quantity, accept_fewer) VALUES ($1, $2, $3, $4)
       ON CONFLICT (event_id, user_id) WHERE status IN ('waiting', 'offered') DO NOTHING RETURNING id`,
      [input.eventId, input.userId, input.quantity, input.acceptFewer],
    );
    return inserted.rows.length > 0 ? { kind: 'joined' } : { kind: 'already' };
  });
}

/** Takes the user's waiting entry off the event's line; whether there was one. */
export async function leaveWaitlist(db: Queryable, eventId: string, userId: string): Promise<boolean> {
  const result = await db.query(
    `UPDATE waitlist_entries SET status = 'left', updated_at = now()
      WHERE event_id = $1 AND user_id = $2 AND status = 'waiting' RETURNING id`,
    [eventId, userId],
  );
  return result.rows.length > 0;
}

/** The pending booking that holds the tickets offered to the user on the event, if any. */
export async function findOffer(db: Queryable, eventId: string, userId: string): Promise<string | undefined> {
  const result = await db.query<{ id: string }>(
    `SELECT b.id FROM waitlist_entries w JOIN bookings b ON b.waitlist_entry_id = w.id
      WHERE w.event_id = $1 AND w.user_id = $2 AND w.status = 'offered' AND b.status = 'pending'
      ORDER BY b.created_at DESC LIMIT 1`,
    [eventId, userId],
  );
  return result.rows[0]?.id;
}

interface ItemRow {
  eventId: string;
  title: string;
  eventDate: string;
  startTime: string;
  quantity: number;
  acceptFewer: boolean;
  status: WaitlistStatus | 'left' | 'cancelled';
  position: number | null;
  offerId: string | null;
  offerQuantity: number | null;
  offerExpiresAt: Date | null;
}

/**
 * The user's latest entry of each event (of `eventId` only, when given), newest first, without those they left
 * or whose event was called off; a waiting entry with its place in the line (1: next), an offered one with its
 * hold.
 */
export async function findWaitlistItems(db: Queryable, userId: string, eventId?: string): Promise<WaitlistItem[]> {
  const result = await db.query<ItemRow>(
    `WITH latest AS (
       SELECT DISTINCT ON (w.event_id) w.*
         FROM waitlist_entries w
        WHERE w.user_id = $1 AND ($2::uuid IS NULL OR w.event_id = $2::uuid)
        ORDER BY w.event_id, w.joined_seq DESC
     )
     SELECT l.event_id AS "eventId", e.title, e.event_date::text AS "eventDate",
            e.start_time::text AS "startTime", l.quantity, l.accept_fewer AS "acceptFewer", l.status,
            CASE WHEN l.status = 'waiting' THEN
              (SELECT count(*)::int FROM waitlist_entries o
                WHERE o.event_id = l.event_id AND o.status = 'waiting' AND o.joined_seq <= l.joined_seq)
            END AS position,
            b.id AS "offerId", b.quantity AS "offerQuantity", b.expires_at AS "offerExpiresAt"
       FROM latest l
       JOIN events e ON e.id = l.event_id AND NOT e.is_deleted
       LEFT JOIN LATERAL (
         SELECT id, quantity, expires_at FROM bookings
          WHERE waitlist_entry_id = l.id AND status = 'pending' AND l.status = 'offered'
          ORDER BY created_at DESC LIMIT 1
       ) b ON true
      WHERE l.status NOT IN ('left', 'cancelled')
      ORDER BY l.joined_seq DESC
      LIMIT 50`,
    [userId, eventId ?? null],
  );
  return result.rows.map((row) => ({
    eventId: row.eventId,
    title: row.title,
    eventDate: row.eventDate,
    startTime: row.startTime,
    quantity: row.quantity,
    acceptFewer: row.acceptFewer,
    position: row.position,
    status: row.status === 'offered' && !row.offerId ? 'expired' : (row.status as WaitlistStatus),
    ...(row.status === 'offered' && row.offerId && row.offerQuantity !== null && row.offerExpiresAt
      ? {
          offer: {
            bookingId: row.offerId,
            quantity: row.offerQuantity,
            expiresAt: row.offerExpiresAt.toISOString(),
          },
        }
      : {}),
  }));
}
