import type { Category, EventDto, EventSearchHit, EventsPage } from '../../../contracts/catalogue';
import { ALL_CATEGORIES, EVENTS_PAGE_SIZE, HEADER_SEARCH_LIMIT } from '../../../contracts/constants';
import { todayIn } from '../../../contracts/dates';
import { isUuid } from '../../../contracts/ids';
import type { DbOrTx } from '../../db/client';
import { NotFoundError } from '../../plugins/errors';
import {
  archiveEventsEndedBefore,
  countActiveEvents,
  type EventFilter,
  findActiveEvent,
  listActiveEventsPage,
  listCategories,
  searchActiveTitles,
} from './repository';

export interface ListEventsInput {
  /** A category id or name; 'all' or nothing means every category. */
  category?: string;
  /** Already trimmed and capped to SEARCH_QUERY_MAX_LENGTH by the contract. */
  q: string;
  page: number;
}

export interface CatalogueServiceDeps {
  db: DbOrTx;
  /** APP_TIMEZONE: the zone in which "today" is computed for archiving. */
  timeZone: string;
}

export interface CatalogueService {
  getCategories(): Promise<Category[]>;
  /** A normalised cache key for a list request: requests with the same key get the same answer. */
  listEventsKey(input: ListEventsInput): string;
  /**
   * One page of active events. An unknown category is an empty list (not an error); a page past the
   * last one answers the last page. One query in the usual case (the page and its total together).
   */
  listEvents(input: ListEventsInput): Promise<EventsPage>;
  getEvent(id: string): Promise<EventDto>;
  /** The header's live search: a handful of active events whose title starts with `q`. */
  searchEvents(q: string): Promise<EventSearchHit[]>;
  /**
   * Archives (soft-deletes) every active event whose end date is before today in the time zone; returns
   * their ids. `now` is a parameter so the time-zone edges can be tested.
   */
  archivePastEvents(now?: Date): Promise<string[]>;
}

/** The filter of a list request: '' or 'all' means every category. */
function eventFilter(input: Pick<ListEventsInput, 'category' | 'q'>): EventFilter {
  const filter: EventFilter = {};
  const category = input.category?.trim();
  if (category && category.toLowerCase() !== ALL_CATEGORIES) filter.categoryIdOrName = category;
  if (input.q) filter.titlePrefix = input.q.toLowerCase();
  return filter;
}

export function createCatalogueService({ db, timeZone }: CatalogueServiceDeps): CatalogueService {
  return {
    getCategories: () => listCategories(db),

    listEventsKey(input) {
      const filter = eventFilter(input);
      return JSON.stringify([filter.categoryIdOrName?.toLowerCase() ?? '', filter.titlePrefix ?? '', input.page]);
    },

    async listEvents(input) {
      const filter = eventFilter(input);
      const requested = Math.max(1, input.page);
      const found = await listActiveEventsPage(
        db,
        filter,
        EVENTS_PAGE_SIZE,
        (requested - 1) * EVENTS_PAGE_SIZE,
        timeZone,
      );
      if (found.total !== undefined) {
        return {
          items: found.items,
          page: requested,
          pageCount: Math.ceil(found.total / EVENTS_PAGE_SIZE),
          total: found.total,
        };
      }
      // An empty page: nothing matches, or the page is past the last one (then answer the last page).
      const total = requested === 1 ? 0 : await countActiveEvents(db, filter);
      if (total === 0) return { items: [], page: 1, pageCount: 0, total: 0 };
      const pageCount = Math.ceil(total / EVENTS_PAGE_SIZE);
      const last = await listActiveEventsPage(
        db,
        filter,
        EVENTS_PAGE_SIZE,
        (pageCount - 1) * EVENTS_PAGE_SIZE,
        timeZone,
      );
      const lastTotal = last.total ?? total;
      return {
        items: last.items,
        page: pageCount,
        pageCount: Math.ceil(lastTotal / EVENTS_PAGE_SIZE),
        total: lastTotal,
      };
    },

    async getEvent(id) {
      const event = isUuid(id) ? await findActiveEvent(db, id, timeZone) : undefined;
      if (!event) throw new NotFoundError('This event does not exist or is no longer available', 'EVENT_NOT_FOUND');
      return event;
    },

    async searchEvents(q) {
      if (!q) return [];
      return searchActiveTitles(db, q.toLowerCase(), HEADER_SEARCH_LIMIT);
    },

    archivePastEvents: (now = new Date()) => archiveEventsEndedBefore(db, todayIn(timeZone, now)),
  };
}
