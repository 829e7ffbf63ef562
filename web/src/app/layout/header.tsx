import { Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { ButtonLink, buttonClasses } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { useMe } from '../../features/accounts/api/get-me';
import { HeaderSearch } from '../../features/catalogue/components/header-search';
import { lazyChunk } from '../../lib/chunk';
import { useI18n } from '../../lib/i18n';
import { AdminHeaderFrame } from './admin-header-frame';
import { Brand } from './brand';
import { LanguageSwitch } from './language-switch';

// Signed-in controls are their own chunks: visitors (most first loads) never download them.
const AdminHeader = lazyChunk(
  () => import('./admin-header'),
  (m) => m.AdminHeader,
);
const UserMenu = lazyChunk(
  () => import('../../features/accounts/components/user-menu'),
  (m) => m.UserMenu,
);

const navLink = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap hover:text-accent',
    isActive ? 'text-accent' : 'text-fg',
  );

/** The public header; `overlay` is the transparent variant laid over the home banner. */
export function Header({ overlay = false }: { overlay?: boolean }) {
  const { t } = useI18n();
  const { data: me, isPending } = useMe();
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  const isAdminPage = pathname === '/admin' || pathname.startsWith('/admin/');

  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation closes the mobile menu
  useEffect(() => {
    setMenuOpen(false);
  }, [pathname]);

  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      // An Escape the search already used (to close its results) leaves the menu open.
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const focusInMenu = document.getElementById('mobile-menu')?.contains(document.activeElement) ?? false;
      setMenuOpen(false);
      // Focus would otherwise fall to the page's body with the menu hidden: back to the button that opened it.
      if (focusInMenu) menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  // Only admins reach the admin pages: while the session is unknown, their header's bare frame, not the public one.
  if (isPending && isAdminPage) return <AdminHeaderFrame />;
  if (me?.role === 'admin') {
    return (
      <Suspense fallback={<AdminHeaderFrame />}>
        <AdminHeader me={me} />
      </Suspense>
    );
  }

  return (
    <header
      className={cn(
        'z-30',
        overlay
          ? 'absolute inset-x-0 top-0 bg-gradient-to-b from-black/70 to-transparent'
          : 'relative border-b border-border bg-surface-raised/95 backdrop-blur',
      )}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Brand />
        {/* At tablet widths the search field gives up width first: the links and Login never break mid-word. */}
        <nav aria-label={t('catalogue.mainNavigation')} className="hidden shrink-0 items-center gap-1 md:flex">
          <NavLink to="/" end className={navLink}>
            {t('catalogue.home')}
          </NavLink>
          <NavLink to="/contact" className={navLink}>
            {t('catalogue.hostingAnEvent')}
          </NavLink>
        </nav>
        <HeaderSearch className="ms-auto hidden w-full min-w-0 max-w-xs md:block" />
        <div className="ms-auto flex shrink-0 items-center gap-2 whitespace-nowrap md:ms-0">
          <LanguageSwitch className="hidden md:block" />
          {me ? (
            <Suspense fallback={<span className="size-10 rounded-full bg-surface-overlay" />}>
              <UserMenu me={me} onOpen={() => setMenuOpen(false)} />
            </Suspense>
          ) : isPending ? (
            // A session cookie was sent and /api/me has not answered (visitors without one are known at once,
            // server/web-app/web-html.ts): offering Login to someone signed in would be wrong. The hidden word keeps the
            // placeholder exactly as wide as the Login button.
            <span
              aria-hidden="true"
              className={buttonClasses('ghost', 'sm', 'bg-surface-overlay text-transparent select-none')}
            >
              {t('catalogue.login')}
            </span>
          ) : (
            <ButtonLink to="/login" size="sm">
              {t('catalogue.login')}
            </ButtonLink>
          )}
          <button
            ref={menuButton}
            type="button"
            className="grid size-10 place-items-center rounded-lg text-fg hover:bg-surface-overlay md:hidden"
            aria-label={menuOpen ? t('catalogue.closeMenu') : t('catalogue.openMenu')}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
          </button>
        </div>
      </div>
      <div
        id="mobile-menu"
        hidden={!menuOpen}
        className="border-t border-border bg-surface-raised px-4 pt-3 pb-4 shadow-xl md:hidden"
      >
        <nav aria-label={t('catalogue.mobileNavigation')}>
          <ul className="flex flex-col gap-1">
            <li>
              <NavLink to="/" end className={navLink}>
                {t('catalogue.home')}
              </NavLink>
            </li>
            <li>
              <NavLink to="/contact" className={navLink}>
                {t('catalogue.hostingAnEvent')}
              </NavLink>
            </li>
          </ul>
        </nav>
        <HeaderSearch className="mt-3" />
        <LanguageSwitch className="mt-2 block w-fit" />
      </div>
    </header>
  );
}
