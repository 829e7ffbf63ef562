import {
  type AdminEventsPage,
  type AdminFormMeta,
  adminMessages,
  type EventValues,
  eventInputSchema,
  fieldErrors,
} from '../../../contracts/admin';
import type { EventDto } from '../../../contracts/catalogue';
import { ADMIN_EVENTS_PAGE_SIZE, DEFAULT_CATEGORY_ID } from '../../../contracts/constants';
import { todayIn } from '../../../contracts/dates';
import type { Db } from '../../db/client';
import { toEventDto } from '../../domain/events';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../plugins/errors';
import type { Storage } from '../../plugins/storage';
import * as repo from './repository';

export interface AdminDeps {
  db: Db;
  storage: Storage;
  timeZone: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function eventNotFound(): NotFoundError {
  return new NotFoundError('This event does not exist or was deleted.', 'EVENT_NOT_FOUND');
}

export async function listEvents(deps: AdminDeps, query: { q: string; page: number }): Promise<AdminEventsPage> {
  const { rows, total } = await repo.listActiveEvents(deps.db, {
    q: query.q,
    limit: ADMIN_EVENTS_PAGE_SIZE,
    offset: (query.page - 1) * ADMIN_EVENTS_PAGE_SIZE,
  });
  return {
    items: rows.map(toEventDto),
    page: query.page,
    pageCount: Math.ceil(total / ADMIN_EVENTS_PAGE_SIZE),
    total,
  };
}

export async function getEvent(deps: AdminDeps, id: string): Promise<EventDto> {
  const row = UUID.test(id) ? await repo.findActiveEvent(deps.db, id) : undefined;
  if (!row) throw eventNotFound();
  return toEventDto(row);
}

export async function getFormMeta(deps: AdminDeps): Promise<AdminFormMeta> {
  return {
    today: todayIn(deps.timeZone),
    categories: await repo.listCategories(deps.db),
    defaultCategoryId: DEFAULT_CATEGORY_ID,
  };
}

async function parseInput(
  deps: AdminDeps,
  body: unknown,
  current?: { startDate: string; imageUrl: string },
): Promise<EventValues> {
  const result = eventInputSchema(todayIn(deps.timeZone), { currentStartDate: current?.startDate }).safeParse(body);
  if (!result.success) throw new ValidationError(fieldErrors(result.error.issues));
  if (!(await repo.categoryExists(deps.db, result.data.categoryId))) {
    throw new ValidationError({ categoryId: adminMessages.categoryUnknown });
  }
  // A new picture must be one that was uploaded (and is still stored): a well-formed URL is not enough.
  if (result.data.imageUrl !== current?.imageUrl && !(await deps.storage.has(result.data.imageUrl))) {
    throw new ValidationError({ imageUrl: adminMessages.imageInvalid });
  }
  return result.data;
}

/** A category deleted between our check and the write surfaces as a foreign-key violation. */
function rethrowForeignKey(error: unknown): never {
  const code = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  if (code === '23503') throw new ValidationError({ categoryId: adminMessages.categoryUnknown });
  throw error;
}

export async function createEvent(deps: AdminDeps, body: unknown): Promise<EventDto> {
  const values = await parseInput(deps, body);
  const id = await repo.insertEvent(deps.db, values).catch(rethrowForeignKey);
  return getEvent(deps, id);
}

export async function updateEvent(
  deps: AdminDeps,
  id: string,
  body: unknown,
  expectedVersion?: number,
): Promise<EventDto> {
  const current = UUID.test(id) ? await repo.findActiveEvent(deps.db, id) : undefined;
  if (!current) throw eventNotFound();
  const values = await parseInput(deps, body, current);
  const written = await repo.updateEvent(deps.db, id, values, expectedVersion).catch(rethrowForeignKey);
  if (!written) {
    const state = await repo.findEventState(deps.db, id);
    if (!state || state.isDeleted) throw eventNotFound();
    if (expectedVersion !== undefined && state.version !== expectedVersion) {
      throw new ConflictError('EVENT_CHANGED', adminMessages.eventChanged);
    }
    const taken = state.capacity - state.ticketsAvailable;
    const message = adminMessages.capacityBelowTaken(taken);
    throw new AppError(409, 'CAPACITY_BELOW_TAKEN', message, { tickets: message }, { taken });
  }
  // The replaced picture is no longer shown anywhere: drop it (one file per event).
  if (current.imageUrl !== values.imageUrl && !(await repo.imageInUse(deps.db, current.imageUrl, id))) {
    await deps.storage.remove(current.imageUrl).catch(() => {});
  }
  return getEvent(deps, id);
}

/** Soft delete: the event leaves every list; bookings keep pointing at it (buyers' history). */
export async function deleteEvent(deps: AdminDeps, id: string): Promise<void> {
  const deleted = UUID.test(id) ? await repo.softDeleteEvent(deps.db, id) : false;
  if (!deleted) throw eventNotFound();
}
