import { pageRoutes } from 'virtual:page-routes';
import { type ComponentType, type ReactNode, Suspense } from 'react';
import { matchRoutes, Navigate, Route, Routes, useLocation } from 'react-router';
import { ADMIN_AREA } from '../../../contracts/admin-area';
import type { PageGuard } from '../../../contracts/pages';
import { useMe } from '../features/accounts/api/get-me';
import { lazyChunk } from '../lib/chunk';
import { ErrorBoundary } from './error-boundary';
import { ErrorFallback } from './error-fallback';
import { RootLayout } from './layout/root-layout';
import { ResyncLocation } from './resync-location';

/**
 * Declarative routes (<BrowserRouter> + <Routes>): the data router costs ~16 KB gzip more on the first
 * load and the app uses none of its loaders, actions or fetchers. Each page is its own lazy chunk.
 */

type Guard = ComponentType<{ children: ReactNode; blankWhilePending?: true }> & { preload?: () => Promise<unknown> };

/**
 * Public pages: admins are sent to /admin. A page load never gets here for an admin: the server answers it
 * with the redirect (server/web-app/session-redirect.ts). This covers moving within the app (Back, a link),
 * where the session is already known, and a page the server sent while it could not read the session.
 */
function NotForAdmins({ children }: { children: ReactNode }) {
  const { data: me } = useMe();
  if (me?.role === 'admin') return <Navigate to="/admin" replace />;
  return children;
}

function NoGuard({ children }: { children: ReactNode }) {
  return children;
}

/** The other guards (sign-in needed, signed-out only, the admin area, the door): see guardOf. */
const loadGuards = () => import('./guards');

/**
 * Where a page's guard sends some visitors on (contracts/pages.ts PageGuard). The public pages' guard is here; the
 * others are a chunk of their own (guards.tsx), fetched together with the page's chunk, not before it.
 */
function guardOf(guard: PageGuard, load: () => Promise<unknown>): Guard {
  if (guard === 'none') return NoGuard;
  if (guard === 'not-for-admins') return NotForAdmins;
  return lazyChunk(
    () => Promise.all([loadGuards(), load()]).then(([guards]) => guards),
    (guards) => guards.GUARDS[guard] as Guard,
  );
}

type PageRouteEntry = readonly [
  path: string,
  guard: PageGuard,
  load: () => Promise<ComponentType>,
  blankWhilePending?: true,
];

/** Each page of a route table (virtual:page-routes) in its guard, its chunk fetched the first time it renders. */
export function pagesOf(table: ReadonlyArray<PageRouteEntry>) {
  return table.map(([path, guard, load, blankWhilePending]) => ({
    path,
    Guard: guardOf(guard, load),
    blankWhilePending,
    Page: lazyChunk(load, (component) => component),
  }));
}

/**
 * Loads the chunks of the page of a route table at `pathname` (and its guard's), so that it renders at once: boot.tsx
 * hydrates the server's HTML after this (lib/chunk.ts lazyChunk). Resolves when there is no such page too.
 */
export function preloadPageOf(pages: ReturnType<typeof pagesOf>, pathname: string): Promise<unknown> {
  const path = matchRoutes(
    pages.map(({ path }) => ({ path })),
    pathname,
  )?.[0]?.route.path;
  const page = pages.find((candidate) => candidate.path === path);
  return Promise.all([page?.Page.preload(), page?.Guard.preload?.()]);
}

/** The <Route> of each page (React Router wants them as direct children of <Routes>). */
export function pageElements(pages: ReturnType<typeof pagesOf>) {
  return pages.map(({ path, Guard, blankWhilePending, Page }) => (
    <Route
      key={path}
      // The admin area's own page is its table's '' (admin-routes.tsx).
      {...(path === '' ? { index: true } : { path })}
      element={
        <Guard blankWhilePending={blankWhilePending}>
          <Page />
        </Guard>
      }
    />
  ));
}

/** The public pages; the admin area's are in its own chunk (admin-routes.tsx, contracts/pages.ts ADMIN_AREA). */
const pages = pagesOf(pageRoutes);

/** The chunks of the public page at `pathname`, loaded (see preloadPageOf). */
export const preloadPage = (pathname: string) => preloadPageOf(pages, pathname);

const ADMIN_TABLE = { pagesOf, pageElements };
/** The admin area's pages, with its messages (not sent with the public pages). */
const AdminRoutes = lazyChunk(
  () => import('./admin-routes'),
  (m) => m.AdminRoutes,
);

const NotFoundRoute = lazyChunk(
  () => import('./not-found'),
  (m) => m.NotFoundRoute,
);

/** Every page of the route manifest behind its guard. Unknown paths go to /404. */
export function AppRoutes() {
  const { pathname } = useLocation();
  // ResyncLocation lives here, not beside AppRoutes in boot.tsx only: useId derives its ids from the shape of
  // the tree, and hydration keeps the server's ids in the page, so the server (ssr.tsx) and the browser must
  // render the same children (a sibling added on one side only gave every label and aria-controls other ids).
  return (
    <>
      <ResyncLocation />
      {/* A render error anywhere shows 'Something went wrong.'; moving to another page tries again. */}
      <ErrorBoundary fallback={<ErrorFallback />} resetKey={pathname}>
        {/* Nothing until the first page's chunk is there (it is modulepreloaded): no header-then-page shift.
          Later navigations are transitions, so the current page stays until the next one is ready. */}
        <Suspense fallback={null}>
          <Routes>
            <Route element={<RootLayout />}>
              {pageElements(pages)}
              <Route path={`${ADMIN_AREA}/*`} element={<AdminRoutes table={ADMIN_TABLE} />} />
              <Route path="/404" element={<NotFoundRoute />} />
              <Route path="*" element={<Navigate to="/404" replace />} />
            </Route>
          </Routes>
        </Suspense>
      </ErrorBoundary>
    </>
  );
}
