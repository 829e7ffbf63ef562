import { type ReactNode, useId } from 'react';
import type { Dashboard } from '../../../../../../contracts/dashboard';
import { cn } from '../../../../components/ui/cn';
import { Skeleton } from '../../../../components/ui/skeleton';
import { useI18n } from '../../../../lib/i18n';
import { chartFormats } from '../charts/chart-formats';
import { share } from '../charts/chart-math';

function Figure({
  label,
  value,
  detail,
  tone,
  meter,
  testId,
}: {
  label: string;
  value: string;
  detail?: string;
  tone?: 'accent' | 'danger';
  /** The figure as a part of a whole (0..1), drawn as a bar under it. */
  meter?: number;
  testId?: string;
}) {
  return (
    <div className="flex min-w-0 flex-col rounded-xl border border-border bg-surface-raised p-3 sm:p-4">
      <dt className="text-xs text-fg-muted sm:text-sm">{label}</dt>
      <dd
        data-testid={testId}
        className={cn(
          'mt-1 text-2xl font-bold tabular-nums sm:text-3xl',
          tone === 'accent' && 'text-accent',
          tone === 'danger' && 'text-danger',
        )}
      >
        <bdi>{value}</bdi>
        {detail ? (
          <>
            <span className="sr-only">, </span>
            <span className="block text-xs font-normal text-fg-muted sm:text-sm">{detail}</span>
          </>
        ) : null}
        {meter === undefined ? null : <Meter ratio={meter} />}
      </dd>
    </div>
  );
}

/** A bar under a figure that is a part of a whole (sold of capacity): the figure's text says the same. */
function Meter({ ratio }: { ratio: number }) {
  return (
    <div aria-hidden="true" className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-overlay">
      <div className="h-full rounded-full bg-accent" style={{ width: `${Math.min(100, Math.round(ratio * 100))}%` }} />
    </div>
  );
}

/** A named group of figures: a region with its heading, the figures in a grid. */
function FigureGroup({ title, grid, children }: { title: string; grid: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} className="text-sm font-semibold text-fg-muted">
        {title}
      </h2>
      <dl className={cn('grid gap-2 sm:gap-3', grid)}>{children}</dl>
    </section>
  );
}

/**
 * The dashboard's figures: what happened in the range (tickets sold, money in and given back, check-ins), then
 * the events' state now (sold of capacity, the waitlist, who is in of the valid tickets).
 */
export function DashboardFigures({ data }: { data: Dashboard }) {
  const i18n = useI18n();
  const { t, price } = i18n;
  const f = chartFormats(i18n);
  const sold = share(data.ticketsValid, data.capacity);
  const door = share(data.checkedInTotal, data.ticketsValid);
  return (
    <div className="flex flex-col gap-4">
      <FigureGroup title={t('dashboard.figures.inRange')} grid="grid-cols-2 lg:grid-cols-5">
        <Figure
          label={t('dashboard.figures.sold')}
          value={f.count(data.ticketsSold)}
          detail={
            data.ticketsRefunded > 0
              ? t('dashboard.figures.ticketsRefunded', { count: data.ticketsRefunded })
              : undefined
          }
          testId="figure-sold"
        />
        <Figure label={t('dashboard.figures.gross')} value={price(data.grossPiasters)} />
        <Figure
          label={t('dashboard.figures.refunded')}
          value={price(data.refundedPiasters)}
          tone={data.refundedPiasters > 0 ? 'danger' : undefined}
        />
        <Figure label={t('dashboard.figures.net')} value={price(data.netPiasters)} tone="accent" />
        <Figure label={t('dashboard.figures.checkedIn')} value={f.count(data.checkedIn)} />
      </FigureGroup>
      <FigureGroup title={t('dashboard.figures.now')} grid="grid-cols-1 sm:grid-cols-3">
        <Figure
          label={t('dashboard.figures.capacity')}
          value={`${f.count(data.ticketsValid)} / ${f.count(data.capacity)}`}
          detail={t('dashboard.figures.capacityShare', { percent: f.percent(sold) })}
          meter={sold}
        />
        <Figure label={t('dashboard.figures.waitlist')} value={f.count(data.waitlist)} />
        <Figure
          label={t('dashboard.figures.door')}
          value={`${f.count(data.checkedInTotal)} / ${f.count(data.ticketsValid)}`}
          detail={t('dashboard.figures.doorShare', { percent: f.percent(door) })}
          meter={door}
        />
      </FigureGroup>
    </div>
  );
}

export function DashboardFiguresSkeleton() {
  return (
    <div className="flex flex-col gap-4">
      <Skeleton className="h-5 w-32" />
      <div className="grid grid-cols-2 gap-2 sm:gap-3 lg:grid-cols-5">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <Skeleton className="h-5 w-24" />
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-3 sm:gap-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-28" />
        ))}
      </div>
    </div>
  );
}
