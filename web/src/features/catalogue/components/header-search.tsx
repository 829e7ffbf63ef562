import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { cn } from '../../../components/ui/cn';
import { Spinner } from '../../../components/ui/spinner';
import { lazyChunk } from '../../../lib/chunk';
import { useI18n } from '../../../lib/i18n';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import type { ArrowKeys } from './header-search-results';
import { IconSearch } from './icons';

/** The list of results, with its queries: loaded on the first search (or focus), not with the page. */
const loadResults = () => import('./header-search-results');
const HeaderSearchResults = lazyChunk(loadResults, (m) => m.default);

const HEADER_SEARCH_DEBOUNCE_MS = 250;

/**
 * The header's live search: the field, its keys and its panel; what the panel lists is
 * HeaderSearchResults (header-search-results.tsx).
 */
export function HeaderSearch({ className }: { className?: string }) {
  const { t } = useI18n();
  const id = useId();
  const inputId = `${id}-input`;
  const resultsId = `${id}-results`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const results = useRef<HTMLDivElement>(null);
  const query = useDebouncedValue(text.trim(), HEADER_SEARCH_DEBOUNCE_MS);
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
  const [fetching, setFetching] = useState(false);

  function follow() {
    setOpen(false);
    setText('');
  }

  /** The arrow keys' moves through the results, from the results' own chunk once it is there. */
  const arrows = useRef<ArrowKeys | undefined>(undefined);

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === 'Escape') {
      if (!showPanel) return; // nothing to close here: a menu around the search may close instead
      event.preventDefault();
      // Focus first: focusing the field opens the results, and the closing must come after.
      input.current?.focus();
      setOpen(false);
      return;
    }
    if (arrows.current?.(event, results.current, input.current)) setOpen(true);
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
        {t('catalogue.searchEvents')}
      </label>
      <div className="relative">
        <IconSearch className="pointer-events-none absolute top-1/2 start-3 size-4 -translate-y-1/2 text-fg-muted" />
        <input
          ref={input}
          id={inputId}
          type="search"
          autoComplete="off"
          placeholder={t('catalogue.searchEvents')}
          value={text}
          maxLength={100}
          aria-controls={resultsId}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          onFocus={() => {
            setOpen(true);
            loadResults().catch(() => undefined); // early, to have it by the first answer; rendering it retries
          }}
          className="h-10 w-full rounded-full border border-border bg-surface/80 ps-9 pe-9 text-sm text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none"
        />
        {fetching && showPanel ? (
          <Spinner className="absolute top-1/2 end-3 -translate-y-1/2 text-fg-muted" label={t('catalogue.searching')} />
        ) : null}
      </div>
      <div
        ref={results}
        id={resultsId}
        hidden={!showPanel}
        className="absolute inset-x-0 top-12 z-50 max-h-96 overflow-y-auto rounded-xl border border-border bg-surface-raised p-2 shadow-2xl"
      >
        {query ? (
          <Suspense fallback={null}>
            <HeaderSearchResults query={query} text={text} onFollow={follow} onFetching={setFetching} arrows={arrows} />
          </Suspense>
        ) : null}
      </div>
    </div>
  );
}
