import { type ReactNode, Suspense, useMemo } from 'react';
import type { AwaitingPayment, Ticket } from '../../../../../contracts/bookings';
import type { MyTicket } from '../../../../../contracts/tickets';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { lazyChunk } from '../../../lib/chunk';
import { useI18n } from '../../../lib/i18n';
import { DEFAULT_TIME_ZONE } from '../../../lib/wall-clock';
import { useMyBookings } from '../api/get-my-bookings';
import { useMyTickets } from '../api/get-my-tickets';
import { AwaitingPaymentCard } from '../components/awaiting-payment-card';
import { BookingTickets } from '../components/booking-tickets';
import { CancelBooking } from '../components/cancel-booking';
import { TicketCard } from '../components/ticket-card';

/**
 * Your waitlists, in a chunk of its own: few users have one, and its code is shared with the event page's waitlist,
 * whose chunk list would otherwise be carried by every page's first load (the router's map of page chunks).
 */
const WaitlistSection = lazyChunk(
  () => import('../components/waitlist-section'),
  (m) => m.WaitlistSection,
);

function Section({
  id,
  title,
  tickets,
  awaiting = [],
  empty,
  emptyAction,
  past,
  seats,
  timeZone,
}: {
  /** Names its heading's id ('your-tickets' → 'your-tickets-heading'). */
  id: string;
  title: string;
  tickets: Ticket[] | undefined;
  /** Bookings waiting for their kiosk cash, listed first (they are not tickets yet). */
  awaiting?: AwaitingPayment[];
  empty: string;
  /** Shown under the empty text, inside the card. */
  emptyAction?: ReactNode;
  past?: boolean;
  /** Each booking's tickets (QR codes) by booking id, shown under its card; undefined while they load. */
  seats?: Map<string, MyTicket[]> | undefined | 'none';
  /** The app's time zone, for the tickets' check-in times and the cash deadlines. */
  timeZone?: string;
}) {
  const headingId = `${id}-heading`;
  const awaitingList =
    tickets === undefined || awaiting.length === 0 ? null : (
      <ul className="grid grid-cols-1 gap-4">
        {awaiting.map((booking) => (
          <li key={booking.bookingId} className="min-w-0">
            <AwaitingPaymentCard booking={booking} timeZone={timeZone ?? DEFAULT_TIME_ZONE} />
          </li>
        ))}
      </ul>
    );
  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6" aria-labelledby={headingId} role="region">
      {/* Focusable by script: a booking cancelled whole leaves the list, and the focus comes back here. */}
      <h2 id={headingId} tabIndex={-1} className="text-xl font-bold focus:outline-none">
        {title}
      </h2>
      {tickets === undefined ? (
        <div className="grid gap-4 md:grid-cols-2">
          <Skeleton className="h-32" />
          <Skeleton className="h-32" />
        </div>
      ) : tickets.length === 0 && awaitingList ? (
        awaitingList
      ) : tickets.length === 0 ? (
        <div className="flex flex-col items-start gap-4">
          <p className="text-fg-muted">{empty}</p>
          {emptyAction}
        </div>
      ) : (
        <>
          {awaitingList}
          {/* One column of minmax(0, 1fr): a long title is cut short inside its card instead of widening the page. */}
          <ul className={`grid grid-cols-1 gap-4 ${seats === 'none' ? 'md:grid-cols-2' : ''}`}>
            {tickets.map((ticket) => (
              <li key={ticket.id} className="min-w-0">
                <TicketCard ticket={ticket} past={past}>
                  {past ? null : (
                    <CancelBooking ticket={ticket} timeZone={timeZone ?? DEFAULT_TIME_ZONE} headingId={headingId} />
                  )}
                  {seats === 'none' ? null : (
                    <BookingTickets
                      booking={ticket}
                      tickets={seats?.get(ticket.id) ?? (seats ? [] : undefined)}
                      timeZone={timeZone}
                    />
                  )}
                </TicketCard>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

/**
 * Your bookings: 'Your Tickets' (paid, active events, after the bookings still waiting for their kiosk cash), 'Your
 * waitlists' (sold-out events waited for, and tickets offered from them) and 'Your History' (deleted or past events).
 */
export function ProfileRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('bookings.yourBookings'));
  const { data, isError, refetch, isFetching } = useMyBookings();
  const seats = useMyTickets();
  const byBooking = useMemo(() => {
    if (!seats.data) return undefined;
    const map = new Map<string, MyTicket[]>();
    for (const seat of seats.data.items) map.set(seat.bookingId, [...(map.get(seat.bookingId) ?? []), seat]);
    return map;
  }, [seats.data]);
  if (isError) {
    return (
      <PageContainer>
        <LoadError
          onRetry={() => void refetch()}
          retrying={isFetching}
          back={{ to: '/events-page/all', label: t('payment.browseEvents') }}
        />
      </PageContainer>
    );
  }
  return (
    <PageContainer className="flex flex-col gap-6">
      <h1 className="sr-only">{t('bookings.yourBookings')}</h1>
      {seats.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border border-border p-4">
          <p>{t('tickets.loadFailed')}</p>
          <Button variant="secondary" size="sm" onClick={() => void seats.refetch()} disabled={seats.isFetching}>
            {t('tickets.retry')}
          </Button>
        </div>
      ) : null}
      <Section
        id="your-tickets"
        title={t('bookings.yourTickets')}
        tickets={data?.tickets}
        awaiting={data?.awaiting}
        seats={seats.isError ? 'none' : byBooking}
        timeZone={seats.data?.timeZone}
        empty={t('bookings.noTicketsYet')}
        emptyAction={
          <ButtonLink to="/events-page/all" variant="secondary">
            {t('payment.browseEvents')}
          </ButtonLink>
        }
      />
      <Suspense fallback={null}>
        <WaitlistSection timeZone={seats.data?.timeZone ?? DEFAULT_TIME_ZONE} fallbackFocusId="your-tickets-heading" />
      </Suspense>
      <Section
        id="your-history"
        title={t('bookings.yourHistory')}
        tickets={data?.history}
        seats="none"
        empty={t('bookings.noPastTickets')}
        past
      />
    </PageContainer>
  );
}
