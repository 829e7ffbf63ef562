import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useMe } from '../../features/accounts/api/get-me';
import { EmailVerificationResult } from '../email-verification-result';
import { Header } from './header';

/** Its own chunk: the home page, the first most visitors see, has no footer. */
const Footer = lazy(() => import('./footer').then((m) => ({ default: m.Footer })));

/** SPEC §2: the header is hidden on /, the 404 page, /login, /signup and /payment (home draws its own). */
const HEADERLESS = new Set(['/', '/404', '/login', '/signup', '/payment']);
/** SPEC §2: the footer is hidden on /404, admin pages, /login, /signup, / and /payment, and for admins. */
const FOOTERLESS = new Set(['/404', '/login', '/signup', '/', '/payment']);

function ScrollToTop() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolling is the point of a route change
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function RootLayout() {
  const { pathname } = useLocation();
  // Marks the moment React has taken over the server-rendered page (browser tests wait for it).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  const { data: me, isPending } = useMe();
  const isAdminPage = pathname === '/admin' || pathname.startsWith('/admin/');
  const showHeader = !HEADERLESS.has(pathname);
  // Not until the session is known: it may be an admin's (visitors without a session cookie are known at once).
  const showFooter = !FOOTERLESS.has(pathname) && !isAdminPage && !isPending && me?.role !== 'admin';
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-accent focus:px-3 focus:py-2 focus:text-accent-fg"
      >
        Skip to content
      </a>
      <ScrollToTop />
      <EmailVerificationResult />
      {/* Home draws the header over its banner (SPEC §2: the page has its own banner and header). */}
      {showHeader ? <Header /> : pathname === '/' ? <Header overlay /> : null}
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      {showFooter ? (
        // Server-rendered pages keep the footer's HTML until its chunk is here, then hydrate it.
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
      ) : null}
    </div>
  );
}
