import type { CSSProperties } from 'react';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS } from '../../../contracts/constants';
import { useI18n } from '../lib/i18n';

/**
 * Success toasts are teal (the app's accent) and errors dark red, in place of sonner's rich
 * green and red. Sonner sets these variables on its own element for the dark theme; inline ones win.
 * Contrast (WCAG AA needs 4.5:1): #042f2e on #2dd4bf is 7.8:1, #fef2f2 on #7f1d1d is 9.2:1.
 */
const colors = {
  '--success-bg': '#2dd4bf',
  '--success-border': '#14b8a6',
  '--success-text': '#042f2e',
  '--error-bg': '#7f1d1d',
  '--error-border': '#991b1b',
  '--error-text': '#fef2f2',
} as CSSProperties;

/**
 * Toasts start below the 64 px header (h-16) rather than over it: for their 5 seconds they would hide the
 * avatar menu, the search box, the admin's Logout, or on a phone (where they span the width) all of it.
 * 16 px of room, as sonner leaves from the edge on a phone.
 */
const BELOW_HEADER = { top: 64 + 16 };

/**
 * Toasts: top-right below the header (top-left in Arabic, the mirrored corner), 5 seconds, dark theme
 * (e2e/accounts.spec.ts 'toasts show below the header, …' checks the place). Loaded in its own chunk (see
 * providers.tsx).
 */
export default function AppToaster() {
  const { t, dir } = useI18n();
  return (
    <Toaster
      position={dir === 'rtl' ? 'top-left' : 'top-right'}
      dir={dir}
      containerAriaLabel={t('common.notifications')}
      toastOptions={{ closeButtonAriaLabel: t('common.closeNotification') }}
      offset={BELOW_HEADER}
      mobileOffset={BELOW_HEADER}
      duration={TOAST_DURATION_MS}
      theme="dark"
      richColors
      closeButton
      style={colors}
    />
  );
}
