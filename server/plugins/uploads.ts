import { and, eq, isNotNull, isNull, lt, not, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db, DbOrTx } from '../db/client';
import { events, uploads, users } from '../db/schema';
import { isUploadUrl, type Storage, type UploadFolder } from './storage';

/**
 * Uploaded pictures that nothing shows are removed. An admin may upload a picture in the event form and
 * cancel, or upload several and save one; a user may upload a profile picture and never save it, or
 * remove their picture. Each upload is remembered in the `uploads` table until an event or a profile
 * shows it; a picture an edit replaces is remembered again, in the edit's transaction. The job removes the
 * files that nothing shows once they are older than UPLOAD_GRACE_MS, and forgets the rows of those that
 * something shows.
 *
 * It never removes a picture an event shows (deleted events included: they keep theirs) or a profile
 * shows. Saving an event takes its new picture's row in the same transaction (`claimUpload`). A removal
 * first marks the row, in a short transaction that locks it and checks that nothing shows the file; a
 * marked row can no longer be taken. So of an event saved and a removal at the same moment exactly one
 * wins: the event keeps its picture, or is refused ('Upload the image again'). The file is removed only
 * after that commit (no lock or transaction is held while the disk or the bucket answers), then the row;
 * a removal that fails leaves the row marked, and later runs try again. See
 * docs/decisions/013-unused-uploads-are-removed.md.
 */

/** How long an upload may wait to be saved (an admin filling in the event form) before it may be removed. */
export const UPLOAD_GRACE_MS = 24 * 60 * 60_000;
export const UPLOADS_JOB = 'remove-unused-uploads';
const UPLOADS_EVERY_MS = 60 * 60_000;
/** At most this many files a run: a backlog is worked off run by run, each run short. */
const REMOVALS_PER_RUN = 1_000;
/**
 * A run goes on past a file it could not remove, and stops after this many failures in a row: the disk or
 * the bucket is then probably out of reach, and the next run tries again (rather than a warning for each
 * of a thousand files).
 */
export const MAX_FAILURES_IN_A_ROW = 5;

export interface Uploads {
  /** Stores an image (Storage.saveImage) and remembers it as unused until something shows it; returns its URL. */
  save(folder: UploadFolder, data: Buffer, options?: Parameters<Storage['saveImage']>[2]): Promise<string>;
  /**
   * Removes at once pictures just replaced or dropped (upload URLs; others are ignored), except those that an
   * event or a profile still shows. They must be remembered already: uploaded by `save`, or handed to
   * `rememberDiscarded` in the transaction that dropped them. A failure is logged and leaves them to the job.
   */
  discard(urls: ReadonlyArray<string | null | undefined>): Promise<void>;
  /**
   * One run of the job: removes the uploads older than the grace period at `now` that nothing shows (a
   * profile picture uploaded but never saved included), tries again those whose removal failed, and forgets
   * those that something shows.
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

/** The upload URLs among `urls`, each once. */
function uploadUrls(urls: ReadonlyArray<string | null | undefined>): string[] {
  return [...new Set(urls)].filter((url): url is string => typeof url === 'string' && isUploadUrl(url));
}

/**
 * Takes the unused upload `url` for the row that `tx` writes (an event's picture): true when it was one, and
 * its row is then deleted with the transaction. False when there is no such upload, or it is being removed:
 * a removal marks the row (locked, after checking nothing shows it) before it removes the file, so the two
 * never both have it.
 */
export async function claimUpload(tx: DbOrTx, url: string): Promise<boolean> {
  const claimed = await tx
    .delete(uploads)
    .where(and(eq(uploads.url, url), isNull(uploads.removalTriedAt)))
    .returning({ url: uploads.url });
  return claimed.length > 0;
}

/**
 * Remembers pictures that the transaction `tx` stops showing (an edit replacing or dropping them), in that
 * transaction: committed together, so no crash can leave a file that nothing shows and nothing remembers.
 * Returns the upload URLs among them, to hand to `Uploads.discard` once the transaction has committed.
 */
export async function rememberDiscarded(tx: DbOrTx, urls: ReadonlyArray<string | null | undefined>): Promise<string[]> {
  const list = uploadUrls(urls);
  if (list.length > 0) {
    await tx
      .insert(uploads)
      .values(list.map((url) => ({ url })))
      .onConflictDoNothing();
  }
  return list;
}

/**
 * Marks a remembered file for removal if nothing shows it, in one short transaction: the row is locked
 * first (an event saving it waits, then is refused), a pending profile picture of that URL is withdrawn
 * (the profile being saved with it waits, then is refused), and the row is marked only if, seen after both,
 * nothing shows the file. A row marked already (a removal that failed) is not checked again: nothing can
 * have taken it since. Each attempt moves the mark to its time. True when the file may now be removed.
 */
async function markForRemoval(db: Db, url: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ triedAt: uploads.removalTriedAt })
      .from(uploads)
      .where(eq(uploads.url, url))
      .for('update');
    if (!row) return false;
    const first = row.triedAt === null;
    if (first) await tx.update(users).set({ pendingImage: null }).where(eq(users.pendingImage, url));
    const marked = await tx
      .update(uploads)
      .set({ removalTriedAt: sql`now()` })
      .where(and(eq(uploads.url, url), first ? not(SHOWN) : undefined))
      .returning({ url: uploads.url });
    return marked.length > 0;
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

  /** Marks the file (unless something shows it), then, committed, removes it and forgets its row. */
  async function removeIfUnused(url: string): Promise<boolean> {
    if (!(await markForRemoval(db, url))) return false;
    await storage.remove(url);
    await db.delete(uploads).where(eq(uploads.url, url));
    return true;
  }

  /**
   * Removes each file in turn. A failure is logged and the next file is tried; after MAX_FAILURES_IN_A_ROW
   * failures in a row the rest is left for the next run. A file that failed stays marked and is tried again.
   */
  async function removeEach(urls: readonly string[]): Promise<number> {
    let removed = 0;
    let failuresInARow = 0;
    for (const url of urls) {
      try {
        if (await removeIfUnused(url)) {
          removed++;
          failuresInARow = 0;
        }
      } catch (err) {
        failuresInARow++;
        log.warn({ err, url }, 'could not remove an unused upload; the uploads job tries again');
        if (failuresInARow >= MAX_FAILURES_IN_A_ROW) {
          log.warn({ failuresInARow }, 'stopped removing unused uploads after failures in a row; the next run goes on');
          break;
        }
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
      await removeEach(uploadUrls(urls));
    },

    async removeUnused(now = new Date()) {
      const forgotten = await forgetShown(db);
      // Oldest first; a removal that failed counts from its last attempt, so it queues behind the others.
      const candidates = await db
        .select({ url: uploads.url })
        .from(uploads)
        .where(
          or(
            isNotNull(uploads.removalTriedAt),
            and(lt(uploads.uploadedAt, new Date(now.getTime() - UPLOAD_GRACE_MS)), not(SHOWN)),
          ),
        )
        .orderBy(sql`coalesce(${uploads.removalTriedAt}, ${uploads.uploadedAt})`)
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
