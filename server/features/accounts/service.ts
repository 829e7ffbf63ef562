import type { Me } from '../../../contracts/accounts';
import type { Lang } from '../../../contracts/i18n/languages';
import { msg } from '../../../contracts/i18n/text';
import type { Db } from '../../db/client';
import { hitCounter, peekCounter } from '../../db/counters';
import { AppError, NotFoundError, ValidationError } from '../../plugins/errors';
import { rememberDiscarded, type Uploads } from '../../plugins/uploads';
import * as repository from './repository';

/**
 * Per-email limits, on top of better-auth's per-IP ones: they protect one account (or one inbox) from
 * attempts spread over many addresses. Sign-in counts failures only, so a user's own sign-ins never
 * lock them out; sign-up and reset count every request. Failed sign-ins are counted per email and
 * address (someone guessing from one place stops there, and cannot lock the owner out from theirs) and,
 * with a higher ceiling, per email from any address (guessing spread over many places stops too).
 */
export const EMAIL_LIMITS = {
  signInFailures: { windowMs: 15 * 60_000, max: 10 },
  signInFailuresAnyAddress: { windowMs: 15 * 60_000, max: 50 },
  signUp: { windowMs: 15 * 60_000, max: 5 },
  passwordReset: { windowMs: 15 * 60_000, max: 3 },
} as const;
export type EmailLimit = keyof typeof EMAIL_LIMITS;

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', msg('accounts.rateLimited'), undefined, { retryAfter: retryAfterSeconds });
  }
}

const PICTURE_NOT_UPLOADED = msg('accounts.pictureNotUploaded');

/** The account of a session that was deleted meanwhile. */
function accountNotFound(): NotFoundError {
  return new NotFoundError(msg('accounts.accountNotFound'), 'ACCOUNT_NOT_FOUND');
}

function counterKey(limit: EmailLimit, email: string, address?: string): string {
  return `email:${limit}:${email.toLowerCase()}${address === undefined ? '' : ` ${address}`}`;
}

function retryAfter(windowStart: number, windowMs: number, now: number): number {
  return Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
}

/** The counters of failed sign-ins: per email and address, and per email from any address. */
function signInCounters(email: string, address: string): Array<{ limit: EmailLimit; key: string }> {
  return [
    { limit: 'signInFailures', key: counterKey('signInFailures', email, address) },
    { limit: 'signInFailuresAnyAddress', key: counterKey('signInFailuresAnyAddress', email) },
  ];
}

/** The profile as GET /api/me gives it, but for doorStaff (the door staff's own, added by the route). */
export type Profile = Omit<Me, 'doorStaff'>;

function toMe(row: repository.ProfileRow): Profile {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    imageUrl: row.image || null,
    role: row.role,
    emailVerified: row.emailVerified,
    language: row.language,
  };
}

export interface AccountsServiceDeps {
  db: Db;
  uploads: Uploads;
  /** better-auth's password hashing (its context's `password.hash`), so a changed password signs in as usual. */
  hashPassword(password: string): Promise<string>;
}

export interface AccountsService {
  /** Counts one attempt for the email; throws RateLimitedError once the window's budget is spent. */
  consumeEmailLimit(limit: EmailLimit, email: string, now?: number): Promise<void>;
  /**
   * Throws RateLimitedError when failed sign-ins for `email` from `address`, or from anywhere, are used up
   * (without counting this attempt: only a failure counts, see recordSignInFailure).
   */
  assertSignInAllowed(email: string, address: string, now?: number): Promise<void>;
  recordSignInFailure(email: string, address: string, now?: number): Promise<void>;
  /** Whether an account has this email already. */
  emailRegistered(email: string): Promise<boolean>;
  /** Saves the language the user chose (for their emails and their next sign-ins). */
  setLanguage(userId: string, language: Lang): Promise<void>;
  /** The language saved for the account of this email, if any. */
  languageOfEmail(email: string): Promise<Lang | null>;
  /**
   * Saves the names, the picture (the current one, the one just uploaded, or none) and, when given, a new
   * password. A new password ends every other session of the user (the one making the change stays signed
   * in). One transaction: all of it or nothing; after it, the files of the replaced picture and of an
   * uploaded one that was not chosen are removed.
   */
  updateProfile(
    session: { userId: string; sessionId: string },
    input: { firstName: string; lastName: string; newPassword?: string; imageUrl?: string | null },
  ): Promise<Profile>;
  /**
   * Stores an uploaded profile picture (re-encoded by storage) under userImg/ as the user's pending
   * picture: the edit screen previews it, and saving the profile makes it theirs. An earlier pending
   * upload that was never saved is removed; this one is too if it is still not saved after the uploads
   * grace period (server/plugins/uploads.ts).
   */
  uploadAvatar(userId: string, data: Buffer): Promise<string>;
}

export function createAccountsService({ db, uploads, hashPassword }: AccountsServiceDeps): AccountsService {
  return {
    async consumeEmailLimit(limit, email, now = Date.now()) {
      const { windowMs, max } = EMAIL_LIMITS[limit];
      const { count, windowStart } = await hitCounter(db, counterKey(limit, email), windowMs, now);
      if (count > max) throw new RateLimitedError(retryAfter(windowStart, windowMs, now));
    },

    async assertSignInAllowed(email, address, now = Date.now()) {
      for (const { limit, key } of signInCounters(email, address)) {
        const { windowMs, max } = EMAIL_LIMITS[limit];
        const { count, windowStart } = await peekCounter(db, key, windowMs, now);
        if (count >= max) throw new RateLimitedError(retryAfter(windowStart, windowMs, now));
      }
    },

    async recordSignInFailure(email, address, now = Date.now()) {
      for (const { limit, key } of signInCounters(email, address)) {
        await hitCounter(db, key, EMAIL_LIMITS[limit].windowMs, now);
      }
    },

    emailRegistered: (email) => repository.emailRegistered(db, email),

    async setLanguage(userId, language) {
      if (!(await repository.setLanguage(db, userId, language))) throw accountNotFound();
    },

    languageOfEmail: (email) => repository.languageOfEmail(db, email),

    async updateProfile(session, input) {
      const hash = input.newPassword ? await hashPassword(input.newPassword) : undefined;
      const { row, dropped } = await db.transaction(async (tx) => {
        const images = await repository.lockImages(tx, session.userId);
        if (!images) throw accountNotFound();
        let dropped: string[] = [];
        const wanted = input.imageUrl === undefined ? images.image : input.imageUrl || null;
        if (wanted !== images.image) {
          // Only this user's own upload can become their picture: never another user's file.
          if (wanted !== null && wanted !== images.pendingImage) {
            throw new ValidationError({ imageUrl: PICTURE_NOT_UPLOADED }, PICTURE_NOT_UPLOADED);
          }
          await repository.applyImage(tx, session.userId, wanted);
          // applyImage also forgets the pending upload: unless it became the picture, nothing shows it now.
          // Both are remembered with the change, so a crash after the commit cannot leave their files behind.
          dropped = await rememberDiscarded(tx, [
            images.image,
            images.pendingImage === wanted ? null : images.pendingImage,
          ]);
        }
        const updated = await repository.updateNames(tx, session.userId, input);
        if (!updated) throw accountNotFound();
        if (hash) {
          await repository.updatePasswordHash(tx, session.userId, hash);
          await repository.deleteOtherSessions(tx, session.userId, session.sessionId);
        }
        return { row: updated, dropped };
      });
      await uploads.discard(dropped);
      return toMe(row);
    },

    async uploadAvatar(userId, data) {
      const url = await uploads.save('userImg', data, { maxWidth: 512, maxHeight: 512 });
      let result: Awaited<ReturnType<typeof repository.setPendingImage>>;
      try {
        result = await db.transaction(async (tx) => {
          const set = await repository.setPendingImage(tx, userId, url);
          if (set) await rememberDiscarded(tx, [set.previousPending]);
          return set;
        });
      } catch (error) {
        await uploads.discard([url]);
        throw error;
      }
      if (!result) {
        await uploads.discard([url]);
        throw accountNotFound();
      }
      await uploads.discard([result.previousPending]);
      return url;
    },
  };
}
