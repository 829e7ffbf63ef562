import { and, eq, ne } from 'drizzle-orm';
import type { Lang } from '../../../contracts/i18n/languages';
import type { DbOrTx } from '../../db/client';
import { accounts, sessions, users } from '../../db/schema';

export const profileColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  image: users.image,
  role: users.role,
  emailVerified: users.emailVerified,
  language: users.language,
};
export type ProfileRow = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  image: string | null;
  role: 'user' | 'admin';
  emailVerified: boolean;
  language: Lang | null;
};

/** Whether an account has this email (stored lowercased, as better-auth keeps it). */
export async function emailRegistered(db: DbOrTx, email: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return rows.length > 0;
}

/** Saves the language the user chose; false when there is no such user. */
export async function setLanguage(db: DbOrTx, userId: string, language: Lang): Promise<boolean> {
  const updated = await db.update(users).set({ language }).where(eq(users.id, userId)).returning({ id: users.id });
  return updated.length > 0;
}

/** The language saved for the account of this email (stored lowercased), if any. */
export async function languageOfEmail(db: DbOrTx, email: string): Promise<Lang | null> {
  const [row] = await db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  return row?.language ?? null;
}

export async function updateNames(
  db: DbOrTx,
  userId: string,
  names: { firstName: string; lastName: string },
): Promise<ProfileRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ firstName: names.firstName, lastName: names.lastName, name: `${names.firstName} ${names.lastName}` })
    .where(eq(users.id, userId))
    .returning(profileColumns);
  return row;
}

/** Replaces the credential password's hash. */
export async function updatePasswordHash(db: DbOrTx, userId: string, hash: string): Promise<void> {
  await db
    .update(accounts)
    .set({ password: hash })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')));
}

/** Ends every session of the user except the one given. */
export async function deleteOtherSessions(db: DbOrTx, userId: string, keepSessionId: string): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id });
  return deleted.length;
}

/** Keeps an uploaded picture as the pending one and returns the one it replaces (to delete a stale upload). */
export async function setPendingImage(
  db: DbOrTx,
  userId: string,
  url: string,
): Promise<{ previousPending: string | null } | undefined> {
  const before = await lockImages(db, userId);
  if (!before) return undefined;
  await db.update(users).set({ pendingImage: url }).where(eq(users.id, userId));
  return { previousPending: before.pendingImage };
}

/** The user's current and pending pictures, locked until the transaction ends. */
export async function lockImages(
  db: DbOrTx,
  userId: string,
): Promise<{ image: string | null; pendingImage: string | null } | undefined> {
  const [row] = await db
    .select({ image: users.image, pendingImage: users.pendingImage })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

/** Shows the pending picture (or none) and forgets the pending one. */
export async function applyImage(db: DbOrTx, userId: string, url: string | null): Promise<void> {
  await db.update(users).set({ image: url, pendingImage: null }).where(eq(users.id, userId));
}
