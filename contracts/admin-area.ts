/**
 * The admin area's pages (and the door's) are routed by a second table, in a chunk of its own
 * (web/src/app/admin-routes.tsx) that only those pages load: a visitor's first load carries none of their
 * entries. Their paths all start with ADMIN_AREA. A module without imports: the home page's router reads it,
 * and contracts/pages.ts would bring every page's texts and zod with it.
 */
export const ADMIN_AREA = '/admin';
export const ADMIN_ROUTES_MODULE = 'src/app/admin-routes.tsx';

export function isAdminAreaPath(path: string): boolean {
  return path === ADMIN_AREA || path.startsWith(`${ADMIN_AREA}/`);
}
