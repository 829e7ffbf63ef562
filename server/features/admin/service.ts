import {
  type AdminEventsPage,
  type AdminFormMeta,
  type EventValues,
  eventInputSchema,
  fieldErrors,
} from '../../../contracts/admin';
import type { EventDto } from '../../../contracts/catalogue';
import { ADMIN_EVENTS_PAGE_SIZE, DEFAULT_CATEGORY_ID } from '../../../contracts/constants';
import { todayIn } from '../../../contracts/dates';
import { msg } from '../../../contracts/i18n/text';
import { isUuid } from '../../../contracts/ids';
import type { Db, DbOrTx } from '../../db/client';
import { toEventDto } from '../../domain/events';
import { AppError, ConflictError, isTransactionCollision, NotFoundError, ValidationError } from '../../plugins/errors';
import { claimUpload, rememberDiscarded, type Uploads } from '../../plugins/uploads';
import * as repo from './repository';

export interface AdminDeps {
  db: Db;
  uploads: Uploads;
  timeZone: string;
}

function eventNotFound(): NotFoundError {
  return new NotFoundError('admin.eventNotFound', 'EVENT_NOT_FOUND');
}

/** One page of the admin list; a page past the last one answers the last page (as GET /api/events does). */

/**
 * Makes `imageUrl` the picture of the event that `tx` writes. A new picture must be an upload that nothing
 * uses yet (taken from the unused-uploads job, see server/plugins/uploads.ts) or one that another event
 * shows (that event is locked so it keeps showing it until we commit): a well-formed URL is not enough.
 */

async function takeImage(tx: DbOrTx, imageUrl: string): Promise<void> {
  if (await claimUpload(tx, imageUrl)) return;
  if (await repo.lockEventShowingImage(tx, imageUrl)) return;
  throw new ValidationError({ imageUrl: 'admin.imageInvalid' });
}

/**
 * A category deleted between our check and the write surfaces as a foreign-key violation. Two saves that
 * each wait for the other's event (admins swapping pictures between two events at the same moment) end in a
 * deadlock, one of them cancelled by PostgreSQL: that one is told to try again, never given a 500.
 */

function rethrowSaveError(error: unknown): never {
  const code = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  if (code === '23503') throw new ValidationError({ categoryId: 'admin.categoryUnknown' });
  if (isTransactionCollision(error)) throw new ConflictError('SAVE_COLLIDED', 'admin.saveCollided');
  throw error;
}

/** The form was filled in from an older version of the event (If-Match). */

function changedSince(version: number, expectedVersion: number | undefined): ConflictError | undefined {
  if (expectedVersion === undefined || version === expectedVersion) return undefined;
  return new ConflictError('EVENT_CHANGED', 'admin.eventChanged');
}

/** Why an edit wrote nothing: the event is gone, was changed by someone else, or sold more than the new capacity. */

async function notWritten(db: DbOrTx, id: string, expectedVersion: number | undefined): Promise<AppError> {
  const state = await repo.findEventState(db, id);
  if (!state || state.isDeleted) return eventNotFound();
  const changed = changedSince(state.version, expectedVersion);
  if (changed) return changed;
  const taken = state.capacity - state.ticketsAvailable;
  const message = msg('admin.capacityBelowTaken', { count: taken });
  return new AppError(409, 'CAPACITY_BELOW_TAKEN', message, { tickets: message }, { taken });
}

/** Stores an uploaded event picture; it is removed after a day unless an event shows it by then. */

/** Soft delete: the event leaves every list; bookings keep pointing at it (buyers' history). */

/** The admin area's service: the event list, form, soft delete and image upload. */
export function createAdminService(deps: AdminDeps) {
  async function listEvents(query: { q: string; page: number }): Promise<AdminEventsPage> {
    const pageOf = (page: number) =>
      repo.listActiveEvents(deps.db, {
        q: query.q,
        limit: ADMIN_EVENTS_PAGE_SIZE,
        offset: (page - 1) * ADMIN_EVENTS_PAGE_SIZE,
      });
    let page = query.page;
    let { rows, total } = await pageOf(page);
    const last = Math.max(1, Math.ceil(total / ADMIN_EVENTS_PAGE_SIZE));
    if (rows.length === 0 && page > last) {
      page = last;
      ({ rows, total } = await pageOf(page));
    }
    return {
      items: rows.map((row) => toEventDto(row, deps.timeZone)),
      page,
      pageCount: Math.ceil(total / ADMIN_EVENTS_PAGE_SIZE),
      total,
    };
  }

  async function getEvent(id: string): Promise<EventDto> {
    const row = isUuid(id) ? await repo.findActiveEvent(deps.db, id) : undefined;
    if (!row) throw eventNotFound();
    return toEventDto(row, deps.timeZone);
  }

  async function getFormMeta(): Promise<AdminFormMeta> {
    return {
      today: todayIn(deps.timeZone),
      categories: await repo.listCategories(deps.db),
      defaultCategoryId: DEFAULT_CATEGORY_ID,
    };
  }

  async function parseInput(body: unknown, current?: { startDate: string }): Promise<EventValues> {
    const result = eventInputSchema(todayIn(deps.timeZone), { currentStartDate: current?.startDate }).safeParse(body);
    if (!result.success) throw new ValidationError(fieldErrors(result.error.issues));
    if (!(await repo.categoryExists(deps.db, result.data.categoryId))) {
      throw new ValidationError({ categoryId: 'admin.categoryUnknown' });
    }
    return result.data;
  }

  async function createEvent(body: unknown): Promise<EventDto> {
    const values = await parseInput(body);
    const id = await deps.db
      .transaction(async (tx) => {
        await takeImage(tx, values.imageUrl);
        return repo.insertEvent(tx, values);
      })
      .catch(rethrowSaveError);
    return getEvent(id);
  }

  async function updateEvent(id: string, body: unknown, expectedVersion?: number): Promise<EventDto> {
    const current = isUuid(id) ? await repo.findActiveEvent(deps.db, id) : undefined;
    if (!current) throw eventNotFound();
    const values = await parseInput(body, current);
    const replaced = await deps.db
      .transaction(async (tx) => {
        // The event as it is now, locked: another edit may have changed it since `current` was read. A form
        // filled in before that edit is refused as such first, whatever happened to the picture it showed.
        const locked = await repo.lockEventImage(tx, id);
        if (!locked) throw eventNotFound();
        const changed = changedSince(locked.version, expectedVersion);
        if (changed) throw changed;
        const newPicture = locked.imageUrl !== values.imageUrl;
        if (newPicture) await takeImage(tx, values.imageUrl);
        if (!(await repo.updateEvent(tx, id, values, expectedVersion))) throw await notWritten(tx, id, expectedVersion);
        // Remembered with the edit: a crash after the commit cannot leave the replaced file unaccounted for.
        return newPicture ? rememberDiscarded(tx, [locked.imageUrl]) : [];
      })
      .catch(rethrowSaveError);
    // The replaced picture goes, unless another event shows it too (one file per picture, shared by URL).
    await deps.uploads.discard(replaced);
    return getEvent(id);
  }

  function uploadImage(data: Buffer): Promise<string> {
    return deps.uploads.save('eventImg', data);
  }

  async function deleteEvent(id: string): Promise<void> {
    const deleted = isUuid(id) ? await repo.softDeleteEvent(deps.db, id) : false;
    if (!deleted) throw eventNotFound();
  }

  return { listEvents, getEvent, getFormMeta, createEvent, updateEvent, uploadImage, deleteEvent };
}

export type AdminService = ReturnType<typeof createAdminService>;
