import { pageRoutes } from 'virtual:admin-page-routes';
import { type ReactNode, use } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { loadMessages } from '../lib/load-messages';

/**
 * The admin area's pages (and the door's), routed under /admin/* by router.tsx: their table is in this chunk,
 * which only those pages load (contracts/admin-area.ts). Patterns are relative to /admin. The router hands
 * over its own helpers rather than this chunk importing them: an import would split the modules the two share
 * out of the first load's chunks into files of their own.
 */
export interface PageTable<P> {
  pagesOf(table: typeof pageRoutes): P;
  pageElements(pages: P): ReactNode;
}

/** Made once: a page's lazy component made again on each render would load and mount it again. */
let pages: unknown;

export function AdminRoutes<P>({ table }: { table: PageTable<P> }) {
  // The area's texts: in the page when it was loaded here, fetched on the way in from a public page.
  use(loadMessages('admin'));
  pages ??= table.pagesOf(pageRoutes);
  return (
    <Routes>
      {table.pageElements(pages as P)}
      <Route path="*" element={<Navigate to="/404" replace />} />
    </Routes>
  );
}
