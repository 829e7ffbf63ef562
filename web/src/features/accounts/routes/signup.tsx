import { zodResolver } from '@hookform/resolvers/zod';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { type SignUpForm, signUpFormSchema } from '../../../../../contracts/accounts';
import { Button, ButtonLink } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useDocumentMeta } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { recheckField } from '../../../lib/recheck-field';
import { useCheckTypedEarly, useHydrated } from '../../../lib/server-drawn-form';
import { useSignUp } from '../api/sign-up';
import { AuthBrand } from '../components/auth-card';
import { PasswordField } from '../components/password-field';
import { useWithRedirect } from '../lib/with-redirect';

/**
 * Sign-up: fields checked live with contracts/accounts.ts's rules (their messages are keys of contracts/i18n's
 * signup namespace); on success the user is signed in, the verification email is on its way, and the
 * signed-out-only guard sends them to /.
 */
export function SignupRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('signup.heading'));
  const signUp = useSignUp();
  const loginPath = useWithRedirect('/login');
  const {
    register,
    handleSubmit,
    setError,
    trigger,
    getFieldState,
    setValue,
    formState: { errors },
  } = useForm<SignUpForm>({
    resolver: zodResolver(signUpFormSchema),
    mode: 'onChange',
    defaultValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' },
  });

  // The server draws this form: what was typed before React took it over is checked once it has.
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  useCheckTypedEarly(formRef, setValue);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signUp.mutateAsync(values);
      toast.success(t('signup.success'));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'EMAIL_TAKEN') {
        setError('email', { message: 'signup.emailTaken' }, { shouldFocus: true });
        toast.error(t('signup.emailTaken'));
      } else if (error instanceof ApiError && error.status === 400 && Object.keys(error.errors).length > 0) {
        // The first field the server refused takes the focus (the button was disabled meanwhile).
        let focused = false;
        for (const [field, message] of Object.entries(error.errors)) {
          if (field in values) {
            setError(field as keyof SignUpForm, { message }, { shouldFocus: !focused });
            focused = true;
          }
        }
      } else if (error instanceof ApiError && error.status === 429) {
        toast.error(error.message);
      } else {
        toast.error(t('common.somethingWentWrong'));
      }
    }
  });

  return (
    <div className="flex flex-1 items-center justify-center px-4 py-10 sm:py-16">
      <div className="grid w-full max-w-4xl overflow-hidden rounded-2xl border border-border bg-surface-raised shadow-xl lg:grid-cols-[2fr_3fr]">
        <aside className="hidden flex-col justify-between gap-10 bg-gradient-to-br from-accent-strong/90 via-teal-800 to-surface p-10 lg:flex">
          <AuthBrand />
          <div className="flex flex-col gap-4">
            <h2 className="text-3xl font-bold text-white">{t('signup.alreadyRegistered')}</h2>
            <p className="text-white/85">{t('signup.alreadyRegisteredText')}</p>
            <ButtonLink to={loginPath} variant="secondary" className="self-start">
              {t('accounts.signIn')}
            </ButtonLink>
          </div>
        </aside>
        <section className="flex flex-col gap-6 p-6 sm:p-10">
          <AuthBrand className="lg:hidden" />
          <h1 className="text-2xl font-bold">{t('signup.heading')}</h1>
          <form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField
                label={t('accounts.firstName')}
                autoComplete="given-name"
                error={errors.firstName?.message}
                {...register('firstName')}
              />
              <TextField
                label={t('accounts.lastName')}
                autoComplete="family-name"
                error={errors.lastName?.message}
                {...register('lastName')}
              />
            </div>
            <TextField
              label={t('accounts.email')}
              type="email"
              dir="ltr"
              inputMode="email"
              autoComplete="email"
              error={errors.email?.message}
              {...register('email')}
            />
            <PasswordField
              label={t('accounts.password')}
              autoComplete="new-password"
              error={errors.password?.message}
              {...register('password', { onChange: () => recheckField(getFieldState, trigger, 'confirmPassword') })}
            />
            <PasswordField
              label={t('signup.confirmPassword')}
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
            <Button type="submit" size="lg" disabled={!hydrated || signUp.isPending}>
              {signUp.isPending ? <Spinner label={t('signup.creatingAccount')} /> : null}
              {t('accounts.signUp')}
            </Button>
          </form>
          <p className="text-center text-sm text-fg-muted lg:hidden">
            {t('signup.alreadyHaveAccount')}{' '}
            <Link to={loginPath} className="font-semibold text-accent hover:underline">
              {t('accounts.signIn')}
            </Link>
          </p>
        </section>
      </div>
    </div>
  );
}
