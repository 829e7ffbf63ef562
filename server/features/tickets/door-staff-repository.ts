import type { Queryable } from '../../db/client';

/** The SQL of door staff: who may check tickets in at which event (table door_staff). */

export interface DoorStaffRow {
  userId: string;
  name: string;
  email: string;
  grantedAt: Date;
}

export async function findDoorStaff(db: Queryable, eventId: string): Promise<DoorStaffRow[]> {
  const result = await db.query<DoorStaffRow>(
    `SELECT d.user_id AS "userId", u.name, u.email, d.granted_at AS "grantedAt"
       FROM door_staff d JOIN users u ON u.id = d.user_id
      WHERE d.event_id = $1 ORDER BY u.name, u.email`,
    [eventId],
  );
  return result.rows;
}

/** The account with this email (any case), or undefined. */
export async function findUserByEmail(db: Queryable, email: string): Promise<{ id: string } | undefined> {
  const result = await db.query<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email.trim()]);
  return result.rows[0];
}

/** Whether the event exists and is not deleted. */
export async function eventExists(db: Queryable, eventId: string): Promise<boolean> {
  const result = await db.query('SELECT 1 FROM events WHERE id = $1 AND NOT is_deleted', [eventId]);
  return (result.rowCount ?? 0) > 0;
}

/** Gives the user the event's door; giving it twice keeps the first grant. */
export async function insertDoorStaff(db: Queryable, userId: string, eventId: string): Promise<void> {
  await db.query('INSERT INTO door_staff (user_id, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    userId,
    eventId,
  ]);
}

/** Takes the event's door from the user; false when they did not have it. */
export async function deleteDoorStaff(db: Queryable, userId: string, eventId: string): Promise<boolean> {
  const result = await db.query('DELETE FROM door_staff WHERE user_id = $1 AND event_id = $2', [userId, eventId]);
  return (result.rowCount ?? 0) > 0;
}

/** Whether the user keeps the door of any event that is not deleted. */
export async function keepsAnyDoor(db: Queryable, userId: string): Promise<boolean> {
  const result = await db.query(
    `SELECT 1 FROM door_staff d JOIN events e ON e.id = d.event_id
      WHERE d.user_id = $1 AND NOT e.is_deleted LIMIT 1`,
    [userId],
  );
  return (result.rowCount ?? 0) > 0;
}
