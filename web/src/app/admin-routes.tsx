import { pageRoutes } from 'virtual:admin-page-routes';
import { Navigate, Route, Routes } from 'react-router';
import type { pageElements, pagesOf } from './router';

/**
 * The admin area's pages (and the door's), routed under /admin/* by router.tsx: their table is in this chunk,
 * which only those pages load (contracts/admin-area.ts). Patterns are relative to /admin. The router hands
 * over its own helpers rather than this chunk importing them: an import would split the modules the two share
 * out of the first load's chunks into files of their own.
 */
export function AdminRoutes({ table }: { table: { pagesOf: typeof pagesOf; pageElements: typeof pageElements } }) {
  return (
    <Routes>
      {table.pageElements(table.pagesOf(pageRoutes))}
      <Route path="*" element={<Navigate to="/404" replace />} />
    </Routes>
  );
}
