import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { isUuid } from '../../../../../contracts/ids';
import { buttonClasses } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { Time } from '../../../components/ui/time';
import { ApiError, toQuery } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { ordersCsvUrl, rangeAttendeesCsvUrl, useDashboard } from '../api/get-dashboard';
import { type LiveState, useDashboardLive } from '../api/use-dashboard-live';
import { DashboardCharts, DashboardChartsSkeleton } from '../components/dashboard/dashboard-charts';
import { DashboardEvents } from '../components/dashboard/dashboard-events';
import { DashboardFigures, DashboardFiguresSkeleton } from '../components/dashboard/dashboard-figures';
import { DashboardRange, type Range } from '../components/dashboard/dashboard-range';

function DownloadIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M12 4v11m0 0-4.5-4.5M12 15l4.5-4.5M5 19h14" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Whether the page hears of sales as they happen: a dot and a word (the colour is not the only cue). */
function LiveIndicator({ state }: { state: LiveState }) {
  const { t } = useI18n();
  const live = state === 'live';
  return (
    <p className="flex items-center gap-2 text-xs text-fg-muted" data-live={state}>
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${live ? 'animate-pulse bg-accent' : 'border border-fg-muted'}`}
      />
      {live
        ? t('dashboard.live')
        : state === 'connecting'
          ? t('dashboard.liveConnecting')
          : t('dashboard.liveReconnecting')}
    </p>
  );
}

/**
 * /admin/dashboard (every event) and /admin/event/:id/dashboard (one): sales, revenue, refunds and check-ins over
 * the chosen days, the events' state now, and the CSV of the orders and attendees behind the figures; live while
 * open (the admins' stream asks the figures again when a sale, refund or check-in happens).
 */
export function AdminDashboardRoute() {
  const { t, date } = useI18n();
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const asked: Range = { from: params.get('from') || undefined, to: params.get('to') || undefined };
  const scope = { ...asked, eventId: id };
  const { data, error, isPending, isError, isFetching, isPlaceholderData, refetch } = useDashboard(scope);
  const live = useDashboardLive(id);
  const event = data?.event ?? null;
  useDocumentMeta(event ? t('dashboard.titleOf', { event: event.title }) : t('dashboard.title'));

  if ((id !== undefined && !isUuid(id)) || (error instanceof ApiError && error.status === 404)) {
    return <Navigate to="/404" replace />;
  }

  const rangeErrors = error instanceof ApiError && error.status === 400 ? error.errors : undefined;
  const choose = (range: Range) => setParams(new URLSearchParams(toQuery({ ...range }).slice(1)));
  const rangeQuery = toQuery({ from: data?.from ?? asked.from, to: data?.to ?? asked.to });
  // The downloads cover the range on screen (the server's default is the same range until midnight).
  const downloads = { from: data?.from ?? asked.from, to: data?.to ?? asked.to, eventId: id };
  const empty =
    data !== undefined &&
    data.ticketsSold === 0 &&
    data.ticketsRefunded === 0 &&
    data.checkedIn === 0 &&
    data.funnel.views === 0 &&
    data.funnel.reservations === 0;

  return (
    <PageContainer className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        {id ? (
          <Link
            to={`/admin/dashboard${rangeQuery}`}
            className="self-start text-sm text-fg-muted underline-offset-2 hover:text-accent hover:underline"
          >
            <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
              ←
            </span>{' '}
            {t('dashboard.backToAll')}
          </Link>
        ) : null}
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            <h1 tabIndex={-1} data-route-focus className="text-3xl font-bold">
              {t('dashboard.title')}
            </h1>
            {!id ? (
              <p className="mt-1 text-fg-muted">{t('dashboard.allEvents')}</p>
            ) : event ? (
              <p className="mt-1 break-words text-fg-muted">
                <bdi className="font-medium text-fg">{event.title}</bdi> · {date(event.eventDate)} ·{' '}
                <Time value={event.startTime} />
                {event.cancelled ? <> · {t('dashboard.cancelled')}</> : null}
              </p>
            ) : (
              <Skeleton className="mt-1 h-6 w-72 max-w-full" />
            )}
          </div>
          <div className="flex flex-col items-start gap-2 sm:items-end">
            <LiveIndicator state={live} />
            <nav aria-label={t('dashboard.downloads')} className="flex flex-wrap gap-2">
              <a href={ordersCsvUrl(downloads)} download className={buttonClasses('secondary', 'sm')}>
                <DownloadIcon />
                {t('dashboard.downloadOrders')}
              </a>
              <a href={rangeAttendeesCsvUrl(downloads)} download className={buttonClasses('secondary', 'sm')}>
                <DownloadIcon />
                {t('dashboard.downloadAttendees')}
              </a>
            </nav>
          </div>
        </div>
      </div>

      <DashboardRange
        asked={asked}
        shown={data ? { from: data.from, to: data.to } : undefined}
        timeZone={data?.timeZone}
        errors={rangeErrors}
        onChange={choose}
      />

      {rangeErrors ? (
        <p className="rounded-xl border border-border p-6 text-center text-fg-muted">{t('dashboard.rangeInvalid')}</p>
      ) : isPending ? (
        <>
          <DashboardFiguresSkeleton />
          <DashboardChartsSkeleton />
        </>
      ) : isError && !data ? (
        <LoadError
          onRetry={() => void refetch()}
          retrying={isFetching}
          back={{ to: '/admin', label: t('dashboard.backToEvents') }}
        />
      ) : data ? (
        <div className="flex flex-col gap-6" aria-busy={isPlaceholderData || undefined}>
          {isPlaceholderData ? (
            <p className="flex items-center gap-2 text-xs text-fg-muted">
              <Spinner label={null} />
              {t('dashboard.updating')}
            </p>
          ) : null}
          {empty ? (
            <p className="rounded-xl border border-border p-4 text-center text-fg-muted">{t('dashboard.empty')}</p>
          ) : null}
          <DashboardFigures data={data} />
          <DashboardCharts data={data} />
          {id ? null : <DashboardEvents events={data.events} query={rangeQuery} />}
        </div>
      ) : null}
    </PageContainer>
  );
}
