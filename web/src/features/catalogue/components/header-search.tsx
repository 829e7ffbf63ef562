import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { HEADER_SEARCH_LIMIT } from '../../../../../contracts/constants';
import { catalogueMessages } from '../../../../../contracts/messages/catalogue';
import { cn } from '../../../components/ui/cn';
import { Spinner } from '../../../components/ui/spinner';
import { getEventsQueryOptions } from '../api/get-events';
import { useSearchEvents } from '../api/search-events';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { IconSearch } from './icons';

const HEADER_SEARCH_DEBOUNCE_MS = 250;

/**
 * The header's live search (SPEC §2): events whose title starts with the text, each with its image
 * and title, linking to the event; 'There is no events with this title' when none match. It lists the
 * first HEADER_SEARCH_LIMIT (docs/decisions/012); when there may be more, it counts them all and ends with
 * a link to the events page searched for the same text, which lists every one.
 */
export function HeaderSearch({ className }: { className?: string }) {
  const id = useId();
  const inputId = `${id}-input`;
  const resultsId = `${id}-results`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const results = useRef<HTMLDivElement>(null);
  const query = useDebouncedValue(text.trim(), HEADER_SEARCH_DEBOUNCE_MS);
  const { data, isFetching, isPlaceholderData } = useSearchEvents(query);
  const { pathname } = useLocation();

  // Following a result (or any navigation) closes the list.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the point of a route change
  useEffect(() => {
    setOpen(false);
  }, [pathname]);

  // On a server-rendered page, text typed before React hydrated is only in the DOM: adopt it, and show its
  // results if the field still has the focus. After the effect above: both run on mount, and its closing
  // came last and hid the results (the field kept the text, nothing showed for it).
  useEffect(() => {
    const typed = input.current?.value ?? '';
    if (typed === '') return;
    setText(typed);
    if (document.activeElement === input.current) setOpen(true);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const showPanel = open && query.length > 0;
  const settled = data !== undefined && !isPlaceholderData && query === text.trim();
  const items = data?.items ?? [];
  // A full answer may hide more matches: the events list (the same title prefix) counts them, and the link
  // to them all shows once there are more than listed. Its previous text's count is not shown as this one's.
  const full = !isPlaceholderData && items.length >= HEADER_SEARCH_LIMIT;
  const all = useQuery({ ...getEventsQueryOptions({ q: query }), enabled: full });
  const count = full ? (all.isPlaceholderData ? undefined : all.data?.total) : items.length;

  function follow() {
    setOpen(false);
    setText('');
  }

  function links(): HTMLAnchorElement[] {
    return Array.from(results.current?.querySelectorAll<HTMLAnchorElement>('a') ?? []);
  }

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === 'Escape') {
      if (!showPanel) return; // nothing to close here: a menu around the search may close instead
      event.preventDefault();
      setOpen(false);
      input.current?.focus();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const all = links();
    if (all.length === 0) return;
    event.preventDefault();
    setOpen(true);
    const index = all.indexOf(document.activeElement as HTMLAnchorElement);
    const next = event.key === 'ArrowDown' ? Math.min(index + 1, all.length - 1) : index - 1;
    if (next < 0) input.current?.focus();
    else all[next]?.focus();
  }

  // Tabbing out of the search closes its results (a pointer outside closes them too, above).
  function onBlur(event: React.FocusEvent) {
    const to = event.relatedTarget as Node | null;
    if (to && !root.current?.contains(to)) setOpen(false);
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: key handling for the arrow keys of the input and its results
    <div ref={root} className={cn('relative', className)} onKeyDown={onKeyDown} onBlur={onBlur}>
      <label htmlFor={inputId} className="sr-only">
        {catalogueMessages.searchEvents}
      </label>
      <div className="relative">
        <IconSearch className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-fg-muted" />
        <input
          ref={input}
          id={inputId}
          type="search"
          autoComplete="off"
          placeholder={catalogueMessages.searchEvents}
          value={text}
          maxLength={100}
          aria-controls={resultsId}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          className="h-10 w-full rounded-full border border-border bg-surface/80 pr-9 pl-9 text-sm text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none"
        />
        {isFetching && showPanel ? (
          <Spinner className="absolute top-1/2 right-3 -translate-y-1/2 text-fg-muted" label="Searching" />
        ) : null}
      </div>
      <div
        ref={results}
        id={resultsId}
        hidden={!showPanel}
        className="absolute inset-x-0 top-12 z-50 max-h-96 overflow-y-auto rounded-xl border border-border bg-surface-raised p-2 shadow-2xl"
      >
        {items.length > 0 ? (
          <ul aria-label="Search results" className="flex flex-col gap-1">
            {items.map((item) => (
              <li key={item.id}>
                <Link
                  to={`/event-details/${item.id}`}
                  onClick={follow}
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
                  <span className="line-clamp-2 text-sm font-medium">{item.title}</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        {count !== undefined && count > items.length ? (
          <Link
            to={`/events-page/all?${new URLSearchParams({ q: query })}`}
            onClick={follow}
            className="block rounded-lg p-2 text-sm font-medium text-accent hover:bg-surface-overlay focus:bg-surface-overlay focus:outline-none"
          >
            See all {count} results
          </Link>
        ) : null}
        <p
          role="status"
          className={cn('px-2 py-3 text-sm text-fg-muted', !(settled && items.length === 0) && 'sr-only')}
        >
          {settled && count !== undefined ? (count ? `${count} results` : catalogueMessages.noSearchMatch) : ''}
        </p>
      </div>
    </div>
  );
}
