import type { Ticket } from '../../../../../contracts/bookings';
import { bookingTicketsPdfPath, eventCalendarPath, googleCalendarUrl } from '../../../../../contracts/calendar';
import { formatDate } from '../../../../../contracts/dates';
import { ticketsMessages as m } from '../../../../../contracts/messages/tickets';
import { formatShortCode, type MyTicket } from '../../../../../contracts/tickets';
import { buttonClasses } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { TimeRange } from '../../../components/ui/time';
import { TicketQr } from './ticket-qr';

const checkedInFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * One seat: its number, when, its QR and short code, and what happened to it (checked in, void). The event's
 * title is the card's, just above.
 */
function SeatTicket({ booking, ticket }: { booking: Ticket; ticket: MyTicket }) {
  const label = m.ticketOf(ticket.number, ticket.of);
  return (
    // White in every theme: the QR and the code under it are read by scanners and door staff.
    <article
      aria-label={label}
      className="flex w-64 shrink-0 snap-start flex-col items-center gap-2 rounded-xl border border-slate-200 bg-white p-2 text-slate-900 sm:w-[18.5rem] sm:p-4"
    >
      <h4 className="text-base font-bold">{label}</h4>
      <p className="text-center text-xs text-slate-600">
        {booking.weekday}, {formatDate(booking.eventDate)} ·{' '}
        <TimeRange start={booking.startTime} end={booking.endTime} />
      </p>
      {ticket.status === 'void' ? (
        <p className="flex size-60 items-center justify-center rounded-md border border-dashed border-red-300 p-4 text-center text-sm font-semibold text-red-700 sm:size-64">
          {m.void}
        </p>
      ) : (
        <TicketQr text={ticket.qr} label={m.qrLabel(ticket.number, ticket.of)} />
      )}
      <p className="text-xs text-slate-600">{m.shortCodeLabel}</p>
      <p dir="ltr" className="font-mono text-xl font-bold tracking-widest select-all">
        {formatShortCode(ticket.code)}
      </p>
      {ticket.status === 'checked_in' && ticket.checkedInAt ? (
        <p className="rounded-full bg-emerald-100 px-3 py-1 text-xs font-semibold text-emerald-800">
          {m.checkedInAt(checkedInFormat.format(new Date(ticket.checkedInAt)))}
        </p>
      ) : null}
    </article>
  );
}

/**
 * A paid booking's tickets under its card: one after another in a row that a phone swipes through (and a
 * keyboard scrolls: the row takes focus), then 'Add to calendar' and 'Download PDF'.
 */
export function BookingTickets({ booking, tickets }: { booking: Ticket; tickets: MyTicket[] | undefined }) {
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
          <span className="sr-only">{m.loading}</span>
          <Skeleton className="h-96 w-64 shrink-0 sm:w-[18.5rem]" />
        </div>
      ) : tickets.length === 0 ? (
        <p className="text-sm text-fg-muted">{m.none}</p>
      ) : (
        <ul
          aria-label={m.listLabel(booking.title)}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a row that scrolls must take focus for the keyboard to scroll it
          tabIndex={0}
          className="-mx-1 flex snap-x snap-mandatory gap-4 overflow-x-auto px-1 pb-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          {tickets.map((ticket) => (
            <li key={ticket.id} className="flex">
              <SeatTicket booking={booking} ticket={ticket} />
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-semibold">{m.addToCalendar}:</span>
        <a href={eventCalendarPath(booking.eventId)} download className={buttonClasses('secondary', 'sm')}>
          {m.calendarFile}
        </a>
        <a href={google} target="_blank" rel="noopener noreferrer" className={buttonClasses('secondary', 'sm')}>
          {m.googleCalendar}
        </a>
        <a href={bookingTicketsPdfPath(booking.id)} download className={buttonClasses('primary', 'sm', 'sm:ml-auto')}>
          {m.downloadPdf}
        </a>
      </div>
    </div>
  );
}
