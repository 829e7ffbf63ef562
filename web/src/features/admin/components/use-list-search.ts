import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * A searchable, paged list's state in the address (?q=&page=), shared by the admin's lists: the text in the
 * search box (`search`), the search and page the list shows (`q`, `page`), and `go` to change them. Typing
 * searches after a pause and starts again at page 1. A q from outside (Back, Forward, a link) replaces the box's
 * text; the list's own debounced writes do not (they would trim what is being typed).
 */
export function useListSearch() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const [search, setSearch] = useState(q);
  // The q this list last wrote or saw.
  const syncedQ = useRef(q);

  function go(next: { q?: string; page?: number }, replace = false) {
    const nextQ = next.q ?? q;
    const nextPage = next.page ?? page;
    const nextParams = new URLSearchParams();
    if (nextQ) nextParams.set('q', nextQ);
    if (nextPage > 1) nextParams.set('page', String(nextPage));
    setParams(nextParams, { replace });
  }

  useEffect(() => {
    if (q === syncedQ.current) return;
    syncedQ.current = q;
    setSearch(q);
  }, [q]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the typed text triggers a search
  useEffect(() => {
    const text = search.trim();
    if (text === q) return;
    const timer = window.setTimeout(() => {
      syncedQ.current = text;
      go({ q: text, page: 1 }, true);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search]);

  return { q, page, search, setSearch, go };
}
