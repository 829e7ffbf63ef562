import type { Dashboard } from '../../../../../../contracts/dashboard';
import { Skeleton } from '../../../../components/ui/skeleton';
import { useI18n } from '../../../../lib/i18n';
import { BarListChart } from '../charts/bar-list-chart';
import { ChartFigure, Legend, LegendItem } from '../charts/chart-figure';
import { chartFormats } from '../charts/chart-formats';
import { CHART_COLORS, TimeChart } from '../charts/time-chart';
import { arrivalsModel, funnelModel, methodsModel, revenueModel, salesModel } from './chart-data';

const METHOD_COLORS = [
  CHART_COLORS.accent,
  CHART_COLORS.sky,
  CHART_COLORS.amber,
  CHART_COLORS.violet,
  CHART_COLORS.muted,
];
const FUNNEL_COLORS = [CHART_COLORS.sky, CHART_COLORS.amber, CHART_COLORS.accent];

/** Instead of a drawing with nothing in it: one sentence (the summary says the same). */
function Nothing({ text }: { text: string }) {
  return <p className="py-6 text-center text-sm text-fg-muted">{text}</p>;
}

/**
 * The dashboard's charts: tickets sold per day (or per hour of a one-day range) against capacity, revenue per day,
 * on an event's day its arrivals per 15 minutes, the payment methods and the funnel from the event page to payment.
 */
export function DashboardCharts({ data }: { data: Dashboard }) {
  const i18n = useI18n();
  const { t } = i18n;
  const f = chartFormats(i18n);
  const sales = salesModel(i18n, f, data);
  const revenue = revenueModel(i18n, f, data);
  const arrivals = arrivalsModel(i18n, f, data);
  const methods = methodsModel(i18n, f, data);
  const funnel = funnelModel(i18n, f, data);
  const pounds = (value: number) => f.compact(value);

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-2">
      <div className="min-w-0 lg:col-span-2">
        <ChartFigure
          title={sales.title}
          table={sales.table}
          legend={
            <Legend>
              <LegendItem
                color={CHART_COLORS.accent}
                kind="bar"
                label={t(sales.hourly ? 'dashboard.charts.soldPerHour' : 'dashboard.charts.soldPerDay')}
              />
              <LegendItem color={CHART_COLORS.sky} kind="line" label={t('dashboard.charts.soldTotal')} />
              {sales.capacity > 0 ? (
                <LegendItem color={CHART_COLORS.muted} kind="dashed" label={t('dashboard.charts.capacityLegend')} />
              ) : null}
            </Legend>
          }
        >
          {(width) => (
            <TimeChart
              width={width}
              summary={sales.summary}
              labels={sales.labels}
              bars={[{ label: t('dashboard.charts.soldPerDay'), color: CHART_COLORS.accent, values: sales.sold }]}
              lines={[
                {
                  label: t('dashboard.charts.soldTotal'),
                  color: CHART_COLORS.sky,
                  values: sales.total,
                  secondary: true,
                },
              ]}
              reference={
                sales.capacity > 0
                  ? { value: sales.capacity, label: t('dashboard.charts.capacity', { count: sales.capacity }) }
                  : undefined
              }
              format={f.compact}
              integer
              minSlot={9}
            />
          )}
        </ChartFigure>
      </div>

      <div className="min-w-0 lg:col-span-2">
        <ChartFigure
          title={revenue.title}
          table={revenue.table}
          legend={
            <Legend>
              <LegendItem color={CHART_COLORS.sky} kind="bar" label={t('dashboard.charts.gross')} />
              <LegendItem color={CHART_COLORS.danger} kind="bar" label={t('dashboard.charts.refunded')} />
              <LegendItem color={CHART_COLORS.accent} kind="line" label={t('dashboard.charts.net')} />
            </Legend>
          }
        >
          {(width) => (
            <TimeChart
              width={width}
              summary={revenue.summary}
              labels={revenue.labels}
              bars={[
                { label: t('dashboard.charts.gross'), color: CHART_COLORS.sky, values: revenue.gross },
                { label: t('dashboard.charts.refunded'), color: CHART_COLORS.danger, values: revenue.refunded },
              ]}
              lines={[{ label: t('dashboard.charts.net'), color: CHART_COLORS.accent, values: revenue.net }]}
              format={pounds}
              minSlot={14}
            />
          )}
        </ChartFigure>
      </div>

      {arrivals ? (
        <div className="min-w-0 lg:col-span-2">
          <ChartFigure
            title={arrivals.title}
            table={arrivals.table}
            legend={
              arrivals.labels.length === 0 ? undefined : (
                <Legend>
                  <LegendItem color={CHART_COLORS.accent} kind="bar" label={t('dashboard.charts.arrivalsPerSlot')} />
                  <LegendItem color={CHART_COLORS.sky} kind="line" label={t('dashboard.charts.arrivalsRunning')} />
                  <LegendItem color={CHART_COLORS.muted} kind="dashed" label={t('dashboard.charts.validLegend')} />
                </Legend>
              )
            }
          >
            {(width) =>
              arrivals.labels.length === 0 ? (
                <Nothing text={arrivals.summary} />
              ) : (
                <TimeChart
                  width={width}
                  summary={arrivals.summary}
                  labels={arrivals.labels}
                  bars={[
                    {
                      label: t('dashboard.charts.arrivalsPerSlot'),
                      color: CHART_COLORS.accent,
                      values: arrivals.checkedIn,
                    },
                  ]}
                  lines={[
                    {
                      label: t('dashboard.charts.arrivalsRunning'),
                      color: CHART_COLORS.sky,
                      values: arrivals.running,
                      secondary: true,
                    },
                  ]}
                  reference={{
                    value: arrivals.valid,
                    label: t('dashboard.charts.validTickets', { count: arrivals.valid }),
                  }}
                  format={f.compact}
                  integer
                  minSlot={12}
                />
              )
            }
          </ChartFigure>
        </div>
      ) : null}

      <ChartFigure title={methods.title} table={methods.table}>
        {(width) =>
          methods.rows.length === 0 ? (
            <Nothing text={methods.summary} />
          ) : (
            <BarListChart
              width={width}
              summary={methods.summary}
              rows={methods.rows.map((row, i) => ({ ...row, color: METHOD_COLORS[i % METHOD_COLORS.length] }))}
            />
          )
        }
      </ChartFigure>

      <ChartFigure title={funnel.title} table={funnel.table}>
        {(width) => (
          <BarListChart
            width={width}
            summary={funnel.summary}
            rows={funnel.rows.map((row, i) => ({ ...row, color: FUNNEL_COLORS[i] }))}
          />
        )}
      </ChartFigure>
    </div>
  );
}

export function DashboardChartsSkeleton() {
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <Skeleton className="h-80 lg:col-span-2" />
      <Skeleton className="h-80 lg:col-span-2" />
      <Skeleton className="h-56" />
      <Skeleton className="h-56" />
    </div>
  );
}
