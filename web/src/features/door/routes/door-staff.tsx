import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { instantIn } from '../../../../../contracts/i18n/instant';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError } from '../../../lib/api-client';
import { currentI18n, useI18n } from '../../../lib/i18n';
import { useDoorStaff, useGrantDoorStaff, useRevokeDoorStaff } from '../api/door-staff';
import { EmptyList, ListLoadError } from '../components/list-states';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
/** The browser's time zone: when each person was given the door, where the admin reads it. */
const here = dateTime.resolvedOptions().timeZone;

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.errors.email ?? error.message;
  return currentI18n().t('doorStaff.failed');
}

/** /admin/event/:id/door-staff: the admin gives and takes an event's door (check-in there, nothing else). */
export function DoorStaffRoute() {
  const { t, lang } = useI18n();
  // English keeps its format ('5 Dec 2026, 19:30'); Arabic is written as Arabic writes it.
  const since = (iso: string) => (lang === 'en' ? dateTime.format(new Date(iso)) : instantIn(lang, iso, here));
  useDocumentMeta(t('doorStaff.doorStaffTitle'));
  const { id = '' } = useParams();
  const { data, isPending, isError, error, refetch, isFetching } = useDoorStaff(id);
  const grant = useGrantDoorStaff(id);
  const revoke = useRevokeDoorStaff(id);
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const typed = email.trim();
    grant.mutate(typed, {
      onSuccess: () => {
        setEmail('');
        setStatus(t('doorStaff.granted', { email: typed }));
      },
    });
  };

  return (
    <PageContainer className="max-w-3xl">
      <p>
        <Link to="/admin/check-in" className="text-sm font-medium text-fg-muted hover:text-accent">
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            ←
          </span>{' '}
          {t('door.checkIn')}
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{t('doorStaff.doorStaffTitle')}</h1>
      <p className="mt-2 text-fg-muted">{t('doorStaff.doorStaffIntro')}</p>
      <form onSubmit={onSubmit} noValidate className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          label={t('doorStaff.email')}
          type="email"
          dir="ltr"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={grant.isError ? messageOf(grant.error) : undefined}
          className="flex-1"
        />
        <Button type="submit" className="sm:mt-7" aria-busy={grant.isPending || undefined}>
          {t('doorStaff.grant')}
        </Button>
      </form>
      <p role="status" className="mt-3 min-h-6 text-sm text-accent">
        {status}
      </p>
      <div className="mt-4" aria-busy={isPending}>
        {isPending ? (
          <Skeleton className="h-20" />
        ) : isError ? (
          <ListLoadError
            message={
              error instanceof ApiError && error.status === 404
                ? t('doorStaff.eventNotFound')
                : t('doorStaff.loadFailed')
            }
            retry={t('doorStaff.retry')}
            onRetry={() => void refetch()}
            retrying={isFetching}
          />
        ) : data.items.length === 0 ? (
          <EmptyList>{t('doorStaff.noDoorStaff')}</EmptyList>
        ) : (
          <ul className="flex flex-col gap-2">
            {data.items.map((person) => (
              <li
                key={person.userId}
                className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-surface-raised p-4"
              >
                <div className="min-w-0">
                  <p className="break-words font-semibold">
                    <bdi>{person.name}</bdi>
                  </p>
                  <p className="break-all text-sm text-fg-muted">
                    <bdi dir="ltr">{person.email}</bdi>
                  </p>
                  <p className="text-xs text-fg-muted">
                    {t('doorStaff.grantedAt')} {since(person.grantedAt)}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={t('doorStaff.revokeLabel', { name: person.name })}
                  onClick={() =>
                    revoke.mutate(person.userId, {
                      onSuccess: () => setStatus(t('doorStaff.revoked', { name: person.name })),
                    })
                  }
                >
                  {t('doorStaff.revoke')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </PageContainer>
  );
}
