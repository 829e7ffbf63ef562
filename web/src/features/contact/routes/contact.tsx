import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { type ContactField, contactFieldErrors, contactFormSchema } from '../../../../../contracts/contact';
import { Button } from '../../../components/ui/button';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useHydrated, useValuesTypedEarly } from '../../../lib/server-drawn-form';
import { useMe } from '../../accounts/api/get-me';
import { useSendContactMessage } from '../api/send-contact-message';

const FIELDS: ContactField[] = ['name', 'email', 'subject', 'description'];
const EMPTY: Record<ContactField, string> = { name: '', email: '', subject: '', description: '' };

/**
 * Validated on submit with contracts/contact.ts's messages (keys, worded by the fields in the page's language);
 * a field's message goes as soon as it is edited. Success goes to /success-email, failure shows the 'Error of send' toast; the form is cleared
 * after a send attempt either way.
 */
export function ContactRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('contact.heading'), t('contact.description'));
  const navigate = useNavigate();
  const { data: me } = useMe();
  const send = useSendContactMessage();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<ContactField, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();
  useValuesTypedEarly(formRef, (name, value) => {
    if ((FIELDS as string[]).includes(name)) setValues((v) => ({ ...v, [name]: value }));
  });

  function onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const field = event.target.name as ContactField;
    setValues((v) => ({ ...v, [field]: event.target.value }));
    if (errors[field]) setErrors(({ [field]: _cleared, ...rest }) => rest);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    const found = contactFieldErrors(values);
    const invalid = FIELDS.find((f) => found[f]);
    if (invalid) {
      setErrors(found);
      formRef.current?.querySelector<HTMLElement>(`[name="${invalid}"]`)?.focus();
      return;
    }
    send.mutate(contactFormSchema.parse(values), {
      onSuccess: () => {
        // The confirmation page needs sign-in, so a visitor is taken to /login from there. Say here
        // that the message went, or all they would see is a sign-in form.
        if (!me) toast.success(t('contact.successTitle'), { description: t('contact.successText') });
        navigate('/success-email');
      },
      onError: (error) => {
        const limited = error instanceof ApiError && error.status === 429;
        // This one toast is in the dark theme, not the dark red of the other errors (e2e/contact.spec.ts checks it).
        // The rate limit's detail comes in the page's language (the server words it).
        toast.error(t('contact.sendFailed'), { richColors: false, ...(limited ? { description: error.message } : {}) });
      },
      onSettled: () => {
        setValues(EMPTY);
        setErrors({});
      },
    });
  }

  const field = (name: ContactField) => ({
    name,
    // Left to the page while the app takes it over: a controlled text area's value is written even then, which
    // would wipe what was typed before the app ran (useValuesTypedEarly adopts it in the same commit).
    value: hydrated ? values[name] : undefined,
    onChange,
    error: errors[name],
    disabled: send.isPending,
  });

  return (
    <PageContainer className="max-w-5xl">
      <div className="grid gap-10 md:grid-cols-[2fr_3fr] md:items-start">
        <div className="md:pt-4">
          <p className="text-sm font-semibold uppercase tracking-wider text-accent">{t('catalogue.hostingAnEvent')}</p>
          <h1 className="mt-2 text-3xl font-bold sm:text-4xl">{t('contact.heading')}</h1>
          <p className="mt-4 text-fg-muted">{t('contact.intro')}</p>
        </div>
        <form
          ref={formRef}
          method="post"
          noValidate
          onSubmit={onSubmit}
          aria-label={t('contact.heading')}
          className="flex flex-col gap-5 rounded-2xl border border-border bg-surface-raised p-5 shadow-lg sm:p-8"
        >
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField label={t('contact.nameLabel')} autoComplete="name" {...field('name')} />
            <TextField
              label={t('contact.emailLabel')}
              type="email"
              autoComplete="email"
              inputMode="email"
              dir="ltr"
              {...field('email')}
            />
          </div>
          <TextField label={t('contact.subjectLabel')} {...field('subject')} />
          <TextAreaField label={t('contact.descriptionLabel')} rows={6} {...field('description')} />
          <Button
            type="submit"
            size="lg"
            disabled={!hydrated || send.isPending}
            className="w-full sm:w-auto sm:min-w-40 sm:self-start"
          >
            {send.isPending ? <Spinner label={t('contact.sending')} /> : null}
            {t('contact.send')}
          </Button>
        </form>
      </div>
    </PageContainer>
  );
}
