import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { forgotPasswordFormSchema } from '../../../../../contracts/accounts';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useDocumentMeta } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useHydrated, useValuesTypedEarly } from '../../../lib/server-drawn-form';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { AuthCard } from '../components/auth-card';

/**
 * Reset password. The banner shows after every accepted request, registered address or not:
 * the page never tells who has an account. No inline messages, the field is only outlined; focus
 * goes back to it, so a screen reader says it is invalid too.
 */
export function ForgotPassRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('resetPassword.heading'));
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [sent, setSent] = useState(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  useValuesTypedEarly(formRef, (name, value) => {
    if (name === 'email') setEmail(value);
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = forgotPasswordFormSchema.safeParse({ email });
    if (!parsed.success) {
      setInvalid(true);
      emailInput.current?.focus();
      return;
    }
    setSent(false);
    try {
      await request.mutateAsync(parsed.data.email);
      setSent(true);
    } catch (error) {
      toast.error(error instanceof ApiError && error.status === 429 ? error.message : t('common.somethingWentWrong'));
    }
  };

  return (
    <AuthCard
      title={t('resetPassword.heading')}
      footer={
        <Link to="/login" className="font-semibold text-accent hover:underline">
          {t('resetPassword.backToSignIn')}
        </Link>
      }
    >
      <form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        {sent ? (
          <p role="status" className="rounded-lg border border-accent/40 bg-accent/10 px-3 py-2 text-sm text-fg">
            {t('resetPassword.sent')}
          </p>
        ) : (
          <p className="text-sm text-fg-muted">{t('resetPassword.intro')}</p>
        )}
        <TextField
          label={t('accounts.email')}
          name="email"
          type="email"
          dir="ltr"
          inputMode="email"
          autoComplete="email"
          required
          ref={emailInput}
          value={email}
          aria-invalid={invalid ? true : undefined}
          className={invalid ? '[&_input]:border-danger' : undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            setInvalid(false);
          }}
        />
        <Button type="submit" size="lg" disabled={!hydrated || request.isPending}>
          {request.isPending ? <Spinner label={t('resetPassword.sending')} /> : null}
          {t('resetPassword.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
