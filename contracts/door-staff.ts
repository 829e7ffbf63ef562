import { z } from 'zod';
import { EMAIL_MAX_LENGTH } from './accounts';

/** GET /api/admin/events/:id/door-staff: who may keep the event's door. */
export const doorStaffMemberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  /** When they were given the door (ISO). */
  grantedAt: z.string(),
});
export type DoorStaffMember = z.infer<typeof doorStaffMemberSchema>;

export const doorStaffListSchema = z.object({ items: z.array(doorStaffMemberSchema) });
export type DoorStaffList = z.infer<typeof doorStaffListSchema>;

/** POST /api/admin/events/:id/door-staff: gives an existing account the event's door. */
export const grantDoorStaffBodySchema = z.strictObject({
  email: z
    .string({ error: 'doorStaff.emailInvalid' })
    .trim()
    .min(1, 'doorStaff.emailInvalid')
    .max(EMAIL_MAX_LENGTH, 'doorStaff.emailInvalid'),
});
export type GrantDoorStaffBody = z.infer<typeof grantDoorStaffBodySchema>;

export const doorStaffEventParamsSchema = z.object({ id: z.string().max(200) });
export const doorStaffMemberParamsSchema = z.object({ id: z.string().max(200), userId: z.string().max(200) });
