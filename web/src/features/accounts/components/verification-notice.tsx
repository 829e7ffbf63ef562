import { toast } from 'sonner';
import type { Me } from '../../../../../contracts/accounts';
import { cn } from '../../../components/ui/cn';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useSendVerificationEmail } from '../api/send-verification-email';

/** Sends `me` a new verification link, with its toast; the button's label and state. */
export function useResendVerification(me: Me) {
  const send = useSendVerificationEmail();
  const { t } = useI18n();
  return {
    label: t(send.isSuccess ? 'accounts.linkSent' : 'accounts.resendVerification'),
    disabled: send.isPending || send.isSuccess,
    resend: () =>
      send.mutate(me.email, {
        onSuccess: () => toast.success(t('accounts.verificationSent')),
        onError: (error) =>
          toast.error(
            error instanceof ApiError && error.status === 429 ? error.message : t('common.somethingWentWrong'),
          ),
      }),
  };
}

/** A discreet note for unverified accounts (which work anyway, as in the spec) with a resend link. */
export function VerificationNotice({ me, className }: { me: Me; className?: string }) {
  const { label, disabled, resend } = useResendVerification(me);
  const { t } = useI18n();
  if (me.emailVerified) return null;
  return (
    <p className={cn('text-xs text-fg-muted', className)}>
      {t('accounts.notVerified')}{' '}
      <button
        type="button"
        className="font-semibold text-accent underline-offset-2 hover:underline disabled:opacity-60"
        disabled={disabled}
        onClick={resend}
      >
        {label}
      </button>
    </p>
  );
}
