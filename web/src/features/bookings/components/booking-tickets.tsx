import type { Ticket } from '../../../../../contracts/bookings';
import { bookingTicketsPdfPath, eventCalendarPath, googleCalendarUrl } from '../../../../../contracts/calendar';
import { instantIn } from '../../../../../contracts/i18n/instant';
import { formatShortCode, type MyTicket } from '../../../../../contracts/tickets';
import { buttonClasses } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { TimeRange } from '../../../components/ui/time';
import { useI18n } from '../../../lib/i18n';
import { TicketQr } from './ticket-qr';

/**
 * One seat: its number, when, its QR and short code, and what happened to it (checked in, void). The event's
 * title is the card's, just above. A check-in time is told in the app's time zone (`timeZone`), or the
 * device's when the answer has none.
 */
function SeatTicket({
  booking,
  ticket,
  timeZone,
}: {
  booking: Ticket;
  ticket: MyTicket;
  timeZone: string | undefined;
}) {
  const { t, date, weekday, lang } = useI18n();
  const numbers = { number: ticket.number, of: ticket.of };
  const label = t('tickets.ticketOf', numbers);
  return (
    // White in every theme: the QR and the code under it are read by scanners and door staff.
    <article
      aria-label={label}
      className="flex w-64 shrink-0 snap-start flex-col items-center gap-2 rounded-xl border border-slate-200 bg-white p-2 text-slate-900 sm:w-[18.5rem] sm:p-4"
    >
      <h4 className="text-base font-bold">{label}</h4>
      <p className="text-center text-xs text-slate-600">
        {t('catalogue.weekdayDate', { weekday: weekday(booking.eventDate), date: date(booking.eventDate) })} ·{' '}
        <TimeRange start={booking.startTime} end={booking.endTime} />
      </p>
      {ticket.status === 'void' ? (
        <p className="flex size-60 items-center justify-center rounded-md border border-dashed border-red-300 p-4 text-center text-sm font-semibold text-red-700 sm:size-64">
          {t('tickets.void')}
        </p>
      ) : (
        <TicketQr text={ticket.qr} label={t('tickets.qrLabel', numbers)} />
      )}
      <p className="text-xs text-slate-600">{t('tickets.shortCodeLabel')}</p>
      <p dir="ltr" className="font-mono text-xl font-bold tracking-widest select-all">
        {formatShortCode(ticket.code)}
      </p>
      {ticket.status === 'checked_in' && ticket.checkedInAt ? (
        <p className="rounded-full bg-emerald-100 px-3 py-1 text-xs font-semibold text-emerald-800">
          {t('tickets.checkedInAt', {
            when: instantIn(lang, ticket.checkedInAt, timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone),
          })}
        </p>
      ) : null}
    </article>
  );
}

/**
 * A paid booking's tickets under its card: one after another in a row that a phone swipes through (and a
 * keyboard scrolls: the row takes focus), then 'Add to calendar' and 'Download PDF' (in the page's language).
 */
export function BookingTickets({
  booking,
  tickets,
  timeZone,
}: {
  booking: Ticket;
  tickets: MyTicket[] | undefined;
  /** The app's time zone, from GET /api/me/tickets. */
  timeZone?: string;
}) {
  const { t } = useI18n();
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const google = googleCalendarUrl({
    title: booking.title,
    start: new Date(booking.startsAt),
    end: new Date(booking.endsAt),
    details: `${origin}/event-details/${booking.eventId}`,
    location: booking.location,
  });
  return (
    <div className="flex flex-col gap-3 border-t border-border pt-3 pb-1 sm:px-3">
      {tickets === undefined ? (
        <div className="flex gap-4" aria-busy="true">
          <span className="sr-only">{t('tickets.loading')}</span>
          <Skeleton className="h-96 w-64 shrink-0 sm:w-[18.5rem]" />
        </div>
      ) : tickets.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('tickets.none')}</p>
      ) : (
        <ul
          aria-label={t('tickets.listLabel', { title: booking.title })}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a row that scrolls must take focus for the keyboard to scroll it
          tabIndex={0}
          className="-mx-1 flex snap-x snap-mandatory gap-4 overflow-x-auto px-1 pb-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          {tickets.map((ticket) => (
            <li key={ticket.id} className="flex">
              <SeatTicket booking={booking} ticket={ticket} timeZone={timeZone} />
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-semibold">{t('tickets.addToCalendar')}:</span>
        <a href={eventCalendarPath(booking.eventId)} download className={buttonClasses('secondary', 'sm')}>
          {t('tickets.calendarFile')}
        </a>
        <a href={google} target="_blank" rel="noopener noreferrer" className={buttonClasses('secondary', 'sm')}>
          {t('tickets.googleCalendar')}
        </a>
        <a href={bookingTicketsPdfPath(booking.id)} download className={buttonClasses('primary', 'sm', 'sm:ms-auto')}>
          {t('tickets.downloadPdf')}
        </a>
      </div>
    </div>
  );
}
