import {
  ARRIVALS_BUCKET_MINUTES,
  checkedRange,
  DASHBOARD_MAX_DAYS,
  type Dashboard,
  type DashboardDay,
  type DashboardEvent,
  type DashboardQuery,
  ORDERS_CSV_COLUMNS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type PaymentMethodKey,
} from '../../../contracts/dashboard';
import { addDays, daysBetween, todayIn } from '../../../contracts/dates';
import type { I18n } from '../../../contracts/i18n/i18n';
import { isUuid } from '../../../contracts/ids';
import { wallClockIn } from '../../../contracts/wall-clock';
import type { Queryable } from '../../db/client';
import { toCsv, UTF8_BOM } from '../../domain/csv';
import { NotFoundError, ValidationError } from '../../plugins/errors';
import {
  type ClosedBefore,
  checkInsByDay,
  closeDashboardDays,
  closedBefore,
  type EventBookingFigures,
  type EventStateRow,
  type EventTicketFigures,
  eventBookingFigures,
  eventRefundFigures,
  eventRow,
  eventStates,
  eventTicketFigures,
  type HourRow,
  isLiveEvent,
  type OrderRow,
  ordersInRange,
  type RangeParams,
  type RefundRow,
  refundsByDay,
  type SalesRow,
  salesByDayAndMethod,
  salesByHour,
  viewsAndReservations,
  viewsByDay,
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

/** One event's figures per day over from..to, as its statements answered them. */
interface EventParts {
  from: string;
  to: string;
  bookings: EventBookingFigures;
  refunds: RefundRow[];
  tickets: EventTicketFigures;
  views: Array<{ day: string; views: number }>;
  event: EventStateRow | undefined;
}

interface Flight {
  from: string;
  to: string;
  result: Promise<EventParts>;
}

interface Settle {
  resolve: (parts: EventParts) => void;
  reject: (error: unknown) => void;
}

/** The organiser's dashboard and the orders behind it. */
export function createDashboardService({ db, timeZone, today = () => todayIn(timeZone) }: DashboardDeps) {
  const shared = singleFlight<Dashboard>();
  const sharedHours = singleFlight<HourRow[]>();
  /** Per event: the statements running for it and the set that will run next (sharedEventParts). */
  const lanes = new Map<string, { running: Flight; next?: Flight & Settle }>();

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

  /** Every event's figures: the sums for exactly this range. */
  async function build(range: RangeParams): Promise<Dashboard> {
    const oneDay = range.from === range.to;
    const [sales, hours, refunds, checkIns, funnel, events] = await Promise.all([
      salesByDayAndMethod(db, range),
      oneDay ? salesByHour(db, range) : Promise.resolve([]),
      refundsByDay(db, range),
      checkInsByDay(db, range),
      viewsAndReservations(db, range),
      eventStates(db, range.from),
    ]);
    return assemble(range.from, range.to, {
      sales,
      hours,
      refunds,
      checkIns,
      funnel,
      events,
      event: null,
      arrivals: null,
    });
  }

  /**
   * One event's figures per day over `range`, five statements at once on as many connections: its bookings (sales,
   * reservations, tickets valid), its refunds, its check-ins (per day, the arrivals of its day, in all), each from the
   * sums of its closed days and the orders since, its page views and its row. Any range inside `range` is a slice of
   * them (eventDashboard).
   */
  async function eventParts(range: RangeParams & { eventId: string }): Promise<EventParts> {
    const parts = await eventPartsAfter(range, await closedBefore(db, timeZone));
    // The closed days were forgotten (or the zone's sums dropped) between the two reads: the orders alone.
    return parts.stale ? eventPartsAfter(range, null) : parts;
  }

  async function eventPartsAfter(
    range: RangeParams & { eventId: string },
    before: ClosedBefore,
  ): Promise<EventParts & { stale: boolean }> {
    const [bookings, given, tickets, views, event] = await Promise.all([
      eventBookingFigures(db, range, before),
      eventRefundFigures(db, range, before),
      eventTicketFigures(db, range, ARRIVALS_BUCKET_MINUTES, before),
      viewsByDay(db, range),
      eventRow(db, range.eventId),
    ]);
    const stale = bookings.stale || given.stale || tickets.stale;
    return { from: range.from, to: range.to, bookings, refunds: given.refunds, tickets, views, event, stale };
  }

  /** The dashboard of one event over from..to, a slice of `parts` (which cover at least those days). */
  function eventDashboard(parts: EventParts, from: string, to: string, hours: HourRow[]): Dashboard {
    const inRange = (row: { day: string }) => row.day >= from && row.day <= to;
    const { bookings, tickets } = parts;
    const event = parts.event
      ? { ...parts.event, ticketsValid: bookings.ticketsValid, checkedIn: tickets.checkedIn }
      : undefined;
    return assemble(from, to, {
      sales: bookings.sales.filter(inRange),
      hours,
      refunds: parts.refunds.filter(inRange),
      checkIns: tickets.checkIns.filter(inRange),
      funnel: {
        views: parts.views.filter(inRange).reduce((total, row) => total + row.views, 0),
        reservations: bookings.reservations.filter(inRange).reduce((total, row) => total + row.count, 0),
      },
      events: event ? [event] : [],
      event: event ?? null,
      arrivals: event ? tickets.arrivals : null,
    });
  }

  function assemble(
    from: string,
    to: string,
    parts: {
      sales: SalesRow[];
      hours: HourRow[];
      refunds: RefundRow[];
      checkIns: Array<{ day: string; count: number }>;
      funnel: { views: number; reservations: number };
      events: EventStateRow[];
      event: EventStateRow | null;
      arrivals: Array<{ at: string; count: number }> | null;
    },
  ): Dashboard {
    const { sales, hours, refunds, checkIns, funnel, events, event } = parts;
    const byDay = new Map<string, DashboardDay>(
      daysOf(from, to).map((day) => [
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
      from,
      to,
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
        event && parts.arrivals
          ? {
              day: event.eventDate,
              buckets: parts.arrivals.map((row) => {
                running += row.count;
                return { at: row.at, checkedIn: row.count, running };
              }),
            }
          : null,
    };
  }

  /**
   * One event's parts over from..to, shared by the admins asking for days of that event at the same time. A request
   * whose days lie inside those of the statements running for the event takes their answer (as ten admins asking
   * the same question always did: singleFlight); any other waits for the next set, which starts when the running one
   * ends and covers every range asked for meanwhile, so that it answers each of them. An event thus has at most one
   * set of statements running (and one waiting) whatever the ranges its admins look at; every answer still comes from
   * statements that started no earlier than the one before it ended, and nothing is kept once it is given.
   */
  function sharedEventParts(eventId: string, from: string, to: string): Promise<EventParts> {
    const lane = lanes.get(eventId);
    if (!lane) return startLane(eventId, from, to);
    if (lane.running.from <= from && to <= lane.running.to) return lane.running.result;
    const next = lane.next;
    if (next) {
      const wider = { from: from < next.from ? from : next.from, to: to > next.to ? to : next.to };
      // A union longer than a request may ask for is not worth one scan: this one goes alone.
      if (daysBetween(wider.from, wider.to) >= DASHBOARD_MAX_DAYS) return eventParts({ timeZone, from, to, eventId });
      next.from = wider.from;
      next.to = wider.to;
      return next.result;
    }
    let settle: { resolve: (parts: EventParts) => void; reject: (error: unknown) => void } | undefined;
    const result = new Promise<EventParts>((resolve, reject) => {
      settle = { resolve, reject };
    });
    lane.next = { from, to, result, ...(settle as NonNullable<typeof settle>) };
    return result;
  }

  function startLane(eventId: string, from: string, to: string): Promise<EventParts> {
    const result = eventParts({ timeZone, from, to, eventId });
    const running = { from, to, result };
    lanes.set(eventId, { running });
    const done = () => {
      const lane = lanes.get(eventId);
      if (lane?.running !== running) return;
      lanes.delete(eventId);
      const next = lane.next;
      if (next) startLane(eventId, next.from, next.to).then(next.resolve, next.reject);
    };
    result.then(done, done);
    return result;
  }

  async function dashboard(query: DashboardQuery): Promise<Dashboard> {
    const range = await rangeOf(query);
    if (range.eventId) {
      // A one-day range adds its hours, read for that day alone; its days are shared as any range's.
      const [parts, hours] = await Promise.all([
        sharedEventParts(range.eventId, range.from, range.to),
        range.from === range.to ? sharedHours(`${range.from}|${range.eventId}`, () => salesByHour(db, range)) : [],
      ]);
      return eventDashboard(parts, range.from, range.to, hours);
    }
    return shared(`${range.from}|${range.to}`, () => build(range));
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

  /**
   * The closing step (decision 025): keeps the sums of the days that are over and that no running transaction began
   * in, up to `through` when given (tests close days at chosen points). Idempotent; a run cut off closes nothing.
   */
  function closeDays(through: string | null = null): Promise<string | null> {
    return closeDashboardDays(db, timeZone, through);
  }

  return { dashboard, ordersCsv, rangeOf, closeDays };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
