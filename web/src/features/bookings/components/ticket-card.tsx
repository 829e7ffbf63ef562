import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Ticket } from '../../../../../contracts/bookings';
import { responsiveImage, THUMBNAIL_SIZES } from '../../../../../contracts/images';
import { Card } from '../../../components/ui/card';
import { TimeRange } from '../../../components/ui/time';
import { useI18n } from '../../../lib/i18n';

/**
 * One paid booking on the profile: image, title, weekday and date, times, quantity and total, and the money
 * given back for it if any ('Refunded 150 EGP'). The title of an event still on sale links to its page; one in
 * Your History has no page to go to, and says why it is there (the organiser removed or cancelled the event, it
 * is over, its ticket sales have ended, or it was refunded). `children` go under it, inside the card (in Your
 * Tickets: until when it can be cancelled, and the booking's tickets).
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
  const { t, date, weekday, price } = useI18n();
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
              <bdi>{ticket.title}</bdi>
            ) : (
              <Link
                to={`/event-details/${ticket.eventId}`}
                dir="auto"
                className="rounded-sm hover:text-accent hover:underline"
              >
                {ticket.title}
              </Link>
            )}
          </h3>
          {ticket.historyReason ? (
            <p className="text-xs font-semibold tracking-wide text-fg-muted uppercase">
              {t(`bookings.historyReasons.${ticket.historyReason}`, { amount: price(ticket.refundedPiasters) })}
            </p>
          ) : null}
          <p className="text-sm text-fg-muted">
            {t('catalogue.weekdayDate', { weekday: weekday(ticket.eventDate), date: date(ticket.eventDate) })}
          </p>
          <p className="text-sm text-fg-muted">
            <TimeRange start={ticket.startTime} end={ticket.endTime} />
          </p>
          <p className="mt-auto text-sm">
            <span className="font-semibold">{t('bookings.ticketCount', { count: ticket.quantity })}</span>
            <span className="text-fg-muted"> · </span>
            <span className="font-semibold text-accent">{price(ticket.totalPiasters)}</span>
          </p>
          {/* A refunded booking's reason already says how much came back. */}
          {ticket.refundedPiasters > 0 && ticket.historyReason !== 'refunded' ? (
            <p className="text-sm font-medium text-fg-muted">
              {t('bookings.refundedAmount', { amount: price(ticket.refundedPiasters) })}
            </p>
          ) : null}
        </div>
      </div>
      {children}
    </Card>
  );
}
