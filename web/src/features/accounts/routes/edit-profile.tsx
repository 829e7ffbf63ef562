import { zodResolver } from '@hookform/resolvers/zod';
import { type ChangeEvent, type ReactNode, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { type Me, type ProfileForm, profileFormSchema } from '../../../../../contracts/accounts';
import { MAX_UPLOAD_BYTES, PROFILE_PICTURE_LOADING_MS } from '../../../../../contracts/constants';
import { Button, ButtonLink } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { recheckField } from '../../../lib/recheck-field';
import { useMe } from '../api/get-me';
import { useUpdateProfile } from '../api/update-profile';
import { useUploadAvatar } from '../api/upload-avatar';
import { Avatar } from '../components/avatar';
import { PasswordField } from '../components/password-field';
import { VerificationNotice } from '../components/verification-notice';

const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** Edit profile. Blank while loading (the guard holds the page until the user is known; e2e/accounts.spec.ts). */
export function EditProfileRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('profile.heading'));
  const { data: me } = useMe();
  if (!me) return null;
  return <EditProfileForm me={me} />;
}

/** The picture's decorative icons (its button is named "Change profile picture"). */
function StrokeIcon({ className, children }: { className: string; children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2">
      {children}
    </svg>
  );
}

/** The picture shown on the form: the saved one until another is uploaded; Continue saves it, Cancel drops it. */
function ProfilePicture({ imageUrl, onUploaded }: { imageUrl: string | null; onUploaded: (url: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();
  const [loading, setLoading] = useState(false);
  const { t } = useI18n();

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      toast.error(t('accounts.pictureTooLarge'));
      return;
    }
    if (!ACCEPTED_TYPES.includes(file.type)) {
      toast.error(t('accounts.pictureInvalid'));
      return;
    }
    setLoading(true);
    // The loading image shows for PROFILE_PICTURE_LOADING_MS at least (or for as long as the upload takes), so a
    // quick upload does not just flash it.
    const minimum = new Promise((resolve) => setTimeout(resolve, PROFILE_PICTURE_LOADING_MS));
    try {
      const [uploaded] = await Promise.all([upload.mutateAsync(file), minimum]);
      onUploaded(uploaded.imageUrl);
    } catch (error) {
      // The session has ended: the app is moving to /login and says why (web/src/app/session-end.ts).
      if (isSessionEnded(error)) return;
      toast.error(
        error instanceof ApiError && (error.status === 400 || error.status === 429)
          ? error.message
          : t('common.somethingWentWrong'),
      );
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="flex flex-col items-center gap-2">
      <button
        type="button"
        onClick={() => input.current?.click()}
        disabled={loading}
        aria-label={t('profile.changePicture')}
        className="group relative size-32 rounded-full ring-2 ring-border focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent"
      >
        <span className="absolute inset-0 overflow-hidden rounded-full">
          <Avatar url={imageUrl} size={128} className="size-32" />
          {loading ? (
            <span className="absolute inset-0 grid place-items-center bg-surface/80 text-accent">
              <Spinner label={t('profile.uploadingPicture')} className="scale-150" />
            </span>
          ) : (
            <span
              aria-hidden="true"
              className="absolute inset-0 grid place-items-center bg-black/55 text-sm font-semibold text-white opacity-0 transition-opacity group-hover:opacity-100 group-focus-visible:opacity-100"
            >
              <span className="flex flex-col items-center gap-1">
                <StrokeIcon className="size-6">
                  <path d="M4 20h4L18.5 9.5a2.1 2.1 0 0 0-4-4L4 16v4z" />
                </StrokeIcon>
                {t('profile.edit')}
              </span>
            </span>
          )}
        </span>
        {/* Touch screens never show the hover overlay: this badge says, at all times, that the picture changes. */}
        {loading ? null : (
          <span
            aria-hidden="true"
            data-testid="change-picture-badge"
            className="absolute end-0 bottom-0 grid size-9 place-items-center rounded-full bg-accent text-accent-fg shadow-lg ring-4 ring-surface-raised"
          >
            <StrokeIcon className="size-5">
              <path d="M4 8h3l2-3h6l2 3h3v11H4z" />
              <circle cx="12" cy="13" r="3.5" />
            </StrokeIcon>
          </span>
        )}
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPTED_TYPES.join(',')}
        className="sr-only"
        tabIndex={-1}
        aria-label={t('profile.pictureFile')}
        onChange={onPick}
      />
      <p className="text-xs text-fg-muted">{t('profile.pictureHint')}</p>
    </div>
  );
}

function EditProfileForm({ me }: { me: Me }) {
  const navigate = useNavigate();
  const save = useUpdateProfile();
  const { t } = useI18n();
  const [imageUrl, setImageUrl] = useState(me.imageUrl);
  const {
    register,
    handleSubmit,
    setError,
    trigger,
    getFieldState,
    formState: { errors },
  } = useForm<ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    mode: 'onChange',
    defaultValues: { firstName: me.firstName, lastName: me.lastName, newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        imageUrl,
        ...(values.newPassword ? { newPassword: values.newPassword } : {}),
      });
      toast.success(t('profile.saved'));
      await navigate('/');
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && Object.keys(error.errors).length > 0) {
        // The first field the server refused takes the focus (the button was disabled meanwhile).
        let focused = false;
        for (const [field, message] of Object.entries(error.errors)) {
          if (field in values) {
            setError(field as keyof ProfileForm, { message }, { shouldFocus: !focused });
            focused = true;
          } else toast.error(message);
        }
      } else if (!isSessionEnded(error)) {
        // (An ended session is not: the app is moving to /login and says why, web/src/app/session-end.ts.)
        toast.error(t('common.somethingWentWrong'));
      }
    }
  });

  return (
    <PageContainer className="flex justify-center">
      <section className="w-full max-w-2xl rounded-2xl border border-border bg-surface-raised p-6 shadow-xl sm:p-10">
        <h1 className="mb-8 text-2xl font-bold">{t('profile.heading')}</h1>
        <div className="mb-8 flex flex-col items-center gap-3">
          <ProfilePicture imageUrl={imageUrl} onUploaded={setImageUrl} />
          <VerificationNotice me={me} />
        </div>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
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
          <TextField label={t('accounts.email')} type="email" dir="ltr" value={me.email} readOnly disabled />
          <div className="grid gap-5 sm:grid-cols-2">
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
          </div>
          <p className="-mt-2 text-xs text-fg-muted">{t('profile.passwordHint')}</p>
          <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:justify-end">
            <ButtonLink to="/" variant="secondary" size="lg">
              {t('profile.cancel')}
            </ButtonLink>
            <Button type="submit" size="lg" disabled={save.isPending}>
              {save.isPending ? <Spinner label={t('accounts.saving')} /> : null}
              {t('profile.continue')}
            </Button>
          </div>
        </form>
      </section>
    </PageContainer>
  );
}
