import { useEffect, useId } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { ATTENDEES_PAGE_SIZE, ATTENDEES_QUERY_MAX, type AttendeeCounts } from '../../../../../contracts/attendees';
import { formatDate } from '../../../../../contracts/dates';
import { isUuid } from '../../../../../contracts/ids';
import { attendeesMessages as m } from '../../../../../contracts/messages/attendees';
import { Button, buttonClasses } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { TimeRange } from '../../../components/ui/time';
import { ApiError } from '../../../lib/api-client';
import { attendeesCsvUrl, useAttendees } from '../api/get-attendees';
import { AttendeesList, AttendeesSkeleton } from '../components/attendees-list';
import { useListSearch } from '../components/use-list-search';

function Figure({ label, value, detail, tone }: { label: string; value: number; detail?: string; tone?: 'warn' }) {
  return (
    <div className="flex min-w-0 flex-col rounded-xl border border-border bg-surface-raised p-3 sm:p-4">
      <dt className="text-xs text-fg-muted sm:text-sm">{label}</dt>
      <dd
        className={`mt-1 text-3xl font-bold tabular-nums sm:text-4xl ${tone === 'warn' && value > 0 ? 'text-amber-300' : ''}`}
      >
        {value.toLocaleString('en-US')}
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
  const share = counts.sold > 0 ? `${Math.round((counts.checkedIn / counts.sold) * 100)}%` : undefined;
  return (
    <dl className="grid grid-cols-3 gap-2 sm:gap-3">
      <Figure label={m.sold} value={counts.sold} />
      <Figure label={m.checkedIn} value={counts.checkedIn} detail={share} />
      <Figure label={m.admittedTwiceCount} value={counts.admittedTwice} tone="warn" />
    </dl>
  );
}

/** /admin/event/:id/attendees: who holds a ticket, who is in; kept up to date while the page is open. */
export function AdminAttendeesRoute() {
  const { id = '' } = useParams();
  const { q, page, search, setSearch, go } = useListSearch();
  const searchId = useId();
  const valid = isUuid(id);
  const { data, error, isPending, isError, refetch, isFetching } = useAttendees({ eventId: id, q, page });
  useDocumentMeta(data ? m.titleOf(data.event.title) : m.title);

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
          ← {m.backToEvents}
        </Link>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            <h1 tabIndex={-1} data-route-focus className="text-3xl font-bold">
              {m.title}
            </h1>
            {data ? (
              <p className="mt-1 break-words text-fg-muted">
                <span className="font-medium text-fg">{data.event.title}</span> · {formatDate(data.event.eventDate)} ·{' '}
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
            {m.downloadCsv}
          </a>
        </div>
      </div>

      {isPending ? (
        <AttendeesSkeleton />
      ) : isError && !data ? (
        <LoadError
          onRetry={() => void refetch()}
          retrying={isFetching}
          back={{ to: '/admin', label: m.backToEvents }}
        />
      ) : data ? (
        <>
          <section aria-label="Counts" className="flex flex-col gap-2">
            <Figures counts={data.counts} />
            <p className="flex items-center gap-2 text-xs text-fg-muted">
              <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-accent" />
              {m.live}
            </p>
          </section>

          <div className="flex flex-col gap-1.5 sm:max-w-sm">
            <label htmlFor={searchId} className="text-sm font-medium">
              {m.searchLabel}
            </label>
            <input
              id={searchId}
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder={m.searchPlaceholder}
              maxLength={ATTENDEES_QUERY_MAX}
              autoComplete="off"
              spellCheck={false}
              className="h-11 w-full rounded-lg border border-border bg-surface px-3 text-fg placeholder:text-fg-muted/70 focus:border-accent focus:outline-none"
            />
          </div>

          {data.items.length === 0 ? (
            <p className="rounded-xl border border-border p-10 text-center text-lg text-fg-muted">
              {q ? m.noMatch(q) : m.empty}
            </p>
          ) : (
            <>
              <p className="text-sm text-fg-muted" aria-live="polite">
                {m.showing(first, first + data.items.length - 1, data.total)}
              </p>
              <AttendeesList items={data.items} timeZone={data.timeZone} />
            </>
          )}

          {pageCount > 1 ? (
            // aria-disabled rather than disabled: the button that reached the first or last page keeps the focus.
            <nav aria-label="Pagination" className="flex items-center justify-center gap-4">
              <Button
                variant="secondary"
                size="sm"
                aria-disabled={data.page <= 1}
                className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
                onClick={() => data.page > 1 && go({ page: data.page - 1 })}
              >
                Previous
              </Button>
              <span className="text-sm text-fg-muted">
                Page {data.page} of {pageCount}
              </span>
              <Button
                variant="secondary"
                size="sm"
                aria-disabled={data.page >= pageCount}
                className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
                onClick={() => data.page < pageCount && go({ page: data.page + 1 })}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </>
      ) : null}
    </PageContainer>
  );
}
