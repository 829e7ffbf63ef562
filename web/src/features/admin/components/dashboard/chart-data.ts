import type { Dashboard } from '../../../../../../contracts/dashboard';
import { PAYMENT_METHOD_LABELS } from '../../../../../../contracts/dashboard-labels';
import type { I18n } from '../../../../../../contracts/i18n/i18n';
import type { ChartTable } from '../charts/chart-figure';
import type { ChartFormats } from '../charts/chart-formats';
import { peakIndex, runningTotals, share } from '../charts/chart-math';

/**
 * What each chart of the dashboard shows, from the API's answer: its title, its text summary (the drawing's name
 * for screen readers), its slots' labels and series, and the same figures as a table. Pure, so that the texts are
 * tested in both languages (chart-data.test.ts).
 */

type Texts = Pick<I18n, 't' | 'date' | 'time' | 'price' | 'lang'>;

export interface SalesModel {
  title: string;
  summary: string;
  /** Per hour (a one-day range) rather than per day. */
  hourly: boolean;
  labels: string[];
  sold: number[];
  /** Sold in the range up to and including each slot. */
  total: number[];
  capacity: number;
  table: ChartTable;
}

export function salesModel(i18n: Texts, f: ChartFormats, d: Dashboard): SalesModel {
  const { t } = i18n;
  const hourly = d.from === d.to && d.byHour.length > 0;
  const slots = hourly
    ? d.byHour.map((h) => ({ label: f.hour(h.hour), long: f.hourOfDay(h.hour), sold: h.ticketsSold, refunded: null }))
    : d.byDay.map((day) => ({
        label: f.shortDay(day.day),
        long: i18n.date(day.day),
        sold: day.ticketsSold,
        refunded: day.ticketsRefunded as number | null,
      }));
  const sold = slots.map((slot) => slot.sold);
  const total = runningTotals(sold);
  const count = total.at(-1) ?? 0;
  const peak = slots[peakIndex(sold)];
  const from = i18n.date(d.from);
  const to = i18n.date(d.to);
  let summary = !peak
    ? t('dashboard.charts.soldNone', { from, to })
    : hourly
      ? t('dashboard.charts.soldHourlySummary', { day: from, count, best: peak.long, most: peak.sold })
      : t('dashboard.charts.soldSummary', { from, to, count, best: peak.long, most: peak.sold });
  if (d.capacity > 0) summary += ` ${t('dashboard.charts.capacitySummary', { count: d.capacity })}`;
  const columns = [
    t(hourly ? 'dashboard.tables.hour' : 'dashboard.tables.day'),
    t('dashboard.tables.sold'),
    ...(hourly ? [] : [t('dashboard.tables.ticketsRefunded')]),
    t('dashboard.tables.soldTotal'),
  ];
  return {
    title: t(hourly ? 'dashboard.charts.soldHourlyTitle' : 'dashboard.charts.soldTitle'),
    summary,
    hourly,
    labels: slots.map((slot) => slot.label),
    sold,
    total,
    capacity: d.capacity,
    table: {
      columns,
      rows: slots.map((slot, i) => [
        slot.long,
        f.count(slot.sold),
        ...(slot.refunded === null ? [] : [f.count(slot.refunded)]),
        f.count(total[i] ?? 0),
      ]),
    },
  };
}

export interface RevenueModel {
  title: string;
  summary: string;
  labels: string[];
  /** In pounds, for the axis. */
  gross: number[];
  refunded: number[];
  net: number[];
  table: ChartTable;
}

export function revenueModel(i18n: Texts, f: ChartFormats, d: Dashboard): RevenueModel {
  const { t, price } = i18n;
  return {
    title: t('dashboard.charts.revenueTitle'),
    summary: t('dashboard.charts.revenueSummary', {
      from: i18n.date(d.from),
      to: i18n.date(d.to),
      gross: price(d.grossPiasters),
      refunded: price(d.refundedPiasters),
      net: price(d.netPiasters),
    }),
    labels: d.byDay.map((day) => f.shortDay(day.day)),
    gross: d.byDay.map((day) => day.grossPiasters / 100),
    refunded: d.byDay.map((day) => day.refundedPiasters / 100),
    net: d.byDay.map((day) => (day.grossPiasters - day.refundedPiasters) / 100),
    table: {
      columns: [
        t('dashboard.tables.day'),
        t('dashboard.tables.gross'),
        t('dashboard.tables.refunded'),
        t('dashboard.tables.net'),
      ],
      rows: d.byDay.map((day) => [
        i18n.date(day.day),
        price(day.grossPiasters),
        price(day.refundedPiasters),
        price(day.grossPiasters - day.refundedPiasters),
      ]),
    },
  };
}

export interface ArrivalsModel {
  title: string;
  summary: string;
  labels: string[];
  checkedIn: number[];
  running: number[];
  /** The tickets that could still come in: the dashed line the running count climbs to. */
  valid: number;
  table: ChartTable;
}

export function arrivalsModel(i18n: Texts, f: ChartFormats, d: Dashboard): ArrivalsModel | null {
  if (!d.arrivals) return null;
  const { t } = i18n;
  const { buckets } = d.arrivals;
  const day = i18n.date(d.arrivals.day);
  const checkedIn = buckets.map((bucket) => bucket.checkedIn);
  const count = buckets.at(-1)?.running ?? 0;
  const peak = buckets[peakIndex(checkedIn)];
  const first = buckets[0];
  const last = buckets.at(-1);
  return {
    title: t('dashboard.charts.arrivalsTitle', { day }),
    summary:
      peak && first && last
        ? t('dashboard.charts.arrivalsSummary', {
            day,
            count,
            first: i18n.time(first.at),
            last: i18n.time(last.at),
            best: i18n.time(peak.at),
            most: peak.checkedIn,
          })
        : t('dashboard.charts.arrivalsNone', { day }),
    labels: buckets.map((bucket) => i18n.time(bucket.at)),
    checkedIn,
    running: buckets.map((bucket) => bucket.running),
    valid: d.ticketsValid,
    table: {
      columns: [t('dashboard.tables.time'), t('dashboard.tables.checkedIn'), t('dashboard.tables.running')],
      rows: buckets.map((bucket) => [i18n.time(bucket.at), f.count(bucket.checkedIn), f.count(bucket.running)]),
    },
  };
}

export interface BarRowModel {
  label: string;
  value: number;
  text: string;
}

export interface BarListModel {
  title: string;
  summary: string;
  rows: BarRowModel[];
  table: ChartTable;
}

export function methodsModel(i18n: Texts, f: ChartFormats, d: Dashboard): BarListModel {
  const { t, price } = i18n;
  const methods = [...d.byMethod]
    .filter((method) => method.bookings > 0 || method.grossPiasters > 0)
    .sort((a, b) => b.bookings - a.bookings || b.grossPiasters - a.grossPiasters);
  const rows = methods.map((method) => ({
    label: t(PAYMENT_METHOD_LABELS[method.method]),
    value: method.bookings,
    text: t('dashboard.charts.methodRow', { count: method.bookings, amount: price(method.grossPiasters) }),
  }));
  const list = new Intl.ListFormat(i18n.lang === 'ar' ? 'ar-EG' : 'en-US', { type: 'conjunction' }).format(
    rows.map((row, i) =>
      t('dashboard.charts.methodItem', { method: row.label, count: f.count(methods[i]?.bookings ?? 0) }),
    ),
  );
  return {
    title: t('dashboard.charts.methodsTitle'),
    summary: rows.length > 0 ? t('dashboard.charts.methodsSummary', { list }) : t('dashboard.charts.methodsNone'),
    rows,
    table: {
      columns: [t('dashboard.tables.method'), t('dashboard.tables.bookings'), t('dashboard.tables.gross')],
      rows: methods.map((method, i) => [
        rows[i]?.label ?? method.method,
        f.count(method.bookings),
        price(method.grossPiasters),
      ]),
    },
  };
}

export function funnelModel(i18n: Texts, f: ChartFormats, d: Dashboard): BarListModel {
  const { t } = i18n;
  const { views, reservations, paid } = d.funnel;
  const ofViews = (value: number) => (views > 0 ? f.percent(share(value, views)) : '—');
  const steps = [
    { label: t('dashboard.charts.views'), value: views },
    { label: t('dashboard.charts.reservations'), value: reservations },
    { label: t('dashboard.charts.paid'), value: paid },
  ];
  return {
    title: t('dashboard.charts.funnelTitle'),
    summary:
      views > 0
        ? t('dashboard.charts.funnelSummary', {
            views: f.count(views),
            reservations: f.count(reservations),
            paid: f.count(paid),
            percent: ofViews(paid),
          })
        : t('dashboard.charts.funnelSummaryNoViews', { reservations: f.count(reservations), paid: f.count(paid) }),
    rows: steps.map((step) => ({
      ...step,
      text:
        views > 0
          ? t('dashboard.charts.funnelRow', { count: f.count(step.value), percent: ofViews(step.value) })
          : f.count(step.value),
    })),
    table: {
      columns: [t('dashboard.tables.step'), t('dashboard.tables.count'), t('dashboard.tables.ofViews')],
      rows: steps.map((step) => [step.label, f.count(step.value), ofViews(step.value)]),
    },
  };
}
