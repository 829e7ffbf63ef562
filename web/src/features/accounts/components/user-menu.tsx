import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { Me } from '../../../../../contracts/accounts';
import { cn } from '../../../components/ui/cn';
import { useI18n } from '../../../lib/i18n';
import { useSignOut } from '../api/sign-out';
import { Avatar } from './avatar';
import { useResendVerification } from './verification-notice';

const item =
  'flex w-full items-center rounded-md px-3 py-2 text-start text-sm text-fg hover:bg-surface-overlay focus:bg-surface-overlay focus:outline-none';

/**
 * The avatar menu of a signed-in user: Edit Profile, Your Bookings, Logout, and for an unverified address a
 * way to have the link sent again. `onOpen` lets the header close its phone menu, which this one would
 * otherwise overlap.
 */
export function UserMenu({ me, onOpen }: { me: Me; onOpen?: () => void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const signOut = useSignOut();
  const verification = useResendVerification(me);
  const { t } = useI18n();

  // Close on navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the point of a route change
  useEffect(() => setOpen(false), [pathname]);

  // Close on a click outside; focus the first item when opening.
  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const show = () => {
    setOpen(true);
    onOpen?.();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      (event.key === 'Home' ? items[0] : items.at(-1))?.focus();
    }
  };

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={t('accounts.accountMenu')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? setOpen(false) : show())}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            show();
          }
        }}
        className="relative grid size-10 place-items-center rounded-full ring-2 ring-transparent transition hover:ring-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
      >
        <Avatar url={me.imageUrl} size={40} className="size-10" />
        {!me.emailVerified ? (
          <span
            aria-hidden="true"
            className="absolute top-0 end-0 size-2.5 rounded-full bg-amber-400 ring-2 ring-surface-raised"
          />
        ) : null}
      </button>
      {open ? (
        <div
          ref={menuRef}
          data-above-toasts
          className="absolute top-12 end-0 z-40 flex w-64 flex-col gap-1 rounded-xl border border-border bg-surface-raised p-2 whitespace-normal shadow-2xl"
        >
          <div className="flex flex-col gap-1 border-b border-border px-3 pt-1 pb-2">
            {/* Names as typed, in their own direction; the address left to right, on the page's start side. */}
            <p className="truncate text-sm font-semibold">
              <bdi>
                {me.firstName} {me.lastName}
              </bdi>
            </p>
            <p dir="ltr" className="truncate text-start text-xs text-fg-muted rtl:text-end">
              {me.email}
            </p>
            {me.emailVerified ? null : <p className="pt-1 text-xs text-fg-muted">{t('accounts.notVerified')}</p>}
          </div>
          <div
            id={menuId}
            role="menu"
            aria-label={t('accounts.account')}
            tabIndex={-1}
            onKeyDown={onMenuKeyDown}
            onBlur={(event) => {
              const next = event.relatedTarget as Node | null;
              if (next && !menuRef.current?.contains(next) && !buttonRef.current?.contains(next)) setOpen(false);
            }}
            className="flex flex-col gap-1"
          >
            {me.emailVerified ? null : (
              <button
                role="menuitem"
                tabIndex={-1}
                type="button"
                className={cn(item, 'font-semibold text-accent aria-disabled:opacity-60')}
                // Not `disabled`: the arrow keys still reach it once the link is sent.
                aria-disabled={verification.disabled || undefined}
                onClick={() => {
                  if (!verification.disabled) verification.resend();
                }}
              >
                {verification.label}
              </button>
            )}
            <Link role="menuitem" tabIndex={-1} to="/edit-profile" className={item}>
              {t('profile.heading')}
            </Link>
            <Link role="menuitem" tabIndex={-1} to="/profile" className={item}>
              {t('accounts.yourBookings')}
            </Link>
            {/* Door staff's way to the door: in this menu, a chunk only signed-in users load, not the header. */}
            {me.doorStaff ? (
              <Link role="menuitem" tabIndex={-1} to="/admin/check-in" className={item}>
                {t('accounts.checkIn')}
              </Link>
            ) : null}
            <button
              role="menuitem"
              tabIndex={-1}
              type="button"
              className={cn(item, 'text-danger')}
              disabled={signOut.isPending}
              onClick={() => signOut.mutate()}
            >
              {t('accounts.logout')}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
