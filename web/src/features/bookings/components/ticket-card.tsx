import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Ticket } from '../../../../../contracts/bookings';
import { formatDate, formatPiasters } from '../../../../../contracts/dates';
import { responsiveImage, THUMBNAIL_SIZES } from '../../../../../contracts/images';
import { bookingsMessages } from '../../../../../contracts/messages/bookings';
import { Card } from '../../../components/ui/card';
import { TimeRange } from '../../../components/ui/time';

/**
 * One paid booking on the profile: image, title, weekday and date, times, quantity and total. The title of
 * an event still on sale links to its page; one in Your History has no page to go to, and says why it is
 * there (the organiser removed the event, it is over, or its ticket sales have ended). `children` go under
 * it, inside the card (the booking's tickets, in Your Tickets).
 */
export function TicketCard({
  ticket,
  past = false,
  children,
}: {
  ticket: Ticket;
  past?: boolean;
  children?: ReactNode;
}) {
  return (
    <Card className={`flex flex-col gap-3 overflow-hidden p-3 ${past ? 'opacity-80' : ''}`}>
      <div className="flex gap-4">
        <img
          {...responsiveImage(ticket.imageUrl, THUMBNAIL_SIZES)}
          alt=""
          width={160}
          height={120}
          loading="lazy"
          className="aspect-[4/3] w-28 shrink-0 rounded-xl object-cover sm:w-36"
        />
        <div className="flex min-w-0 flex-col gap-1 py-1">
          <h3 className="line-clamp-2 text-lg font-semibold break-words">
            {past ? (
              ticket.title
            ) : (
              <Link to={`/event-details/${ticket.eventId}`} className="rounded-sm hover:text-accent hover:underline">
                {ticket.title}
              </Link>
            )}
          </h3>
          {ticket.historyReason ? (
            <p className="text-xs font-semibold tracking-wide text-fg-muted uppercase">
              {bookingsMessages.historyReasons[ticket.historyReason]}
            </p>
          ) : null}
          <p className="text-sm text-fg-muted">
            {ticket.weekday}, {formatDate(ticket.eventDate)}
          </p>
          <p className="text-sm text-fg-muted">
            <TimeRange start={ticket.startTime} end={ticket.endTime} />
          </p>
          <p className="mt-auto text-sm">
            <span className="font-semibold">
              {ticket.quantity} {ticket.quantity === 1 ? 'ticket' : 'tickets'}
            </span>
            <span className="text-fg-muted"> · </span>
            <span className="font-semibold text-accent">{formatPiasters(ticket.totalPiasters)} EGP</span>
          </p>
        </div>
      </div>
      {children}
    </Card>
  );
}
