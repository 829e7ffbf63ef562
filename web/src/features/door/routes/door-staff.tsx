import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { doorMessages } from '../../../../../contracts/messages/door';
import { doorStaffMessages } from '../../../../../contracts/messages/door-staff';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError } from '../../../lib/api-client';
import { useDoorStaff, useGrantDoorStaff, useRevokeDoorStaff } from '../api/door-staff';
import { EmptyList, ListLoadError } from '../components/list-states';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.errors.email ?? error.message;
  return doorStaffMessages.failed;
}

/** /admin/event/:id/door-staff: the admin gives and takes an event's door (check-in there, nothing else). */
export function DoorStaffRoute() {
  useDocumentMeta(doorStaffMessages.doorStaffTitle);
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
        setStatus(doorStaffMessages.granted(typed));
      },
    });
  };

  return (
    <PageContainer className="max-w-3xl">
      <p>
        <Link to="/admin/check-in" className="text-sm font-medium text-fg-muted hover:text-accent">
          ← {doorMessages.checkIn}
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{doorStaffMessages.doorStaffTitle}</h1>
      <p className="mt-2 text-fg-muted">{doorStaffMessages.doorStaffIntro}</p>
      <form onSubmit={onSubmit} noValidate className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          label={doorStaffMessages.email}
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={grant.isError ? messageOf(grant.error) : undefined}
          className="flex-1"
        />
        <Button type="submit" className="sm:mt-7" aria-busy={grant.isPending || undefined}>
          {doorStaffMessages.grant}
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
                ? doorStaffMessages.eventNotFound
                : doorStaffMessages.loadFailed
            }
            retry={doorStaffMessages.retry}
            onRetry={() => void refetch()}
            retrying={isFetching}
          />
        ) : data.items.length === 0 ? (
          <EmptyList>{doorStaffMessages.noDoorStaff}</EmptyList>
        ) : (
          <ul className="flex flex-col gap-2">
            {data.items.map((person) => (
              <li
                key={person.userId}
                className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-surface-raised p-4"
              >
                <div className="min-w-0">
                  <p className="break-words font-semibold">{person.name}</p>
                  <p className="break-all text-sm text-fg-muted">{person.email}</p>
                  <p className="text-xs text-fg-muted">
                    {doorStaffMessages.grantedAt} {dateTime.format(new Date(person.grantedAt))}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={doorStaffMessages.revokeLabel(person.name)}
                  onClick={() =>
                    revoke.mutate(person.userId, { onSuccess: () => setStatus(doorStaffMessages.revoked(person.name)) })
                  }
                >
                  {doorStaffMessages.revoke}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </PageContainer>
  );
}
