import { useQuery } from '@tanstack/react-query';
import { type RefObject, useEffect } from 'react';
import { Link } from 'react-router';
import { HEADER_SEARCH_LIMIT } from '../../../../../contracts/constants';
import { cn } from '../../../components/ui/cn';
import { useI18n } from '../../../lib/i18n';
import { getEventsQueryOptions } from '../api/get-events';
import { useSearchEvents } from '../api/search-events';

/** The arrow keys in the search: true when they moved the focus (the results then stay open). */
export type ArrowKeys = (
  event: React.KeyboardEvent,
  panel: HTMLElement | null,
  input: HTMLInputElement | null,
) => boolean;

/** Down and Up move through the results' links; Up from the first goes back to the field. */
const moveWithArrows: ArrowKeys = (event, panel, input) => {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return false;
  const all = Array.from(panel?.querySelectorAll<HTMLAnchorElement>('a') ?? []);
  if (all.length === 0) return false;
  event.preventDefault();
  const index = all.indexOf(document.activeElement as HTMLAnchorElement);
  const next = event.key === 'ArrowDown' ? Math.min(index + 1, all.length - 1) : index - 1;
  if (next < 0) input?.focus();
  else all[next]?.focus();
  return true;
};

/**
 * What the header search lists for `query` (already debounced; `text` is what the field holds now): events
 * whose title starts with it, each with its image and title, linking to the event; 'There is no events with
 * this title' when none match. It lists the first HEADER_SEARCH_LIMIT (docs/decisions/012); when there may
 * be more, it counts them all and ends with a link to the events page searched for the same text, which
 * lists every one. Loaded once something is typed: no page's first load needs it.
 */
export default function HeaderSearchResults({
  query,
  text,
  onFollow,
  onFetching,
  arrows,
}: {
  query: string;
  text: string;
  onFollow: () => void;
  onFetching: (fetching: boolean) => void;
  /** Where the field finds moveWithArrows while this is shown (this chunk is loaded only once it is needed). */
  arrows: RefObject<ArrowKeys | undefined>;
}) {
  useEffect(() => {
    arrows.current = moveWithArrows;
    return () => {
      arrows.current = undefined;
    };
  }, [arrows]);
  const { t } = useI18n();
  const { data, isFetching, isPlaceholderData } = useSearchEvents(query);
  // The field shows the spinner (it sits in the field, outside this panel).
  useEffect(() => {
    onFetching(isFetching);
    return () => onFetching(false);
  }, [isFetching, onFetching]);

  const settled = data !== undefined && !isPlaceholderData && query === text.trim();
  const items = data?.items ?? [];
  // A full answer may hide more matches: the events list (the same title prefix) counts them, and the link
  // to them all shows once there are more than listed. Its previous text's count is not shown as this one's.
  const full = !isPlaceholderData && items.length >= HEADER_SEARCH_LIMIT;
  const all = useQuery({ ...getEventsQueryOptions({ q: query }), enabled: full });
  const count = full ? (all.isPlaceholderData ? undefined : all.data?.total) : items.length;

  return (
    <>
      {items.length > 0 ? (
        <ul aria-label={t('catalogue.searchResults')} className="flex flex-col gap-1">
          {items.map((item) => (
            <li key={item.id}>
              <Link
                to={`/event-details/${item.id}`}
                onClick={onFollow}
                className="flex items-center gap-3 rounded-lg p-2 hover:bg-surface-overlay focus:bg-surface-overlay focus:outline-none"
              >
                <img
                  src={item.imageUrl}
                  alt=""
                  width={64}
                  height={36}
                  loading="lazy"
                  className="h-9 w-16 shrink-0 rounded-md object-cover"
                />
                <span className="line-clamp-2 text-sm font-medium" dir="auto">
                  {item.title}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {count !== undefined && count > items.length ? (
        <Link
          to={`/events-page/all?${new URLSearchParams({ q: query })}`}
          onClick={onFollow}
          className="block rounded-lg p-2 text-sm font-medium text-accent hover:bg-surface-overlay focus:bg-surface-overlay focus:outline-none"
        >
          {t('catalogue.seeAllResults', { count })}
        </Link>
      ) : null}
      <p role="status" className={cn('px-2 py-3 text-sm text-fg-muted', !(settled && items.length === 0) && 'sr-only')}>
        {settled && count !== undefined
          ? count
            ? t('catalogue.resultsCount', { count })
            : t('catalogue.noSearchMatch')
          : ''}
      </p>
    </>
  );
}
