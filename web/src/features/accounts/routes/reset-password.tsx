import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { type ResetPasswordForm, resetPasswordFormSchema } from '../../../../../contracts/accounts';
import { Button } from '../../../components/ui/button';
import { useDocumentMeta } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { recheckField } from '../../../lib/recheck-field';
import { useResetPassword } from '../api/reset-password';
import { AuthCard } from '../components/auth-card';
import { PasswordField } from '../components/password-field';

/**
 * Where the emailed reset link lands (/reset-password?token=…, or ?error=INVALID_TOKEN once the link
 * expired or was used). The new password follows the sign-up rules.
 */
export function ResetPasswordRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('accounts.newPasswordHeading'));
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    setError,
    trigger,
    getFieldState,
    formState: { errors },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    mode: 'onChange',
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  const linkBroken =
    !token || params.has('error') || (reset.error instanceof ApiError && reset.error.code === 'INVALID_TOKEN');

  const onSubmit = handleSubmit(async (values) => {
    if (!token) return;
    try {
      await reset.mutateAsync({ token, newPassword: values.newPassword });
      toast.success(t('accounts.passwordChanged'));
      await navigate('/login', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_TOKEN') return;
      if (error instanceof ApiError && error.errors.newPassword) {
        setError('newPassword', { message: error.errors.newPassword });
      } else {
        toast.error(error instanceof ApiError && error.status === 429 ? error.message : t('common.somethingWentWrong'));
      }
    }
  });

  if (linkBroken) {
    return (
      <AuthCard title={t('accounts.newPasswordHeading')}>
        <div className="flex flex-col gap-5">
          <p
            role="alert"
            className="rounded-lg border border-danger/50 bg-danger-strong/30 px-3 py-2 text-sm text-danger"
          >
            {t('accounts.invalidResetLink')}
          </p>
          <Link to="/forgot-pass" className="font-semibold text-accent hover:underline">
            {t('accounts.sendNewLink')}
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('accounts.newPasswordHeading')}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <PasswordField
          label={t('accounts.newPassword')}
          autoComplete="new-password"
          error={errors.newPassword?.message}
          {...register('newPassword', { onChange: () => recheckField(getFieldState, trigger, 'confirmPassword') })}
        />
        <PasswordField
          label={t('accounts.confirmNewPassword')}
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <Button type="submit" size="lg" disabled={reset.isPending}>
          {reset.isPending ? <Spinner label={t('accounts.saving')} /> : null}
          {t('accounts.saveNewPassword')}
        </Button>
      </form>
    </AuthCard>
  );
}
