import { toast } from 'sonner';
import type { Me } from '../../../../../contracts/accounts';
import { accountTexts } from '../../../../../contracts/accounts';
import { commonMessages } from '../../../../../contracts/messages/common';
import { cn } from '../../../components/ui/cn';
import { ApiError } from '../../../lib/api-client';
import { useSendVerificationEmail } from '../api/send-verification-email';

/** A discreet note for unverified accounts (which work anyway, as in the spec) with a resend link. */
export function VerificationNotice({ me, className }: { me: Me; className?: string }) {
  const send = useSendVerificationEmail();
  if (me.emailVerified) return null;
  return (
    <p className={cn('text-xs text-fg-muted', className)}>
      {accountTexts.notVerified}{' '}
      <button
        type="button"
        className="font-semibold text-accent underline-offset-2 hover:underline disabled:opacity-60"
        disabled={send.isPending || send.isSuccess}
        onClick={() =>
          send.mutate(me.email, {
            onSuccess: () => toast.success(accountTexts.verificationSent),
            onError: (error) =>
              toast.error(
                error instanceof ApiError && error.status === 429 ? error.message : commonMessages.somethingWentWrong,
              ),
          })
        }
      >
        {send.isSuccess ? 'Link sent' : accountTexts.resendVerification}
      </button>
    </p>
  );
}
