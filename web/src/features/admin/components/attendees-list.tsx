import { type Attendee, attendeeStatusLabel } from '../../../../../contracts/attendees';
import { instantIn } from '../../../../../contracts/i18n/instant';
import { formatShortCode } from '../../../../../contracts/tickets';
import { cn } from '../../../components/ui/cn';
import { Skeleton } from '../../../components/ui/skeleton';
import { WarningIcon } from '../../../components/ui/warning-icon';
import { useI18n } from '../../../lib/i18n';
import { BookingRefund } from './booking-refund';

const formats = new Map<string, Intl.DateTimeFormat>();

/** The table's columns in order, each with what its heading adds to the shared classes. */
const HEADINGS = [
  ['name', ''],
  ['code', ''],
  ['ticket', 'whitespace-nowrap'],
  ['status', ''],
  ['boughtAt', 'hidden whitespace-nowrap lg:table-cell'],
  ['checkedInAt', 'whitespace-nowrap'],
] as const;

/** 'Nov 27, 7:42 PM' in the app's time zone (not the browser's): the door and the organiser read the same time. */
export function formatInstant(iso: string, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    formats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

const statusStyles: Record<Attendee['status'], string> = {
  valid: 'border-border text-fg-muted',
  checked_in: 'border-accent/40 bg-accent/15 text-accent',
  // Not struck through: a line through short Arabic words makes them hard to read; the word and colour say it.
  void: 'border-red-500/40 bg-red-500/15 text-danger',
};

/** An instant as the organiser reads it, in the app's time zone: English as it always was, Arabic in its own words. */
function useInstant(): (iso: string, timeZone: string) => string {
  const { lang } = useI18n();
  return lang === 'en' ? formatInstant : (iso, timeZone) => instantIn(lang, iso, timeZone);
}

function StatusBadge({ status }: { status: Attendee['status'] }) {
  const { t } = useI18n();
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
        statusStyles[status],
      )}
    >
      {t(attendeeStatusLabel(status))}
    </span>
  );
}

function TwiceFlag() {
  const { t } = useI18n();
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-amber-500/15 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-amber-300">
      <WarningIcon className="size-3.5" />
      {t('attendees.admittedTwice')}
    </span>
  );
}

function Code({ code }: { code: string }) {
  return (
    <span dir="ltr" className="font-mono text-sm tracking-wide whitespace-nowrap">
      {formatShortCode(code)}
    </span>
  );
}

function CheckIn({ attendee, timeZone }: { attendee: Attendee; timeZone: string }) {
  const { t } = useI18n();
  const instant = useInstant();
  if (!attendee.checkedInAt) return <span className="text-fg-muted">{t('attendees.notCheckedIn')}</span>;
  const at = instant(attendee.checkedInAt, timeZone);
  return (
    <span>
      <time dateTime={attendee.checkedInAt} className="whitespace-nowrap">
        {at}
      </time>
      {attendee.checkedInBy ? (
        <span className="text-fg-muted"> {t('attendees.checkedInBy', { name: attendee.checkedInBy })}</span>
      ) : null}
    </span>
  );
}

/** The tickets that are their booking's first on the page: a booking's refund is shown there, once. */
function firstOfBookings(items: Attendee[]): Set<string> {
  const seen = new Set<string>();
  const firsts = new Set<string>();
  for (const item of items) {
    if (seen.has(item.bookingId)) continue;
    seen.add(item.bookingId);
    firsts.add(item.ticketId);
  }
  return firsts;
}

/** Whether a ticket row carries its booking's refund: its first one, when there is a refund or a failure to show. */
function showsRefund(attendee: Attendee, firsts: Set<string>): boolean {
  return firsts.has(attendee.ticketId) && (attendee.refundable || attendee.refundFailure !== null);
}

/**
 * The tickets: a table from md up, a card per ticket below (a phone at the door). Only one of the two is
 * displayed; the other is display:none and so hidden from screen readers too. A booking's refund (and why the
 * last one failed) is on its first ticket.
 */
export function AttendeesList({ items, timeZone }: { items: Attendee[]; timeZone: string }) {
  const { t } = useI18n();
  const instant = useInstant();
  const firsts = firstOfBookings(items);
  return (
    <>
      <ul className="flex flex-col gap-3 md:hidden" aria-label={t('attendees.title')}>
        {items.map((a) => (
          <li key={a.ticketId} className="rounded-xl border border-border bg-surface-raised p-4">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="break-words font-semibold">
                  <bdi>{a.name}</bdi>
                </p>
                <p className="break-all text-sm text-fg-muted">
                  <bdi dir="ltr">{a.email}</bdi>
                </p>
              </div>
              <StatusBadge status={a.status} />
            </div>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-fg-muted">{t('attendees.columns.code')}</dt>
              <dd>
                <Code code={a.code} />
              </dd>
              <dt className="text-fg-muted">{t('attendees.columns.ticket')}</dt>
              <dd>{t('attendees.ticketOf', { number: a.number, of: a.of })}</dd>
              <dt className="text-fg-muted">{t('attendees.columns.boughtAt')}</dt>
              <dd>{a.boughtAt ? instant(a.boughtAt, timeZone) : '—'}</dd>
              <dt className="text-fg-muted">{t('attendees.columns.checkedInAt')}</dt>
              <dd>
                <CheckIn attendee={a} timeZone={timeZone} />
              </dd>
            </dl>
            {a.admittedTwice ? (
              <div className="mt-3">
                <TwiceFlag />
              </div>
            ) : null}
            {showsRefund(a, firsts) ? (
              <div className="mt-3 border-t border-border pt-3">
                <BookingRefund attendee={a} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>

      <div className="hidden overflow-x-auto rounded-xl border border-border md:block">
        <table className="w-full text-start text-sm">
          <caption className="sr-only">{t('attendees.title')}</caption>
          <thead className="bg-surface-overlay text-fg-muted">
            <tr>
              {HEADINGS.map(([column, extra]) => (
                <th key={column} scope="col" className={`px-3 py-3 text-start font-semibold ${extra}`}>
                  {t(`attendees.columns.${column}`)}
                </th>
              ))}
              <th scope="col" className="px-3 py-3 text-start font-semibold">
                <span className="sr-only">{t('attendees.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((a) => (
              <tr key={a.ticketId} className="border-t border-border align-top hover:bg-surface-raised">
                <th scope="row" className="px-3 py-2.5 text-start font-normal">
                  <span className="block break-words font-medium">
                    <bdi>{a.name}</bdi>
                  </span>
                  <span className="block break-all text-xs text-fg-muted">
                    <bdi dir="ltr">{a.email}</bdi>
                  </span>
                </th>
                <td className="px-3 py-2.5">
                  <Code code={a.code} />
                </td>
                <td className="px-3 py-2.5 whitespace-nowrap">
                  {t('attendees.numberOf', { number: a.number, of: a.of })}
                </td>
                <td className="px-3 py-2.5">
                  <div className="flex flex-col items-start gap-1">
                    <StatusBadge status={a.status} />
                    {a.admittedTwice ? <TwiceFlag /> : null}
                  </div>
                </td>
                <td className="hidden px-3 py-2.5 whitespace-nowrap lg:table-cell">
                  {a.boughtAt ? <time dateTime={a.boughtAt}>{instant(a.boughtAt, timeZone)}</time> : '—'}
                </td>
                <td className="px-3 py-2.5">
                  <CheckIn attendee={a} timeZone={timeZone} />
                </td>
                <td className="max-w-56 px-3 py-2.5">
                  {showsRefund(a, firsts) ? <BookingRefund attendee={a} /> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The page's placeholder: the figures and a few rows, in the places the real ones take. */
export function AttendeesSkeleton() {
  const { t } = useI18n();
  return (
    <div aria-busy="true" className="flex flex-col gap-6">
      <p role="status" className="sr-only">
        {t('attendees.loading')}
      </p>
      <div className="grid grid-cols-3 gap-2 sm:gap-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <Skeleton className="h-11 sm:max-w-sm" />
      <div className="flex flex-col gap-2">
        {Array.from({ length: 6 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have nothing but their position
          <Skeleton key={i} className="h-14" />
        ))}
      </div>
    </div>
  );
}
