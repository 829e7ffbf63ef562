import type { Category, EventDto, EventSearchHit, EventsPage } from '../../../contracts/catalogue';
import { ALL_CATEGORIES, EVENTS_PAGE_SIZE, HEADER_SEARCH_LIMIT } from '../../../contracts/constants';
import { todayIn } from '../../../contracts/dates';
import type { DbOrTx } from '../../db/client';
import { NotFoundError } from '../../plugins/errors';
import {
  archiveEventsEndedBefore,
  countActiveEvents,
  type EventFilter,
  findActiveEvent,
  findCategoryId,
  listActiveEvents,
  listCategories,
  searchActiveTitles,
} from './repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function getCategories(db: DbOrTx): Promise<Category[]> {
  return listCategories(db);
}

export interface ListEventsInput {
  /** A category id or name; 'all' or nothing means every category. */
  category?: string;
  /** Already trimmed and capped to SEARCH_QUERY_MAX_LENGTH by the contract. */
  q: string;
  page: number;
}

/**
 * One page of active events. An unknown category is an empty list (not an error); a page past the
 * last one answers the last page.
 */
export async function listEvents(db: DbOrTx, input: ListEventsInput): Promise<EventsPage> {
  const filter: EventFilter = {};
  const category = input.category?.trim();
  if (category && category.toLowerCase() !== ALL_CATEGORIES) {
    const categoryId = await findCategoryId(db, category);
    if (!categoryId) return { items: [], page: 1, pageCount: 0, total: 0 };
    filter.categoryId = categoryId;
  }
  if (input.q) filter.titlePrefix = input.q.toLowerCase();

  const total = await countActiveEvents(db, filter);
  const pageCount = Math.ceil(total / EVENTS_PAGE_SIZE);
  const page = Math.min(Math.max(1, input.page), Math.max(1, pageCount));
  const items = total === 0 ? [] : await listActiveEvents(db, filter, EVENTS_PAGE_SIZE, (page - 1) * EVENTS_PAGE_SIZE);
  return { items, page, pageCount, total };
}

export async function getEvent(db: DbOrTx, id: string): Promise<EventDto> {
  const event = UUID.test(id) ? await findActiveEvent(db, id) : undefined;
  if (!event) throw new NotFoundError('This event does not exist or is no longer available', 'EVENT_NOT_FOUND');
  return event;
}

/** The header's live search: a handful of active events whose title starts with `q`. */
export async function searchEvents(db: DbOrTx, q: string): Promise<EventSearchHit[]> {
  if (!q) return [];
  return searchActiveTitles(db, q.toLowerCase(), HEADER_SEARCH_LIMIT);
}

/**
 * Archives (soft-deletes) every active event whose end date is before today in `timeZone`.
 * `now` is a parameter so the time-zone edges can be tested.
 */
export async function archivePastEvents(db: DbOrTx, timeZone: string, now: Date = new Date()): Promise<string[]> {
  return archiveEventsEndedBefore(db, todayIn(timeZone, now));
}
