import { and, asc, eq, lt, not, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db, DbOrTx } from '../db/client';
import { events, uploads, users } from '../db/schema';
import { isUploadUrl, type Storage, type UploadFolder } from './storage';

/**
 * Uploaded pictures that nothing shows are removed. An admin may upload a picture in the event form and
 * cancel, or upload several and save one; a user may upload a profile picture and never save it, or
 * remove their picture. Each upload is remembered in the `uploads` table until an event or a profile
 * shows it; a picture an edit replaces is remembered again. The job removes the files that nothing
 * shows once they are older than UPLOAD_GRACE_MS, and forgets the rows of those that something shows.
 *
 * It never removes a picture an event shows (deleted events included: they keep theirs) or a profile
 * shows. Saving an event takes its new picture's row in the same transaction (`claimUpload`), and the
 * job removes a file only in the transaction that deletes its row after checking that nothing shows it,
 * so of an event saved and the job running at the same moment exactly one wins: the event keeps its
 * picture, or is refused ('Upload the image again'). See docs/decisions/013-unused-uploads-are-removed.md.
 */

/** How long an upload may wait to be saved (an admin filling in the event form) before it may be removed. */
export const UPLOAD_GRACE_MS = 24 * 60 * 60_000;
export const UPLOADS_JOB = 'remove-unused-uploads';
const UPLOADS_EVERY_MS = 60 * 60_000;
/** At most this many files a run: a backlog is worked off run by run, each run short. */
const REMOVALS_PER_RUN = 1_000;

export interface Uploads {
  /** Stores an image (Storage.saveImage) and remembers it as unused until something shows it; returns its URL. */
  save(folder: UploadFolder, data: Buffer, options?: Parameters<Storage['saveImage']>[2]): Promise<string>;
  /**
   * Removes pictures just replaced or dropped (upload URLs; others are ignored), except those that an event
   * or a profile still shows. A storage failure is logged and leaves them to the job.
   */
  discard(urls: ReadonlyArray<string | null | undefined>): Promise<void>;
  /**
   * One run of the job: removes the uploads older than the grace period at `now` that nothing shows (a
   * profile picture uploaded but never saved included), and forgets those that something shows.
   */
  removeUnused(now?: Date): Promise<{ removed: number; forgotten: number }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    uploads: Uploads;
  }
}

/** An event (deleted or not) or a profile shows the upload's picture. A pending profile picture does not count. */
const SHOWN = sql`(EXISTS (SELECT 1 FROM ${events} WHERE ${events.imageUrl} = ${uploads.url})
                OR EXISTS (SELECT 1 FROM ${users} WHERE ${users.image} = ${uploads.url}))`;

/**
 * Takes the unused upload `url` for the row that `tx` writes (an event's picture): true when it was one, and
 * its row is then deleted with the transaction. False when there is no such upload, or the job removed it:
 * the job takes the same row before it removes a file, so the two never both have it.
 */
export async function claimUpload(tx: DbOrTx, url: string): Promise<boolean> {
  const claimed = await tx.delete(uploads).where(eq(uploads.url, url)).returning({ url: uploads.url });
  return claimed.length > 0;
}

/**
 * Removes one remembered file if nothing shows it, in one transaction: the row is locked first (an event
 * saving it waits, then finds it gone), a pending profile picture of that URL is withdrawn (the profile
 * being saved with it waits, then is refused), and the row is deleted only if, seen after both, nothing
 * shows the file. If the storage fails the transaction rolls back and the row stays for the next run.
 */
async function removeIfUnused(db: Db, storage: Storage, url: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ url: uploads.url }).from(uploads).where(eq(uploads.url, url)).for('update');
    if (!row) return false;
    await tx.update(users).set({ pendingImage: null }).where(eq(users.pendingImage, url));
    const deleted = await tx
      .delete(uploads)
      .where(and(eq(uploads.url, url), not(SHOWN)))
      .returning({ url: uploads.url });
    if (deleted.length === 0) return false;
    await storage.remove(url);
    return true;
  });
}

/**
 * Forgets the remembered pictures that an event or a profile shows. The rows that show them are locked
 * (FOR SHARE) while they are read, so an edit replacing one of those pictures either finishes first (and
 * the picture is no longer seen as shown) or waits, and remembers it again after this.
 */
async function forgetShown(db: Db): Promise<number> {
  const forgotten = await db.execute(sql`
    DELETE FROM ${uploads}
     WHERE ${uploads.url} IN (SELECT ${events.imageUrl} FROM ${events}
                               WHERE ${events.imageUrl} IN (SELECT ${uploads.url} FROM ${uploads}) FOR SHARE)
        OR ${uploads.url} IN (SELECT ${users.image} FROM ${users}
                               WHERE ${users.image} IN (SELECT ${uploads.url} FROM ${uploads}) FOR SHARE)`);
  return forgotten.rowCount ?? 0;
}

export function createUploads(deps: { db: Db; storage: Storage; log: FastifyBaseLogger }): Uploads {
  const { db, storage, log } = deps;

  /** Removes each file in turn; stops at the first storage failure (logged), leaving the rest for the next run. */
  async function removeEach(urls: readonly string[]): Promise<number> {
    let removed = 0;
    for (const url of urls) {
      try {
        if (await removeIfUnused(db, storage, url)) removed++;
      } catch (err) {
        log.warn({ err, url }, 'could not remove an unused upload; the uploads job tries again');
        break;
      }
    }
    return removed;
  }

  return {
    async save(folder, data, options) {
      const stored = await storage.saveImage(folder, data, options);
      try {
        await db.insert(uploads).values({ url: stored.url });
      } catch (error) {
        await storage.remove(stored.url).catch(() => {});
        throw error;
      }
      return stored.url;
    },

    async discard(urls) {
      const list = [...new Set(urls)].filter((url): url is string => typeof url === 'string' && isUploadUrl(url));
      if (list.length === 0) return;
      try {
        await db
          .insert(uploads)
          .values(list.map((url) => ({ url })))
          .onConflictDoNothing();
      } catch (err) {
        log.warn({ err, urls: list }, 'could not remember replaced pictures; their files stay');
        return;
      }
      await removeEach(list);
    },

    async removeUnused(now = new Date()) {
      const forgotten = await forgetShown(db);
      const candidates = await db
        .select({ url: uploads.url })
        .from(uploads)
        .where(and(lt(uploads.uploadedAt, new Date(now.getTime() - UPLOAD_GRACE_MS)), not(SHOWN)))
        .orderBy(asc(uploads.uploadedAt))
        .limit(REMOVALS_PER_RUN);
      const removed = await removeEach(candidates.map((c) => c.url));
      return { removed, forgotten };
    },
  };
}

/** `app.uploads`, and the hourly job that removes unused uploads (one process at a time: see scheduler.ts). */
export const uploadsPlugin = fp(
  async function uploadsFeature(app: FastifyInstance) {
    const service = createUploads({ db: app.database.db, storage: app.storage, log: app.log });
    app.decorate('uploads', service);
    app.scheduler.every(UPLOADS_JOB, UPLOADS_EVERY_MS, async () => {
      const { removed, forgotten } = await service.removeUnused();
      if (removed > 0 || forgotten > 0) app.log.info({ removed, forgotten }, 'unused uploads');
    });
  },
  { name: 'uploads', dependencies: ['database', 'storage', 'scheduler'] },
);
