import { z } from 'zod';

export const roleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof roleSchema>;

/** GET /api/me: the signed-in user's profile. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Profile picture URL; null means the bundled default avatar. */
  imageUrl: z.string().nullable(),
  role: roleSchema,
  emailVerified: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;
