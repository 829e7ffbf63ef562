import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { useMe } from '../features/accounts/api/get-me';

/**
 * Route guards of SPEC §2 and §6. They only steer the browser: the API enforces the same rules.
 */

function Pending() {
  return (
    <div className="flex min-h-[40vh] items-center justify-center text-fg-muted">
      <Spinner label="Loading your session" />
    </div>
  );
}

/** Sign-in needed: visitors go to /login (and come back afterwards). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { data: me, isPending } = useMe();
  const location = useLocation();
  if (isPending) return <Pending />;
  if (!me) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?redirect=${encodeURIComponent(from)}`} replace />;
  }
  return children;
}

/** Admins only: visitors go to /login, users to /. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { data: me, isPending } = useMe();
  const location = useLocation();
  if (isPending) return <Pending />;
  if (!me) return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname)}`} replace />;
  if (me.role !== 'admin') return <Navigate to="/" replace />;
  return children;
}

/** Signed-out only (login, signup, forgot-pass): users go to /, admins to /admin. */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const { data: me, isPending } = useMe();
  if (isPending) return <Pending />;
  if (me) return <Navigate to={me.role === 'admin' ? '/admin' : '/'} replace />;
  return children;
}

/** Public pages: admins are sent to /admin. */
export function NotForAdmins({ children }: { children: ReactNode }) {
  const { data: me } = useMe();
  if (me?.role === 'admin') return <Navigate to="/admin" replace />;
  return children;
}
