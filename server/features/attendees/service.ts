import {
  ATTENDEES_CSV_COLUMNS,
  ATTENDEES_PAGE_SIZE,
  type Attendee,
  type AttendeesPage,
  type AttendeesQuery,
  attendeeStatusLabel,
} from '../../../contracts/attendees';
import { checkedRange, type DashboardQuery } from '../../../contracts/dashboard';
import { todayIn } from '../../../contracts/dates';
import type { I18n } from '../../../contracts/i18n/i18n';
import { isUuid } from '../../../contracts/ids';
import { formatShortCode, normalizeShortCode, TICKET_CODE_ALPHABET } from '../../../contracts/tickets';
import { wallClockIn } from '../../../contracts/wall-clock';
import type { Queryable } from '../../db/client';
import { toCsv, UTF8_BOM } from '../../domain/csv';
import { NotFoundError, ValidationError } from '../../plugins/errors';
import {
  type AttendeeEventRow,
  type AttendeeRow,
  type AttendeeSearch,
  countAttendees,
  findActiveEvent,
  listAttendees,
  listAttendeesPaidIn,
} from './repository';

export interface AttendeesDeps {
  db: Queryable;
  timeZone: string;
  /** Each booking's last failed refund (the booking module's): booking id → the provider's words. */
  refundFailures: (eventId: string) => Promise<Map<string, string>>;
}

const CODE_PART = new RegExp(`^[${TICKET_CODE_ALPHABET}]+$`);

/** What a typed search looks for: the text in names and emails, and the start of a code as it would be typed. */
function searchOf(q: string): AttendeeSearch | null {
  if (q === '') return null;
  const code = normalizeShortCode(q);
  return { text: q, codePrefix: CODE_PART.test(code) ? code : null };
}

function toAttendee(row: AttendeeRow, failures: Map<string, string> = new Map()): Attendee {
  return {
    ticketId: row.ticketId,
    bookingId: row.bookingId,
    number: row.number,
    of: row.of,
    code: row.code,
    name: row.name,
    email: row.email,
    status: row.voidedAt ? 'void' : row.checkedInAt ? 'checked_in' : 'valid',
    boughtAt: row.boughtAt?.toISOString() ?? null,
    checkedInAt: row.checkedInAt?.toISOString() ?? null,
    checkedInBy: row.checkedInAt ? row.checkedInBy : null,
    admittedTwice: row.extraAdmissions > 0,
    refundable: row.refundable,
    refundPiasters: row.refundPiasters,
    refundFailure: failures.get(row.bookingId) ?? null,
  };
}

/** '2026-11-27 19:42' in the zone: what a spreadsheet sorts and reads as a date and time. */
function localTimeFormat(timeZone: string) {
  return (iso: string | null): string => {
    if (!iso) return '';
    const { date, time } = wallClockIn(iso, timeZone);
    return `${date} ${time}`;
  };
}

/** 'attendees-2026-12-24-cairo-jazz-night.csv': ASCII only, so that every browser keeps the name. */
function csvFileName(event: AttendeeEventRow): string {
  const slug = event.title
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60)
    .replace(/-+$/, '');
  return `attendees-${event.eventDate}${slug ? `-${slug}` : ''}.csv`;
}

/** The organiser's attendees list and its CSV. */
export function createAttendeesService({ db, timeZone, refundFailures }: AttendeesDeps) {
  async function eventOf(id: string): Promise<AttendeeEventRow> {
    const event = isUuid(id) ? await findActiveEvent(db, id) : undefined;
    if (!event) throw new NotFoundError('attendees.eventNotFound', 'EVENT_NOT_FOUND');
    return event;
  }

  async function list(eventId: string, query: AttendeesQuery): Promise<AttendeesPage> {
    const event = await eventOf(eventId);
    const search = searchOf(query.q);
    const { matching, ...counts } = await countAttendees(db, eventId, search);
    const pageCount = Math.ceil(matching / ATTENDEES_PAGE_SIZE);
    // A page past the last (the list shrank, or a hand-typed URL) answers the last one.
    const page = Math.max(1, Math.min(query.page, pageCount));
    const rows = await listAttendees(db, eventId, search, {
      limit: ATTENDEES_PAGE_SIZE,
      offset: (page - 1) * ATTENDEES_PAGE_SIZE,
    });
    const failures = await refundFailures(eventId);
    return {
      event,
      timeZone,
      counts,
      items: rows.map((row) => toAttendee(row, failures)),
      page,
      pageCount,
      total: matching,
    };
  }

  /** The CSV's header row and one row per ticket, in `i18n`'s language; times stay sortable in every language. */
  function csvRows(attendees: Attendee[], i18n: I18n): string[][] {
    const { t } = i18n;
    const local = localTimeFormat(timeZone);
    const zone = ` (${timeZone})`;
    const header = ATTENDEES_CSV_COLUMNS.map((column) =>
      column === 'attendees.columns.boughtAt' || column === 'attendees.columns.checkedInAt'
        ? `${t(column)}${zone}`
        : t(column),
    );
    return [
      header,
      ...attendees.map((a) => [
        a.name,
        a.email,
        formatShortCode(a.code),
        t('attendees.numberOf', { number: a.number, of: a.of }),
        t(attendeeStatusLabel(a.status)),
        local(a.boughtAt),
        local(a.checkedInAt),
        a.checkedInBy ?? '',
        a.admittedTwice ? t('attendees.yes') : '',
      ]),
    ];
  }

  /** The event's every ticket as CSV. */
  async function csv(eventId: string, i18n: I18n): Promise<{ fileName: string; body: string }> {
    const event = await eventOf(eventId);
    const rows = (await listAttendees(db, eventId, null, null)).map((row) => toAttendee(row));
    return { fileName: csvFileName(event), body: `${UTF8_BOM}${toCsv(csvRows(rows, i18n))}` };
  }

  /**
   * The tickets of the orders the dashboard sums for the same query (bookings paid in the range; one event or every
   * one) as CSV, each row starting with its event's title and date.
   */
  async function rangeCsv(query: DashboardQuery, i18n: I18n): Promise<{ fileName: string; body: string }> {
    const range = checkedRange(query, todayIn(timeZone));
    if ('error' in range) throw new ValidationError({ from: range.error });
    const eventId = query.eventId ? (await eventOf(query.eventId)).id : null;
    const rows = await listAttendeesPaidIn(db, { timeZone, ...range, eventId });
    const [header = [], ...lines] = csvRows(
      rows.map((row) => toAttendee(row)),
      i18n,
    );
    const body = toCsv([
      [i18n.t('dashboard.attendeeColumns.event'), i18n.t('dashboard.attendeeColumns.eventDate'), ...header],
      ...lines.map((line, index) => [rows[index]?.title ?? '', rows[index]?.eventDate ?? '', ...line]),
    ]);
    return { fileName: `attendees-${range.from}-to-${range.to}.csv`, body: `${UTF8_BOM}${body}` };
  }

  return { list, csv, rangeCsv };
}

export type AttendeesService = ReturnType<typeof createAttendeesService>;
