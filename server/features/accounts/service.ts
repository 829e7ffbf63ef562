import type { Me } from '../../../contracts/accounts';
import { accountTexts } from '../../../contracts/accounts';
import type { Db } from '../../db/client';
import { AppError, NotFoundError } from '../../plugins/errors';
import type { Storage } from '../../plugins/storage';
import * as repository from './repository';

/**
 * Per-email limits, on top of better-auth's per-IP ones: they protect one account (or one inbox) from
 * attempts spread over many addresses. Sign-in counts failures only, so a user's own sign-ins never
 * lock them out; sign-up and reset count every request.
 */
export const EMAIL_LIMITS = {
  signInFailures: { windowMs: 15 * 60_000, max: 10 },
  signUp: { windowMs: 15 * 60_000, max: 5 },
  passwordReset: { windowMs: 15 * 60_000, max: 3 },
} as const;
export type EmailLimit = keyof typeof EMAIL_LIMITS;

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', accountTexts.rateLimited, undefined, { retryAfter: retryAfterSeconds });
  }
}

function counterKey(limit: EmailLimit, email: string): string {
  return `email:${limit}:${email.toLowerCase()}`;
}

function retryAfter(windowStart: number, windowMs: number, now: number): number {
  return Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
}

/** Counts one attempt for the email; throws RateLimitedError once the window's budget is spent. */
export async function consumeEmailLimit(db: Db, limit: EmailLimit, email: string, now = Date.now()): Promise<void> {
  const { windowMs, max } = EMAIL_LIMITS[limit];
  const { count, windowStart } = await repository.hitCounter(db, counterKey(limit, email), windowMs, now);
  if (count > max) throw new RateLimitedError(retryAfter(windowStart, windowMs, now));
}

/** Throws RateLimitedError when the email's budget is already spent (without counting this request). */
export async function assertEmailLimit(db: Db, limit: EmailLimit, email: string, now = Date.now()): Promise<void> {
  const { windowMs, max } = EMAIL_LIMITS[limit];
  const { count, windowStart } = await repository.peekCounter(db, counterKey(limit, email), windowMs, now);
  if (count >= max) throw new RateLimitedError(retryAfter(windowStart, windowMs, now));
}

export async function recordEmailAttempt(db: Db, limit: EmailLimit, email: string, now = Date.now()): Promise<void> {
  const { windowMs } = EMAIL_LIMITS[limit];
  await repository.hitCounter(db, counterKey(limit, email), windowMs, now);
}

export function toMe(row: repository.ProfileRow): Me {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    imageUrl: row.image || null,
    role: row.role,
    emailVerified: row.emailVerified,
  };
}

export async function getProfile(db: Db, userId: string): Promise<Me> {
  const row = await repository.findProfile(db, userId);
  if (!row) throw new NotFoundError('Account not found', 'ACCOUNT_NOT_FOUND');
  return toMe(row);
}

/**
 * Saves the names and, when given, a new password. A new password ends every other session of the
 * user (the one making the change stays signed in). One transaction: all of it or nothing.
 */
export async function updateProfile(
  db: Db,
  hashPassword: (password: string) => Promise<string>,
  session: { userId: string; sessionId: string },
  input: { firstName: string; lastName: string; newPassword?: string },
): Promise<Me> {
  const hash = input.newPassword ? await hashPassword(input.newPassword) : undefined;
  const row = await db.transaction(async (tx) => {
    const updated = await repository.updateNames(tx, session.userId, input);
    if (!updated) throw new NotFoundError('Account not found', 'ACCOUNT_NOT_FOUND');
    if (hash) {
      await repository.updatePasswordHash(tx, session.userId, hash);
      await repository.deleteOtherSessions(tx, session.userId, session.sessionId);
    }
    return updated;
  });
  return toMe(row);
}

/** Stores a new profile picture (re-encoded by storage) under userImg/ and removes the previous file. */
export async function replaceAvatar(db: Db, storage: Storage, userId: string, data: Buffer): Promise<Me> {
  const saved = await storage.saveImage('userImg', data, { maxWidth: 512, maxHeight: 512 });
  let result: Awaited<ReturnType<typeof repository.replaceImage>>;
  try {
    result = await db.transaction((tx) => repository.replaceImage(tx, userId, saved.url));
  } catch (error) {
    await storage.remove(saved.url);
    throw error;
  }
  if (!result) {
    await storage.remove(saved.url);
    throw new NotFoundError('Account not found', 'ACCOUNT_NOT_FOUND');
  }
  if (result.previous && result.previous !== saved.url) await storage.remove(result.previous);
  return toMe(result.profile);
}
