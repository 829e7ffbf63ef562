import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import type { PageGuard } from '../../../contracts/pages';
import { signedInDestination } from '../../../contracts/redirect';
import { Spinner } from '../components/ui/spinner';
import { useMe } from '../features/accounts/api/get-me';
import { isSigningOut } from '../features/accounts/api/signing-out';
import { useI18n } from '../lib/i18n';

/**
 * The route guards of the pages that need a session or its absence: whom each sends where is the manifest's
 * PageGuard (contracts/pages.ts). They only steer the browser: the API enforces the same rules. A chunk of their
 * own, fetched with such a page's (router.tsx): the public pages, which most first loads are, need none of them.
 */

function Pending() {
  const { t } = useI18n();
  return (
    <div className="flex min-h-[40vh] items-center justify-center text-fg-muted">
      <Spinner label={t('catalogue.loadingSession')} />
    </div>
  );
}

function loginPath(location: { pathname: string; search: string }): string {
  return `/login?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}

/**
 * Sign-in needed: visitors go to /login (and come back afterwards). `blankWhilePending` shows nothing
 * instead of the spinner while the session is unknown (the edit-profile page: e2e/accounts.spec.ts, 'the edit
 * profile page stays blank while the session is being checked').
 */
export function RequireAuth({
  children,
  blankWhilePending = false,
}: {
  children: ReactNode;
  blankWhilePending?: boolean;
}) {
  const { data: me, isPending } = useMe();
  const location = useLocation();
  if (isPending) return blankWhilePending ? null : <Pending />;
  if (!me) return isSigningOut() ? null : <Navigate to={loginPath(location)} replace />;
  return children;
}

/** Admins only (`door`: and door staff, the check-in pages): visitors go to /login, users to /. */
export function RequireAdmin({ children, door }: { children: ReactNode; door?: boolean }) {
  const { data: me, isPending } = useMe();
  const location = useLocation();
  if (isPending) return <Pending />;
  if (!me) return isSigningOut() ? null : <Navigate to={loginPath(location)} replace />;
  if (me.role !== 'admin' && !(door && me.doorStaff)) return <Navigate to="/" replace />;
  return children;
}

/**
 * Signed-out only (login, signup, forgot-pass): users go to /, admins to /admin — or, right after
 * signing in, back to the same-site page that sent them to /login (?redirect=).
 */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const { data: me, isPending } = useMe();
  const [params] = useSearchParams();
  if (isPending) return <Pending />;
  if (me) return <Navigate to={signedInDestination(me.role, params.get('redirect'))} replace />;
  return children;
}

/** The guards of this chunk, by the manifest's name (router.tsx has the public pages'). */
export const GUARDS = {
  'signed-out-only': SignedOutOnly,
  'require-auth': RequireAuth,
  'require-admin': RequireAdmin,
  'require-door': ({ children }: { children: ReactNode }) => <RequireAdmin door>{children}</RequireAdmin>,
} satisfies Record<Exclude<PageGuard, 'not-for-admins' | 'none'>, unknown>;
