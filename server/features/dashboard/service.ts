import {
  ARRIVALS_BUCKET_MINUTES,
  checkedRange,
  type Dashboard,
  type DashboardDay,
  type DashboardEvent,
  type DashboardQuery,
  ORDERS_CSV_COLUMNS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type PaymentMethodKey,
} from '../../../contracts/dashboard';
import { addDays, todayIn } from '../../../contracts/dates';
import type { I18n } from '../../../contracts/i18n/i18n';
import { isUuid } from '../../../contracts/ids';
import { wallClockIn } from '../../../contracts/wall-clock';
import type { Queryable } from '../../db/client';
import { toCsv, UTF8_BOM } from '../../domain/csv';
import { NotFoundError, ValidationError } from '../../plugins/errors';
import {
  arrivals,
  checkInsByDay,
  type EventStateRow,
  eventState,
  eventStates,
  isLiveEvent,
  type OrderRow,
  ordersInRange,
  type RangeParams,
  refundsByDay,
  salesByDayAndMethod,
  salesByHour,
  viewsAndReservations,
} from './repository';

export interface DashboardDeps {
  db: Queryable;
  timeZone: string;
  /** Today's date in the time zone (tests move it). */
  today?: () => string;
}

function toEvent(row: EventStateRow): DashboardEvent {
  return { ...row };
}

/** Every day from..to, in order. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Piasters as a spreadsheet reads an amount: '150.00' (never localised digits: a spreadsheet sums these). */
function egp(piasters: number): string {
  return (piasters / 100).toFixed(2);
}

/**
 * Runs `work` once for any number of callers asking for the same `key` at the same time: ten admins watching the
 * same dashboard during an on-sale cost one set of queries, not ten. Nothing is kept once the answer is given.
 */
function singleFlight<T>() {
  const inFlight = new Map<string, Promise<T>>();
  return (key: string, work: () => Promise<T>): Promise<T> => {
    const running = inFlight.get(key);
    if (running) return running;
    const started = work().finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  };
}

/** The organiser's dashboard and the orders behind it. */
export function createDashboardService({ db, timeZone, today = () => todayIn(timeZone) }: DashboardDeps) {
  const shared = singleFlight<Dashboard>();

  /** The query's days and event, checked: a 400 for a range too long, a 404 for an event that is not there. */
  async function rangeOf(query: DashboardQuery): Promise<RangeParams> {
    const range = checkedRange(query, today());
    if ('error' in range) throw new ValidationError({ from: range.error });
    const { from, to } = range;
    const eventId = query.eventId ? query.eventId.toLowerCase() : null;
    if (eventId !== null && (!isUuid(eventId) || !(await isLiveEvent(db, eventId)))) {
      throw new NotFoundError('dashboard.eventNotFound', 'EVENT_NOT_FOUND');
    }
    return { timeZone, from, to, eventId };
  }

  async function build(range: RangeParams): Promise<Dashboard> {
    const oneDay = range.from === range.to;
    const [sales, hours, refunds, checkIns, funnel, events] = await Promise.all([
      salesByDayAndMethod(db, range),
      oneDay ? salesByHour(db, range) : Promise.resolve([]),
      refundsByDay(db, range),
      checkInsByDay(db, range),
      viewsAndReservations(db, range),
      range.eventId ? eventState(db, range.eventId).then((row) => (row ? [row] : [])) : eventStates(db, range.from),
    ]);
    const event = range.eventId ? (events[0] ?? null) : null;
    const arrivalRows = event ? await arrivals(db, timeZone, event.id, event.eventDate, ARRIVALS_BUCKET_MINUTES) : null;

    const byDay = new Map<string, DashboardDay>(
      daysOf(range.from, range.to).map((day) => [
        day,
        { day, ticketsSold: 0, ticketsRefunded: 0, grossPiasters: 0, refundedPiasters: 0, checkedIn: 0 },
      ]),
    );
    const methods = new Map<PaymentMethodKey, { bookings: number; grossPiasters: number }>();
    for (const row of sales) {
      const day = byDay.get(row.day);
      if (day) {
        day.ticketsSold += row.tickets;
        day.grossPiasters += row.gross;
      }
      const method = methods.get(row.method) ?? { bookings: 0, grossPiasters: 0 };
      method.bookings += row.bookings;
      method.grossPiasters += row.gross;
      methods.set(row.method, method);
    }
    for (const row of refunds) {
      const day = byDay.get(row.day);
      if (day) {
        day.ticketsRefunded += row.tickets;
        day.refundedPiasters += row.amount;
      }
    }
    for (const row of checkIns) {
      const day = byDay.get(row.day);
      if (day) day.checkedIn += row.count;
    }
    const days = [...byDay.values()];
    const sum = (pick: (day: DashboardDay) => number) => days.reduce((total, day) => total + pick(day), 0);
    const grossPiasters = sum((day) => day.grossPiasters);
    const refundedPiasters = sum((day) => day.refundedPiasters);
    const listed = events.map(toEvent);
    const sumEvents = (pick: (row: DashboardEvent) => number) => listed.reduce((total, row) => total + pick(row), 0);

    let running = 0;
    return {
      from: range.from,
      to: range.to,
      timeZone,
      event: event ? toEvent(event) : null,
      ticketsSold: sum((day) => day.ticketsSold),
      ticketsRefunded: sum((day) => day.ticketsRefunded),
      grossPiasters,
      refundedPiasters,
      netPiasters: grossPiasters - refundedPiasters,
      checkedIn: sum((day) => day.checkedIn),
      capacity: sumEvents((row) => row.capacity),
      ticketsValid: sumEvents((row) => row.ticketsValid),
      checkedInTotal: sumEvents((row) => row.checkedIn),
      waitlist: sumEvents((row) => row.waitlist),
      byDay: days,
      byHour: hours.map((row) => ({ hour: row.hour, ticketsSold: row.tickets, grossPiasters: row.gross })),
      byMethod: PAYMENT_METHODS.flatMap((method) => {
        const found = methods.get(method);
        return found ? [{ method, ...found }] : [];
      }),
      funnel: { ...funnel, paid: [...methods.values()].reduce((total, method) => total + method.bookings, 0) },
      events: listed,
      arrivals:
        event && arrivalRows
          ? {
              day: event.eventDate,
              buckets: arrivalRows.map((row) => {
                running += row.count;
                return { at: row.at, checkedIn: row.count, running };
              }),
            }
          : null,
    };
  }

  async function dashboard(query: DashboardQuery): Promise<Dashboard> {
    const range = await rangeOf(query);
    return shared(`${range.from}|${range.to}|${range.eventId ?? ''}`, () => build(range));
  }

  /** The orders the figures sum, as CSV in `i18n`'s language (amounts and times as a spreadsheet sorts them). */
  async function ordersCsv(query: DashboardQuery, i18n: I18n): Promise<{ fileName: string; body: string }> {
    const { t } = i18n;
    const range = await rangeOf(query);
    const rows = await ordersInRange(db, range);
    const local = (at: Date | null) => {
      if (!at) return '';
      const { date, time } = wallClockIn(at.toISOString(), timeZone);
      return `${date} ${time}`;
    };
    const status = (row: OrderRow) =>
      row.refundedQuantity === 0
        ? t('dashboard.orderStatus.paid')
        : row.refundedQuantity < row.quantity
          ? t('dashboard.orderStatus.partlyRefunded')
          : t('dashboard.orderStatus.refunded');
    const zone = ` (${timeZone})`;
    const header = ORDERS_CSV_COLUMNS.map((column) =>
      column === 'dashboard.orderColumns.paidAt' || column === 'dashboard.orderColumns.refundedAt'
        ? `${t(column)}${zone}`
        : t(column),
    );
    const body = toCsv([
      header,
      ...rows.map((row) => [
        row.id,
        row.title,
        row.eventDate,
        row.name,
        row.email,
        t(PAYMENT_METHOD_LABELS[row.method]),
        local(row.paidAt),
        row.paidInRange ? String(row.quantity) : '',
        row.paidInRange ? egp(row.totalPiasters) : '',
        local(row.lastRefundAt),
        row.rangeRefundedQuantity > 0 ? String(row.rangeRefundedQuantity) : '',
        row.rangeRefundedQuantity > 0 ? egp(row.rangeRefundedPiasters) : '',
        status(row),
      ]),
    ]);
    return { fileName: `orders-${range.from}-to-${range.to}.csv`, body: `${UTF8_BOM}${body}` };
  }

  return { dashboard, ordersCsv, rangeOf };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
