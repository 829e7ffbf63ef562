import type { FastifyInstance } from 'fastify';
import type { Category, EventDto, EventsPage } from '../../contracts/catalogue';
import { categoryDescription, categoryView } from '../../contracts/category-heading';
import { ALL_CATEGORIES, SEARCH_QUERY_MAX_LENGTH } from '../../contracts/constants';
import { eventDescription } from '../../contracts/event-description';
import type { I18n } from '../../contracts/i18n/i18n';
import type { MessageKey } from '../../contracts/i18n/types';
import { isUuid } from '../../contracts/ids';
import { EVENT_CARD_SIZES, EVENT_HERO_SIZES } from '../../contracts/images';
import type { PageMatch } from './page-match';

/** What a page's HTML carries beyond the template: its head, and the data its first paint needs. */
export interface PageHead {
  /** The page's title ('' is the site's own); the template's when undefined. */
  title?: string;
  description?: string;
  image?: string;
  /** How wide the page draws that image (its `sizes`), when it offers the 800 px copy too. */
  imageSizes?: string;
  /** The API answers the page would fetch first (web/src/app/initial-data.ts seeds the query cache with them). */
  data?: Record<string, unknown>;
  /**
   * Render the page's HTML on the server: true for public pages whose data is in `data`; 'visitors' for the
   * pages only a signed-out visitor sees as they are (sign-in, sign-up, reset, contact), rendered for requests
   * without a session cookie.
   */
  prerender?: boolean | 'visitors';
  /** 404: the app shows this address as not found (crawlers and monitors then see it too). */
  status?: 404;
}

/** An API answer that takes longer than this is left out: the page then fetches it itself. */
const DATA_TIMEOUT_MS = 500;

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * Whether a signed-out visitor sees the page as it is, so that the server can name and draw it: the public pages
 * and the sign-in forms, whose guards send only signed-in people on (which sessionRedirect does before any HTML).
 * The others send a visitor to /login, or (reset-password) are reached only from an email; they keep the
 * template's head and are drawn in the browser.
 */
function seenAsIsByVisitors({ page }: PageMatch): boolean {
  return page.guard === 'not-for-admins' || page.guard === 'signed-out-only';
}

/** The head and first data of each page (undefined `match`: the web app's 404 page). */
export function pageHeads(app: FastifyInstance) {
  /** The API's answer to `url`: its data when 200; status 0 when it failed or took too long. */
  async function getApi<T>(url: string): Promise<{ status: number; data?: T }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), DATA_TIMEOUT_MS);
    });
    try {
      const response = await Promise.race([app.inject({ method: 'GET', url }), timeout]);
      if (response?.statusCode !== 200) return { status: response?.statusCode ?? 0 };
      return { status: 200, data: JSON.parse(response.body) as T };
    } catch {
      return { status: 0 };
    } finally {
      clearTimeout(timer);
    }
  }

  async function getJson<T>(url: string): Promise<T | undefined> {
    return (await getApi<T>(url)).data;
  }

  /** A page's fixed title and description, in the page's language. */
  function fixedHead({ page }: PageMatch, i18n: I18n): Pick<PageHead, 'title' | 'description'> {
    return {
      title: page.title ? i18n.t(page.title as MessageKey) : page.title,
      description: page.description ? i18n.t(page.description as MessageKey) : undefined,
    };
  }

  async function home(match: PageMatch, i18n: I18n): Promise<PageHead> {
    const params = { category: ALL_CATEGORIES, q: '', page: 1 };
    const page = await getJson<EventsPage>('/api/events');
    return {
      ...fixedHead(match, i18n),
      image: page?.items[0]?.imageUrl,
      data: page ? { events: { params, data: page } } : undefined,
      prerender: page !== undefined,
    };
  }

  async function eventsPage({ params }: PageMatch, search: URLSearchParams, i18n: I18n): Promise<PageHead> {
    const category = params.category ?? ALL_CATEGORIES;
    // The same parameters as the page's own request (web/src/features/catalogue/routes/events-page.tsx).
    const q = (search.get('q') ?? '').slice(0, SEARCH_QUERY_MAX_LENGTH).trim();
    const pageNumber = parsePage(search.get('page'));
    const query = new URLSearchParams();
    if (category !== ALL_CATEGORIES) query.set('category', category);
    if (q) query.set('q', q);
    if (pageNumber > 1) query.set('page', String(pageNumber));
    const [page, categories] = await Promise.all([
      getJson<EventsPage>(`/api/events${query.size > 0 ? `?${query}` : ''}`),
      getJson<Category[]>('/api/categories'),
    ]);
    const view = categoryView(category, categories, i18n);
    return {
      title: view.heading,
      description: categoryDescription(view, i18n),
      image: page?.items[0]?.imageUrl,
      imageSizes: EVENT_CARD_SIZES,
      data:
        page && categories
          ? { events: { params: { category, q, page: pageNumber }, data: page }, categories }
          : undefined,
      prerender: page !== undefined && categories !== undefined,
      ...(view.unknown ? { status: 404 as const } : {}),
    };
  }

  async function eventDetails({ params }: PageMatch, i18n: I18n): Promise<PageHead> {
    const id = params.id ?? '';
    // The page sends both to /404: an id that cannot be one, and one the API does not know.
    if (!isUuid(id)) return { status: 404 };
    const { status, data: event } = await getApi<EventDto>(`/api/events/${encodeURIComponent(id)}`);
    if (status === 404) return { status: 404 };
    if (!event) return {};
    return {
      title: event.title,
      description: eventDescription(event, i18n),
      image: event.imageUrl,
      imageSizes: EVENT_HERO_SIZES,
      data: { event: { id, data: event } },
      prerender: true,
    };
  }

  /** What the page needs first; nothing for pages without public data. */
  return async function pageHead(match: PageMatch | undefined, search: URLSearchParams, i18n: I18n): Promise<PageHead> {
    // web/src/app/router.tsx sends every other address to /404 (and /404 is not found either).
    if (!match) return { status: 404 };
    if (match.id === 'home') return home(match, i18n);
    if (match.id === 'eventsPage') return eventsPage(match, search, i18n);
    if (match.id === 'eventDetails') return eventDetails(match, i18n);
    // The forms a visitor opens without data of their own (sign-in, sign-up, reset, contact): they show at once
    // instead of after the app's code.
    if (match.page.title !== undefined && seenAsIsByVisitors(match)) {
      return { ...fixedHead(match, i18n), prerender: 'visitors' };
    }
    return {};
  };
}
