import { Link } from 'react-router';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { TimeRange } from '../../../components/ui/time';
import { useI18n } from '../../../lib/i18n';
import { useMe } from '../../accounts/api/get-me';
import { useCheckInEvents } from '../api/get-check-in-events';
import { EmptyList, ListLoadError } from './list-states';

/** /admin/check-in (routes/check-in.tsx): the events whose door the user keeps, with tickets sold and checked in; one opens the scanner. */
export function CheckInEvents() {
  const { t, date } = useI18n();
  useDocumentMeta(t('door.chooseEventTitle'));
  const { data, isPending, isError, refetch, isFetching } = useCheckInEvents();
  const { data: me } = useMe();
  return (
    <PageContainer className="max-w-4xl">
      <h1 className="text-3xl font-bold">{t('door.chooseEventTitle')}</h1>
      <p className="mt-2 text-fg-muted">{t('door.chooseEventIntro')}</p>
      <div className="mt-6" aria-busy={isPending}>
        {isPending ? (
          <div className="flex flex-col gap-3">
            <Skeleton className="h-24" />
            <Skeleton className="h-24" />
          </div>
        ) : isError ? (
          <ListLoadError
            message={t('door.loadFailed')}
            retry={t('door.retry')}
            onRetry={() => void refetch()}
            retrying={isFetching}
          />
        ) : data.items.length === 0 ? (
          <EmptyList>{t('door.noEvents')}</EmptyList>
        ) : (
          <ul className="flex flex-col gap-3">
            {data.items.map((event) => (
              <li
                key={event.id}
                className="flex flex-col gap-3 rounded-xl border border-border bg-surface-raised p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5"
              >
                <div className="min-w-0">
                  <h2 className="break-words text-lg font-semibold">
                    <Link
                      to={`/admin/event/${event.id}/check-in`}
                      className="hover:text-accent focus-visible:outline-2 focus-visible:outline-accent"
                    >
                      <bdi>{event.title}</bdi>
                    </Link>
                  </h2>
                  <p className="mt-1 text-sm text-fg-muted">
                    {date(event.eventDate)} · <TimeRange start={event.startTime} end={event.endTime} />
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-3 text-sm">
                  <span className="rounded-full bg-accent/15 px-3 py-1 font-semibold text-accent">
                    {t('door.counts', { checkedIn: event.checkedIn, sold: event.sold })}
                  </span>
                  {me?.role === 'admin' ? (
                    <Link to={`/admin/event/${event.id}/door-staff`} className="font-medium text-fg hover:text-accent">
                      {t('door.doorStaffLink')}
                      <span className="sr-only">
                        : <bdi>{event.title}</bdi>
                      </span>
                    </Link>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </PageContainer>
  );
}
