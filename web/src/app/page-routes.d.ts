/** Written by vite.config.ts from the route manifest (contracts/pages.ts): one entry a page, in its order. */
declare module 'virtual:page-routes' {
  import type { ComponentType } from 'react';

  /**
   * The page's pattern, its guard, the import of its component from the page's own chunk (see lib/chunk.ts for a
   * chunk gone after a deployment), and true where the guard shows nothing while the session is unknown.
   */
  export const pageRoutes: ReadonlyArray<
    [
      path: string,
      guard: import('../../../contracts/pages').PageGuard,
      load: () => Promise<ComponentType>,
      blankWhilePending?: true,
    ]
  >;
}

/** The admin area's pages, in the same form, their patterns relative to /admin (web/src/app/admin-routes.tsx). */
declare module 'virtual:admin-page-routes' {
  export const pageRoutes: typeof import('virtual:page-routes').pageRoutes;
}
