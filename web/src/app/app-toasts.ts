import { toast } from 'sonner';
import { accountsMessages } from '../../../contracts/messages/accounts';

// The toasts the app itself raises, outside any page. One chunk of their own: sonner is not part of the first load.

/** An emailed verification link's landing on / (web/src/app/email-verification-result.tsx). */
export function toastVerificationResult(result: 'verified' | 'invalid'): void {
  if (result === 'verified') toast.success(accountsMessages.emailVerified);
  else toast.error(accountsMessages.verificationLinkInvalid);
}

/** Why the page went to /login (web/src/app/session-end.ts). Several calls may be refused at once: one toast. */
export function toastSessionEnded(): void {
  toast(accountsMessages.sessionEnded, { id: 'session-ended' });
}
