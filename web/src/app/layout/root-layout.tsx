import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useMe } from '../../features/accounts/api/get-me';
import { lazyChunk } from '../../lib/chunk';
import { HydrateLater, whenHydrated } from '../../lib/hydrate-later';
import { useI18n } from '../../lib/i18n';
import { Header } from './header';

/** Its own chunk, fetched only on the address an emailed verification link lands on (/?verified=1, /?error=…). */
const EmailVerificationResult = lazyChunk(
  () => import('../email-verification-result'),
  (m) => m.EmailVerificationResult,
);
/** Its own chunk: the home page, the first most visitors see, has no footer. */
const Footer = lazyChunk(
  () => import('./footer'),
  (m) => m.Footer,
);

/** The pages drawn without the shared header: /, the 404 page, /login, /signup and /payment (home draws its own). */
const HEADERLESS = new Set(['/', '/404', '/login', '/signup', '/payment']);
/**
 * The pages drawn without the footer: /404, /login, /signup, / and /payment. The admin pages, and admins
 * anywhere, have none either (e2e/admin.spec.ts 'the admin signs in and lands on the event list, with the
 * admin header and no footer').
 */
const FOOTERLESS = new Set(['/404', '/login', '/signup', '/', '/payment']);

/** Loads the footer's chunk where the server draws a footer (see router.tsx preloadPageOf). */
export function preloadLayout(pathname: string): Promise<unknown> {
  return FOOTERLESS.has(pathname) || pathname === '/admin' || pathname.startsWith('/admin/')
    ? Promise.resolve()
    : Footer.preload();
}

/** The address the last page was shown at (undefined until the first page is shown, in the browser). */
let shownPath: string | undefined;

/**
 * A change of page starts at the top, and the focus goes to the new page's heading (or its main area while
 * that loads), as a page load would put it: a screen reader reads where the user arrived, and Tab goes on
 * from there instead of from a link that is gone. A page that placed the focus itself keeps it.
 */
function NewPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    // The page as loaded keeps the browser's own scroll position (a reload restores it), and hydration
    // does not force a layout. Kept outside the component: after the error page replaced the layout, the
    // next page is still a change of page.
    if (shownPath === undefined || shownPath === pathname) {
      shownPath = pathname;
      return;
    }
    shownPath = pathname;
    window.scrollTo(0, 0);
    const main = document.getElementById('main');
    if (!main) return;
    // A control of the page that is still there (a category pill) keeps the focus; the main area, or a
    // heading this placed on an earlier change of page, does not.
    const active = document.activeElement;
    const placedHere = active === main || active?.hasAttribute('data-route-focus');
    if (active && active !== document.body && !placedHere && main.contains(active)) return;
    const place = (target: HTMLElement) => {
      target.tabIndex = -1;
      target.dataset.routeFocus = '';
      target.focus({ preventScroll: true });
    };
    const heading = main.querySelector<HTMLElement>('h1');
    place(heading ?? main);
    if (heading) return;
    // The page's chunk or data is still loading: its heading takes the focus when it arrives, unless the
    // user has moved on from the main area meanwhile.
    const watch = new MutationObserver(() => {
      const arrived = main.querySelector<HTMLElement>('h1');
      if (!arrived) return;
      watch.disconnect();
      if (document.activeElement === main) place(arrived);
    });
    watch.observe(main, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [pathname]);
  return null;
}

export function RootLayout() {
  const { t } = useI18n();
  const { pathname, search } = useLocation();
  // Marks the moment React has taken over the server-rendered page, the parts adopted a moment later included
  // (browser tests wait for it).
  useEffect(() => {
    whenHydrated(() => {
      document.documentElement.dataset.hydrated = 'true';
    });
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
        className="sr-only focus:not-sr-only focus:absolute focus:start-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-accent focus:px-3 focus:py-2 focus:text-accent-fg"
      >
        {t('catalogue.skipToContent')}
      </a>
      <NewPage />
      {pathname === '/' && /[?&](verified|error)=/.test(search) ? (
        <Suspense fallback={null}>
          <EmailVerificationResult />
        </Suspense>
      ) : null}
      {/* Home draws the header over its banner, transparent: the banner's picture runs to the top of the page. */}
      {/* Adopted a moment after the rest of the page, in a task of its own (lib/hydrate-later.tsx). */}
      {showHeader || pathname === '/' ? (
        <HydrateLater>
          <Header overlay={!showHeader} />
        </HydrateLater>
      ) : null}
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      {showFooter ? (
        // Server-rendered pages keep the footer's HTML until its chunk is here, then hydrate it, after the rest of
        // the page (lib/hydrate-later.tsx).
        <HydrateLater>
          <Footer />
        </HydrateLater>
      ) : null}
    </div>
  );
}
