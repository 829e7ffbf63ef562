import { toast } from 'sonner';
import { currentI18n } from '../lib/i18n';

// The toasts the app itself raises, outside any page. One chunk of their own: sonner is not part of the first load.

/** An emailed verification link's landing on / (web/src/app/email-verification-result.tsx). */
export function toastVerificationResult(result: 'verified' | 'invalid'): void {
  const { t } = currentI18n();
  if (result === 'verified') toast.success(t('accounts.emailVerified'));
  else toast.error(t('accounts.verificationLinkInvalid'));
}

/** Why the page went to /login (web/src/app/session-end.ts). Several calls may be refused at once: one toast. */
export function toastSessionEnded(): void {
  toast(currentI18n().t('accounts.sessionEnded'), { id: 'session-ended' });
}
