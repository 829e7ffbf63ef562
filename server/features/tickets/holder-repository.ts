import type { Queryable } from '../../db/client';
import type { CalendarEvent } from './calendar';

/** The SQL of the holder's documents: an event's calendar file and a booking's tickets as a PDF. */

/** An event for its calendar file; undefined when it does not exist or was deleted. */
export async function findCalendarEvent(db: Queryable, eventId: string): Promise<CalendarEvent | undefined> {
  const result = await db.query<CalendarEvent>(
    `SELECT id, title, location, description, event_date::text AS "eventDate", start_time::text AS "startTime",
            end_time::text AS "endTime"
       FROM events WHERE id = $1 AND NOT is_deleted`,
    [eventId],
  );
  return result.rows[0];
}

export interface OwnBookingRow {
  id: string;
  status: string;
  holderName: string;
  event: CalendarEvent;
}

/** One of the user's bookings with its event (another user's booking is not found). */
export async function findOwnBooking(
  db: Queryable,
  bookingId: string,
  userId: string,
): Promise<OwnBookingRow | undefined> {
  const result = await db.query<OwnBookingRow>(
    `SELECT b.id, b.status, u.name AS "holderName",
            json_build_object('id', e.id, 'title', e.title, 'location', e.location, 'description', e.description,
                              'eventDate', e.event_date::text, 'startTime', e.start_time::text,
                              'endTime', e.end_time::text) AS event
       FROM bookings b JOIN events e ON e.id = b.event_id JOIN users u ON u.id = b.user_id
      WHERE b.id = $1 AND b.user_id = $2`,
    [bookingId, userId],
  );
  return result.rows[0];
}
