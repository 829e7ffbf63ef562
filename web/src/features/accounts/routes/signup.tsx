import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { type SignUpForm, signUpFormSchema } from '../../../../../contracts/accounts';
import { commonMessages } from '../../../../../contracts/messages/common';
import { signupMessages } from '../../../../../contracts/messages/signup';
import { Button, ButtonLink } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useDocumentMeta } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { recheckField } from '../../../lib/recheck-field';
import { useHydrated } from '../../../lib/server-drawn-form';
import { useSignUp } from '../api/sign-up';
import { AuthBrand } from '../components/auth-card';
import { PasswordField } from '../components/password-field';
import { useWithRedirect } from '../lib/with-redirect';

const s = signupMessages;

/**
 * Sign-up: fields checked live with contracts/messages/signup.ts's messages; on success the user is signed in, the
 * verification email is on its way, and the signed-out-only guard sends them to /.
 */
export function SignupRoute() {
  useDocumentMeta(s.heading);
  const signUp = useSignUp();
  const loginPath = useWithRedirect('/login');
  const {
    register,
    handleSubmit,
    setError,
    trigger,
    getFieldState,
    formState: { errors },
  } = useForm<SignUpForm>({
    resolver: zodResolver(signUpFormSchema),
    mode: 'onChange',
    defaultValues: { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' },
  });

  // The server draws this form (react-hook-form reads what was typed before React took it over).
  const hydrated = useHydrated();

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signUp.mutateAsync(values);
      toast.success(s.success);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'EMAIL_TAKEN') {
        setError('email', { message: s.emailTaken }, { shouldFocus: true });
        toast.error(s.emailTaken);
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
        toast.error(commonMessages.somethingWentWrong);
      }
    }
  });

  return (
    <div className="flex flex-1 items-center justify-center px-4 py-10 sm:py-16">
      <div className="grid w-full max-w-4xl overflow-hidden rounded-2xl border border-border bg-surface-raised shadow-xl lg:grid-cols-[2fr_3fr]">
        <aside className="hidden flex-col justify-between gap-10 bg-gradient-to-br from-accent-strong/90 via-teal-800 to-surface p-10 lg:flex">
          <AuthBrand />
          <div className="flex flex-col gap-4">
            <h2 className="text-3xl font-bold text-white">{s.alreadyRegistered}</h2>
            <p className="text-white/85">{s.alreadyRegisteredText}</p>
            <ButtonLink to={loginPath} variant="secondary" className="self-start">
              Sign In
            </ButtonLink>
          </div>
        </aside>
        <section className="flex flex-col gap-6 p-6 sm:p-10">
          <AuthBrand className="lg:hidden" />
          <h1 className="text-2xl font-bold">{s.heading}</h1>
          <form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField
                label="First name"
                autoComplete="given-name"
                error={errors.firstName?.message}
                {...register('firstName')}
              />
              <TextField
                label="Last name"
                autoComplete="family-name"
                error={errors.lastName?.message}
                {...register('lastName')}
              />
            </div>
            <TextField
              label="Email"
              type="email"
              inputMode="email"
              autoComplete="email"
              error={errors.email?.message}
              {...register('email')}
            />
            <PasswordField
              label="Password"
              autoComplete="new-password"
              error={errors.password?.message}
              {...register('password', { onChange: () => recheckField(getFieldState, trigger, 'confirmPassword') })}
            />
            <PasswordField
              label="Confirm password"
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
            <Button type="submit" size="lg" disabled={!hydrated || signUp.isPending}>
              {signUp.isPending ? <Spinner label="Creating your account" /> : null}
              Sign Up
            </Button>
          </form>
          <p className="text-center text-sm text-fg-muted lg:hidden">
            {s.alreadyHaveAccount}{' '}
            <Link to={loginPath} className="font-semibold text-accent hover:underline">
              Sign In
            </Link>
          </p>
        </section>
      </div>
    </div>
  );
}
