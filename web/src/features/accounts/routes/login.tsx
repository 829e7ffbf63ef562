import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { type LoginForm, loginFormSchema } from '../../../../../contracts/accounts';
import type { MessageKey } from '../../../../../contracts/i18n/types';
import { safeRedirectPath } from '../../../../../contracts/redirect';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useDocumentMeta } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useHydrated } from '../../../lib/server-drawn-form';
import { useSignIn } from '../api/sign-in';
import { AuthCard } from '../components/auth-card';
import { PasswordField } from '../components/password-field';
import { useWithRedirect } from '../lib/with-redirect';

/**
 * Login. On success the ['me'] query refreshes and the signed-out-only guard sends the user on
 * (to / or back to ?redirect=).
 */
export function LoginRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('login.heading'));
  const signIn = useSignIn();
  const signupPath = useWithRedirect('/signup');
  const reason = whySignIn(useSearchParams()[0].get('redirect'));
  const [failure, setFailure] = useState<string | null>(null);
  const [wrongCredentials, setWrongCredentials] = useState(false);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<LoginForm>({
    resolver: zodResolver(loginFormSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { email: '', password: '' },
  });

  // The server draws this form (react-hook-form reads what was typed before React took it over).
  const hydrated = useHydrated();

  const clearFailure = () => {
    setFailure(null);
    setWrongCredentials(false);
  };

  const onSubmit = handleSubmit(async (values) => {
    clearFailure();
    try {
      await signIn.mutateAsync(values);
      toast.success(t('login.success'));
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.code === 'INVALID_CREDENTIALS')) {
        setWrongCredentials(true);
        setFailure(t('login.wrongCredentials'));
        // The button was disabled while the request ran, so the focus fell to the page: back to the password.
        setFocus('password', { shouldSelect: true });
      } else if (error instanceof ApiError && error.status === 429) {
        setFailure(error.message);
        setFocus('email');
      } else if (error instanceof ApiError && error.status === 400 && Object.keys(error.errors).length > 0) {
        setFailure(Object.values(error.errors)[0] ?? t('common.somethingWentWrong'));
        setFocus('email');
      } else {
        toast.error(t('common.somethingWentWrong'));
      }
    }
  });

  return (
    <AuthCard
      brand
      title={t('login.heading')}
      footer={
        <>
          {t('login.noAccount')}{' '}
          <Link to={signupPath} className="font-semibold text-accent hover:underline">
            {t('accounts.signUp')}
          </Link>
        </>
      }
    >
      <form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        {reason ? <p className="-mt-3 text-sm text-fg-muted">{t(reason)}</p> : null}
        {failure ? (
          <p
            role="alert"
            className="rounded-lg border border-danger/50 bg-danger-strong/30 px-3 py-2 text-sm text-danger"
          >
            {failure}
          </p>
        ) : null}
        <TextField
          label={t('accounts.email')}
          type="email"
          dir="ltr"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          aria-invalid={wrongCredentials || errors.email ? true : undefined}
          className={wrongCredentials ? '[&_input]:border-danger' : undefined}
          {...register('email', { onChange: clearFailure })}
        />
        <div className="flex flex-col gap-2">
          <PasswordField
            label={t('accounts.password')}
            autoComplete="current-password"
            error={errors.password?.message}
            invalid={wrongCredentials}
            {...register('password', { onChange: clearFailure })}
          />
          <Link to="/forgot-pass" className="self-end text-sm font-medium text-accent hover:underline">
            {t('login.forgotPassword')}
          </Link>
        </div>
        <Button type="submit" size="lg" disabled={!hydrated || signIn.isPending}>
          {signIn.isPending ? <Spinner label={t('login.signingIn')} /> : null}
          {t('accounts.signIn')}
        </Button>
      </form>
    </AuthCard>
  );
}

/** Why a guard sent the visitor here (?redirect=): booking needs an account, so the page says so. */
function whySignIn(redirect: string | null): MessageKey | null {
  const target = safeRedirectPath(redirect, '');
  if (!target) return null;
  if (/^\/event-details\/[^/]+\/get-ticket|^\/payment/.test(target)) return 'login.toBook';
  // A visitor's contact message has gone (the toast said so); its confirmation page needs an account.
  if (target === '/success-email') return 'login.toSeeMessage';
  return 'login.toContinue';
}
