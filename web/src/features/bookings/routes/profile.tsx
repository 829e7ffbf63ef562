import type { ReactNode } from 'react';
import type { Ticket } from '../../../../../contracts/bookings';
import { bookingsMessages } from '../../../../../contracts/messages/bookings';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { useMyBookings } from '../api/get-my-bookings';
import { TicketCard } from '../components/ticket-card';

function Section({
  title,
  tickets,
  empty,
  emptyAction,
  past,
}: {
  title: string;
  tickets: Ticket[] | undefined;
  empty: string;
  /** Shown under the empty text, inside the card. */
  emptyAction?: ReactNode;
  past?: boolean;
}) {
  const headingId = `${title.replace(/\s+/g, '-').toLowerCase()}-heading`;
  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6" aria-labelledby={headingId} role="region">
      <h2 id={headingId} className="text-xl font-bold">
        {title}
      </h2>
      {tickets === undefined ? (
        <div className="grid gap-4 md:grid-cols-2">
          <Skeleton className="h-32" />
          <Skeleton className="h-32" />
        </div>
      ) : tickets.length === 0 ? (
        <div className="flex flex-col items-start gap-4">
          <p className="text-fg-muted">{empty}</p>
          {emptyAction}
        </div>
      ) : (
        // One column of minmax(0, 1fr): a long title is cut short inside its card instead of widening the page.
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
          {tickets.map((ticket) => (
            <li key={ticket.id} className="min-w-0">
              <TicketCard ticket={ticket} past={past} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** Your bookings: 'Your Tickets' (paid, active events) and 'Your History' (deleted or past events). */
export function ProfileRoute() {
  useDocumentMeta(bookingsMessages.yourBookings);
  const { data, isError, refetch, isFetching } = useMyBookings();
  if (isError) {
    return (
      <PageContainer>
        <LoadError
          onRetry={() => void refetch()}
          retrying={isFetching}
          back={{ to: '/events-page/all', label: 'Browse events' }}
        />
      </PageContainer>
    );
  }
  return (
    <PageContainer className="flex flex-col gap-6">
      <h1 className="sr-only">{bookingsMessages.yourBookings}</h1>
      <Section
        title={bookingsMessages.yourTickets}
        tickets={data?.tickets}
        empty="No tickets yet."
        emptyAction={
          <ButtonLink to="/events-page/all" variant="secondary">
            Browse events
          </ButtonLink>
        }
      />
      <Section title={bookingsMessages.yourHistory} tickets={data?.history} empty="No past tickets." past />
    </PageContainer>
  );
}
