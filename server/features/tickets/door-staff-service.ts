import type { DoorStaffMember } from '../../../contracts/door-staff';
import { isUuid } from '../../../contracts/ids';
import type { Queryable } from '../../db/client';
import { NotFoundError, ValidationError } from '../../plugins/errors';
import {
  deleteDoorStaff,
  eventExists,
  findDoorStaff,
  findUserByEmail,
  insertDoorStaff,
  keepsAnyDoor,
} from './door-staff-repository';

/**
 * Door staff: accounts that may check tickets in at the events they are given (admins grant and revoke, from
 * the admin page or `npm run admin -- door-staff …`), and nothing else of the admin area.
 */
export interface DoorStaffService {
  list(eventId: string): Promise<DoorStaffMember[]>;
  /** Throws 404 for an unknown event, 400 for an email no account has. Granting twice is granting once. */
  grant(eventId: string, email: string): Promise<DoorStaffMember[]>;
  /** Throws 404 for an unknown event or a user who does not keep its door. */
  revoke(eventId: string, userId: string): Promise<void>;
  /** Whether the user keeps the door of any event (GET /api/me's doorStaff). */
  keepsAnyDoor(userId: string): Promise<boolean>;
}

function eventNotFound(): NotFoundError {
  return new NotFoundError('doorStaff.eventNotFound', 'EVENT_NOT_FOUND');
}

export function createDoorStaffService({ db }: { db: Queryable }): DoorStaffService {
  async function assertEvent(eventId: string): Promise<void> {
    if (!isUuid(eventId) || !(await eventExists(db, eventId))) throw eventNotFound();
  }

  async function list(eventId: string): Promise<DoorStaffMember[]> {
    await assertEvent(eventId);
    return (await findDoorStaff(db, eventId)).map((row) => ({ ...row, grantedAt: row.grantedAt.toISOString() }));
  }

  return {
    list,

    async grant(eventId, email) {
      await assertEvent(eventId);
      const user = await findUserByEmail(db, email);
      if (!user) throw new ValidationError({ email: 'doorStaff.emailUnknown' }, 'doorStaff.emailUnknown');
      await insertDoorStaff(db, user.id, eventId);
      return list(eventId);
    },

    async revoke(eventId, userId) {
      await assertEvent(eventId);
      if (!(await deleteDoorStaff(db, userId, eventId))) {
        throw new NotFoundError('doorStaff.notOnDoorStaff', 'DOOR_STAFF_NOT_FOUND');
      }
    },

    keepsAnyDoor: (userId) => keepsAnyDoor(db, userId),
  };
}
