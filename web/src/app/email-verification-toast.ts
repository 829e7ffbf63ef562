import { toast } from 'sonner';
import { accountsMessages } from '../../../contracts/messages/accounts';

/**
 * The toast for an emailed verification link's landing on / (web/src/app/email-verification-result.tsx).
 * Its own chunk: sonner is not part of the first load.
 */
export function toastVerificationResult(result: 'verified' | 'invalid'): void {
  if (result === 'verified') toast.success(accountsMessages.emailVerified);
  else toast.error(accountsMessages.verificationLinkInvalid);
}
