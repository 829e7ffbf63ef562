import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { categoryDescription, categoryView } from '../../../../../contracts/category-heading';
import { ALL_CATEGORIES, SEARCH_DEBOUNCE_MS, SEARCH_QUERY_MAX_LENGTH } from '../../../../../contracts/constants';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { lazyChunk } from '../../../lib/chunk';
import { HydrateLater } from '../../../lib/hydrate-later';
import { useI18n } from '../../../lib/i18n';
import { useCategories } from '../api/get-categories';
import { useEvents } from '../api/get-events';
import { useLiveEvents } from '../api/use-live-events';
import { CategoryPills } from '../components/category-pills';
import { EventCard, EventCardSkeleton, EventGrid } from '../components/event-card';
import { IconSearch } from '../components/icons';
import { Pagination } from '../components/pagination';
import { ScrollToTopButton } from '../components/scroll-to-top-button';
import { useDebouncedValue } from '../hooks/use-debounced-value';

/** Loaded once the page has scrolled far (ScrollToTopButton). */
const ScrollToTop = lazyChunk(
  () => import('../components/scroll-to-top'),
  (m) => m.ScrollToTop,
);

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** '/events-page/{category}?q=&page=' for a view; page 1 and an empty search are left out. */
function viewHref(category: string, q: string, page = 1): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return `/events-page/${encodeURIComponent(category)}${query ? `?${query}` : ''}`;
}

/**
 * The events list. The URL is the state: /events-page/{category}?q=&page= survives a refresh,
 * can be shared, and the back button walks through pages and categories.
 */
export function EventsPageRoute() {
  const { category = 'all' } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const q = (searchParams.get('q') ?? '').slice(0, SEARCH_QUERY_MAX_LENGTH);
  const page = parsePage(searchParams.get('page'));
  useLiveEvents();

  const { data: categories } = useCategories();
  const i18n = useI18n();
  const view = categoryView(category, categories, i18n);
  const { heading } = view;
  useDocumentMeta(heading, categoryDescription(view, i18n));

  const { data, isPending, isError, isPlaceholderData, refetch } = useEvents({ category, q, page });

  // Next and Previous show another page of cards: start reading it from the top, as a new page would.
  // The focus goes with it: left on Next (or lost with a Next that became disabled), it would sit far below
  // the view and Tab would go on to the footer. It starts at the results instead (their heading, or the
  // page's when there are none); a control above them (the search box, a category) keeps it.
  const shownPage = useRef(page);
  const pageHeading = useRef<HTMLHeadingElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    window.scrollTo(0, 0);
    const active = document.activeElement;
    if (active === document.body || active?.closest('nav[data-pagination]')) {
      (resultsHeading.current ?? pageHeading.current)?.focus({ preventScroll: true });
    }
  }, [page]);

  // A page past the last one shows the last page: make the address say so.
  useEffect(() => {
    if (data && !isPlaceholderData && data.total > 0 && data.page !== page) {
      navigate(viewHref(category, q, data.page), { replace: true });
    }
  }, [data, isPlaceholderData, page, category, q, navigate]);

  return (
    <PageContainer className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 ref={pageHeading} tabIndex={-1} data-route-focus className="text-3xl font-bold tracking-tight sm:text-4xl">
          {heading}
        </h1>
        {view.unknown ? (
          <p className="text-fg-muted">
            {i18n.t('catalogue.noSuchCategory', { category })}{' '}
            <Link to={viewHref(ALL_CATEGORIES, q)} className="text-accent underline">
              {i18n.t('catalogue.seeAllEvents')}
            </Link>
            {i18n.t('catalogue.sentenceEnd')}
          </p>
        ) : data ? (
          <p className="text-sm text-fg-muted" aria-live="polite">
            {i18n.t('catalogue.eventsCount', { count: data.total })}
          </p>
        ) : null}
      </div>
      <CategoryPills current={category} hrefFor={(c) => viewHref(c, q)} />
      <MobileSearch category={category} q={q} />
      {q ? (
        // Said on a phone too: "jazz" finds "Jazz Night", not "Cairo Jazz Night".
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-fg-muted">
          {i18n.t('catalogue.titlesStartingWith', { q })}
          <Link to={viewHref(category, '')} className="text-accent underline">
            {i18n.t('catalogue.clearSearch')}
          </Link>
        </p>
      ) : null}

      {isPending ? (
        <output aria-busy="true" aria-label={i18n.t('catalogue.loadingEvents')} className="block">
          <EventGrid>
            {Array.from({ length: 6 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
              <EventCardSkeleton key={i} />
            ))}
          </EventGrid>
        </output>
      ) : isError ? (
        <div role="alert" className="flex flex-col items-center gap-4 py-16 text-center">
          <p className="text-fg-muted">{i18n.t('common.somethingWentWrong')}</p>
          <button type="button" className="text-accent underline" onClick={() => refetch()}>
            {i18n.t('catalogue.tryAgain')}
          </button>
        </div>
      ) : data.items.length === 0 ? (
        <p className="py-16 text-center text-xl font-semibold text-fg-muted">{i18n.t('catalogue.listEmpty')}</p>
      ) : (
        <div className={isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
          {/* Keeps the outline h1 → h2 → h3 (the cards' titles) without a visible heading. */}
          <h2 ref={resultsHeading} tabIndex={-1} data-route-focus className="sr-only">
            {i18n.t('catalogue.eventsHeading')}
          </h2>
          <EventGrid>
            {data.items.map((event, i) => (
              // The first image is the page's largest paint: fetched at once and first; the rest lazily.
              <HydrateLater key={event.id}>
                <EventCard event={event} priority={i === 0} />
              </HydrateLater>
            ))}
          </EventGrid>
        </div>
      )}
      {data ? (
        <Pagination page={data.page} pageCount={data.pageCount} hrefFor={(p) => viewHref(category, q, p)} />
      ) : null}
      <ScrollToTopButton button={ScrollToTop} />
    </PageContainer>
  );
}

/**
 * The list's own search box, on small screens only (wide screens have the header search). Typing is
 * debounced; the text goes to the URL (replacing the entry, so Back skips keystrokes) and resets the page.
 * When the URL's q changes from outside (Back, a link), the box follows it.
 */
function MobileSearch({ category, q }: { category: string; q: string }) {
  const { t } = useI18n();
  const id = useId();
  const navigate = useNavigate();
  const [text, setText] = useState(q);
  const synced = useRef(q);
  const debounced = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);

  useEffect(() => {
    if (q === synced.current) return;
    synced.current = q;
    setText(q);
  }, [q]);

  useEffect(() => {
    // Only once the debounce has caught up with what is in the box, and only for a real change.
    if (debounced !== text.trim() || debounced === synced.current) return;
    synced.current = debounced;
    navigate(viewHref(category, debounced), { replace: true });
  }, [debounced, text, category, navigate]);

  return (
    <search className="md:hidden">
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium">
        {t('catalogue.searchEvents')}
      </label>
      <div className="relative">
        <IconSearch className="pointer-events-none absolute top-1/2 start-3 size-4 -translate-y-1/2 text-fg-muted" />
        <input
          id={id}
          type="search"
          value={text}
          maxLength={SEARCH_QUERY_MAX_LENGTH}
          autoComplete="off"
          placeholder={t('catalogue.eventTitleLabel')}
          onChange={(e) => setText(e.target.value)}
          className="h-11 w-full rounded-lg border border-border bg-surface pe-3 ps-9 text-fg placeholder:text-fg-muted/70 focus:border-accent focus:outline-none"
        />
      </div>
    </search>
  );
}
