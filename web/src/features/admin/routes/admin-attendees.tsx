import { useEffect, useId } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { ATTENDEES_PAGE_SIZE, ATTENDEES_QUERY_MAX, type AttendeeCounts } from '../../../../../contracts/attendees';
import { isUuid } from '../../../../../contracts/ids';
import { Button, buttonClasses } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { TimeRange } from '../../../components/ui/time';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { attendeesCsvUrl, useAttendees } from '../api/get-attendees';
import { AttendeesList, AttendeesSkeleton } from '../components/attendees-list';
import { useListSearch } from '../components/use-list-search';

function Figure({ label, value, detail, tone }: { label: string; value: number; detail?: string; tone?: 'warn' }) {
  const { lang, number } = useI18n();
  return (
    <div className="flex min-w-0 flex-col rounded-xl border border-border bg-surface-raised p-3 sm:p-4">
      <dt className="text-xs text-fg-muted sm:text-sm">{label}</dt>
      <dd
        className={`mt-1 text-3xl font-bold tabular-nums sm:text-4xl ${tone === 'warn' && value > 0 ? 'text-amber-300' : ''}`}
      >
        {lang === 'en' ? value.toLocaleString('en-US') : number(value)}
        {detail ? (
          <>
            <span className="sr-only">, </span>
            <span className="block text-xs font-normal text-fg-muted sm:text-sm">{detail}</span>
          </>
        ) : null}
      </dd>
    </div>
  );
}

function Figures({ counts }: { counts: AttendeeCounts }) {
  const { t } = useI18n();
  const share =
    counts.sold > 0 ? t('attendees.share', { percent: Math.round((counts.checkedIn / counts.sold) * 100) }) : undefined;
  return (
    <dl className="grid grid-cols-3 gap-2 sm:gap-3">
      <Figure label={t('attendees.sold')} value={counts.sold} />
      <Figure label={t('attendees.checkedIn')} value={counts.checkedIn} detail={share} />
      <Figure label={t('attendees.admittedTwiceCount')} value={counts.admittedTwice} tone="warn" />
    </dl>
  );
}

/** /admin/event/:id/attendees: who holds a ticket, who is in; kept up to date while the page is open. */
export function AdminAttendeesRoute() {
  const { t, date } = useI18n();
  const { id = '' } = useParams();
  const { q, page, search, setSearch, go } = useListSearch();
  const searchId = useId();
  const valid = isUuid(id);
  const { data, error, isPending, isError, refetch, isFetching } = useAttendees({ eventId: id, q, page });
  useDocumentMeta(data ? t('attendees.titleOf', { event: data.event.title }) : t('attendees.title'));

  // The server answers the last page for one past it: the address follows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the answered page only
  useEffect(() => {
    if (data && !isFetching && data.page !== page && data.pageCount > 0) go({ page: data.page }, true);
  }, [data, isFetching]);

  if (!valid || (error instanceof ApiError && error.status === 404)) return <Navigate to="/404" replace />;

  const pageCount = data?.pageCount ?? 0;
  const first = data ? (data.page - 1) * ATTENDEES_PAGE_SIZE + 1 : 0;

  return (
    <PageContainer className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <Link
          to="/admin"
          className="self-start text-sm text-fg-muted underline-offset-2 hover:text-accent hover:underline"
        >
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            ←
          </span>{' '}
          {t('attendees.backToEvents')}
        </Link>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            <h1 tabIndex={-1} data-route-focus className="text-3xl font-bold">
              {t('attendees.title')}
            </h1>
            {data ? (
              <p className="mt-1 break-words text-fg-muted">
                <bdi className="font-medium text-fg">{data.event.title}</bdi> · {date(data.event.eventDate)} ·{' '}
                <TimeRange start={data.event.startTime} end={data.event.endTime} />
              </p>
            ) : (
              // The line's place while loading: the page does not move when it comes.
              <Skeleton className="mt-1 h-6 w-72 max-w-full" />
            )}
          </div>
          <a href={attendeesCsvUrl(id)} download className={buttonClasses('secondary', 'md')}>
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M12 4v11m0 0-4.5-4.5M12 15l4.5-4.5M5 19h14" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            {t('attendees.downloadCsv')}
          </a>
        </div>
      </div>

      {isPending ? (
        <AttendeesSkeleton />
      ) : isError && !data ? (
        <LoadError
          onRetry={() => void refetch()}
          retrying={isFetching}
          back={{ to: '/admin', label: t('attendees.backToEvents') }}
        />
      ) : data ? (
        <>
          <section aria-label={t('attendees.counts')} className="flex flex-col gap-2">
            <Figures counts={data.counts} />
            <p className="flex items-center gap-2 text-xs text-fg-muted">
              <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-accent" />
              {t('attendees.live')}
            </p>
          </section>

          <div className="flex flex-col gap-1.5 sm:max-w-sm">
            <label htmlFor={searchId} className="text-sm font-medium">
              {t('attendees.searchLabel')}
            </label>
            <input
              id={searchId}
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder={t('attendees.searchPlaceholder')}
              maxLength={ATTENDEES_QUERY_MAX}
              autoComplete="off"
              spellCheck={false}
              className="h-11 w-full rounded-lg border border-border bg-surface px-3 text-fg placeholder:text-fg-muted/70 focus:border-accent focus:outline-none"
            />
          </div>

          {data.items.length === 0 ? (
            <p className="rounded-xl border border-border p-10 text-center text-lg text-fg-muted">
              {q ? t('attendees.noMatch', { q }) : t('attendees.empty')}
            </p>
          ) : (
            <>
              <p className="text-sm text-fg-muted" aria-live="polite">
                {t('attendees.showing', { from: first, to: first + data.items.length - 1, total: data.total })}
              </p>
              <AttendeesList items={data.items} timeZone={data.timeZone} />
            </>
          )}

          {pageCount > 1 ? (
            // aria-disabled rather than disabled: the button that reached the first or last page keeps the focus.
            <nav aria-label={t('attendees.pagination')} className="flex items-center justify-center gap-4">
              <Button
                variant="secondary"
                size="sm"
                aria-disabled={data.page <= 1}
                className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
                onClick={() => data.page > 1 && go({ page: data.page - 1 })}
              >
                {t('attendees.previous')}
              </Button>
              <span className="text-sm text-fg-muted">
                {t('attendees.pageOf', { page: data.page, pages: pageCount })}
              </span>
              <Button
                variant="secondary"
                size="sm"
                aria-disabled={data.page >= pageCount}
                className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
                onClick={() => data.page < pageCount && go({ page: data.page + 1 })}
              >
                {t('attendees.next')}
              </Button>
            </nav>
          ) : null}
        </>
      ) : null}
    </PageContainer>
  );
}
