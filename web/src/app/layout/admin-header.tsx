import { Suspense, use } from 'react';
import { NavLink } from 'react-router';
import type { Me } from '../../../../contracts/accounts';
import { LogoutButton } from '../../features/accounts/components/logout-button';
import { lazyChunk } from '../../lib/chunk';
import { useI18n } from '../../lib/i18n';
import { loadMessages } from '../../lib/load-messages';
import { AdminHeaderFrame } from './admin-header-frame';

// Only where emails are kept instead of sent, and only for admins: a chunk of its own.
const MailboxLink = lazyChunk(
  () => import('../../features/admin/components/mailbox-link'),
  (m) => m.MailboxLink,
);

/**
 * The header's texts are the admin area's (door.checkIn): an admin on a public page has not been sent them, so
 * they come with this chunk. A failed fetch leaves the page as it is (the link then shows its key).
 */
const messagesLoaded = loadMessages('admin').catch(() => {});
const CHECK_IN = 'door.checkIn';

/**
 * The admin's header: the brand linking to /admin, the admin's full name and Logout; no search, no public links
 * (e2e/accounts.spec.ts 'an admin signs in to /admin, sees the reduced header and signs out').
 */
export function AdminHeader({ me }: { me: Me }) {
  const { t } = useI18n();
  // Waits for them only when they are not there yet (a wait would hold the header back a moment every time).
  if (t(CHECK_IN) === CHECK_IN) use(messagesLoaded);
  return (
    <AdminHeaderFrame>
      <div className="flex min-w-0 items-center gap-2 sm:gap-4">
        {/* A chart on a phone: an Arabic header with the mailbox has no room for one more word. */}
        <NavLink
          to="/admin/dashboard"
          className={({ isActive }) =>
            `grid shrink-0 place-items-center whitespace-nowrap text-sm font-medium hover:text-accent max-sm:-mx-1 max-sm:size-6 ${isActive ? 'text-accent' : 'text-fg'}`
          }
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-5 sm:hidden"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path strokeLinecap="round" strokeLinejoin="round" d="M4 20h16M7 16v-5M12 16V6M17 16v-8" />
          </svg>
          <span className="max-sm:sr-only">{t('dashboard.title')}</span>
        </NavLink>
        <NavLink
          to="/admin/check-in"
          className={({ isActive }) =>
            `shrink-0 whitespace-nowrap text-sm font-medium hover:text-accent ${isActive ? 'text-accent' : 'text-fg'}`
          }
        >
          {t(CHECK_IN)}
        </NavLink>
        <span className="shrink-0 whitespace-nowrap">
          <Suspense fallback={null}>
            <MailboxLink />
          </Suspense>
        </span>
        {/* On a phone the links and Logout take the width: the name would be a letter or two. */}
        <span dir="auto" className="hidden min-w-0 truncate text-sm font-medium text-fg-muted sm:block sm:max-w-xs">
          {me.firstName} {me.lastName}
        </span>
        <span className="shrink-0">
          <LogoutButton />
        </span>
      </div>
    </AdminHeaderFrame>
  );
}
