import { Link } from 'react-router';
import type { DashboardEvent } from '../../../../../../contracts/dashboard';
import { cn } from '../../../../components/ui/cn';
import { Time } from '../../../../components/ui/time';
import { useI18n } from '../../../../lib/i18n';
import { chartFormats } from '../charts/chart-formats';
import { share } from '../charts/chart-math';

const linkClass =
  'inline-flex h-9 items-center whitespace-nowrap rounded-lg px-2 text-sm font-medium text-accent underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent';

/** A part of a whole as a number and a small bar (the bar repeats the number, for the eye only). */
function PartOf({ part, whole }: { part: number; whole: number }) {
  const i18n = useI18n();
  const f = chartFormats(i18n);
  const ratio = Math.min(1, share(part, whole));
  return (
    <div className="flex min-w-28 flex-col gap-1">
      <span className="tabular-nums">
        <bdi>
          {f.count(part)} / {f.count(whole)}
        </bdi>
      </span>
      <span aria-hidden="true" className="block h-1.5 w-24 overflow-hidden rounded-full bg-surface-overlay">
        <span className="block h-full rounded-full bg-accent" style={{ width: `${Math.round(ratio * 100)}%` }} />
      </span>
    </div>
  );
}

/**
 * Every live event's state now (all-events dashboard): sold of capacity, the waitlist, who is in of the valid
 * tickets, and the way to its own dashboard and its attendees. `query` keeps the chosen range on the way.
 */
export function DashboardEvents({ events, query }: { events: DashboardEvent[]; query: string }) {
  const i18n = useI18n();
  const { t, date } = i18n;
  const f = chartFormats(i18n);
  const th = 'whitespace-nowrap px-3 py-3 text-start font-semibold';
  return (
    <section aria-labelledby="dashboard-events" className="flex min-w-0 flex-col gap-2">
      <h2 id="dashboard-events" className="text-lg font-semibold">
        {t('dashboard.events.heading')}
      </h2>
      {events.length === 0 ? (
        <p className="rounded-xl border border-border p-6 text-center text-fg-muted">{t('dashboard.events.none')}</p>
      ) : (
        <div className="relative overflow-x-auto rounded-xl border border-border">
          <table className="w-full text-sm">
            <thead className="bg-surface-overlay text-fg-muted">
              <tr>
                <th scope="col" className={th}>
                  {t('dashboard.events.event')}
                </th>
                <th scope="col" className={th}>
                  {t('dashboard.events.sold')}
                </th>
                <th scope="col" className={th}>
                  {t('dashboard.events.waitlist')}
                </th>
                <th scope="col" className={th}>
                  {t('dashboard.events.checkedIn')}
                </th>
                <th scope="col" className={cn(th, 'text-end')}>
                  <span className="sr-only">{t('dashboard.events.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id} className="border-t border-border">
                  <th scope="row" className="min-w-40 px-3 py-2 text-start font-medium">
                    <bdi className="block break-words">{event.title}</bdi>
                    <span className="block text-xs font-normal text-fg-muted">
                      {date(event.eventDate)} · <Time value={event.startTime} />
                    </span>
                    {event.cancelled ? (
                      <span className="mt-1 inline-flex rounded-full border border-red-500/40 bg-red-500/15 px-2 py-0.5 text-xs font-semibold text-danger">
                        {t('dashboard.cancelled')}
                      </span>
                    ) : null}
                  </th>
                  <td className="px-3 py-2">
                    <PartOf part={event.ticketsValid} whole={event.capacity} />
                  </td>
                  <td className="px-3 py-2 tabular-nums">{f.count(event.waitlist)}</td>
                  <td className="px-3 py-2">
                    <PartOf part={event.checkedIn} whole={event.ticketsValid} />
                  </td>
                  <td className="px-3 py-2 text-end">
                    <div className="flex flex-wrap justify-end gap-1">
                      <Link
                        to={`/admin/event/${event.id}/dashboard${query}`}
                        aria-label={t('dashboard.dashboardOf', { title: event.title })}
                        className={linkClass}
                      >
                        {t('dashboard.title')}
                      </Link>
                      <Link
                        to={`/admin/event/${event.id}/attendees`}
                        aria-label={t('dashboard.attendeesOf', { title: event.title })}
                        className={linkClass}
                      >
                        {t('dashboard.attendees')}
                      </Link>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
