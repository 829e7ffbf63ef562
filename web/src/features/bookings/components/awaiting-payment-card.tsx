import { useId } from 'react';
import type { AwaitingPayment } from '../../../../../contracts/bookings';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TimeRange } from '../../../components/ui/time';
import { useI18n } from '../../../lib/i18n';
import { withElements } from '../../../lib/rich-text';
import { deadlineParams } from '../../../lib/wall-clock';

/**
 * A booking waiting for its kiosk cash, at the top of Your Tickets: marked 'Awaiting payment', with its event, the
 * reference to pay against, what and by when, and the way back to its payment page (the full instructions, or
 * another way to pay). It becomes a ticket once the money comes.
 */
export function AwaitingPaymentCard({ booking, timeZone }: { booking: AwaitingPayment; timeZone: string }) {
  const i18n = useI18n();
  const { t, date, weekday, price } = i18n;
  const titleId = useId();
  const details = t('payment.awaitingPaymentReference', {
    total: price(booking.totalPiasters),
    ...deadlineParams(i18n, booking.expiresAt, timeZone),
  });
  return (
    <Card className="flex flex-col gap-3 border-amber-400/40 p-4 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
      <div className="flex min-w-0 flex-col gap-1">
        <h3 id={titleId} className="line-clamp-2 text-lg font-semibold break-words">
          <bdi>{booking.title}</bdi>
        </h3>
        {/* Read after the title, shown above it. */}
        <span className="order-first mb-1 inline-flex w-fit items-center gap-2 rounded-full bg-amber-400/15 px-3 py-1 text-xs font-semibold text-amber-300">
          <span aria-hidden="true" className="size-2 rounded-full bg-amber-300" />
          {t('payment.awaitingPayment')}
        </span>
        <p className="text-sm text-fg-muted">
          {t('catalogue.weekdayDate', { weekday: weekday(booking.eventDate), date: date(booking.eventDate) })} ·{' '}
          <span className="whitespace-nowrap">
            <TimeRange start={booking.startTime} end={booking.endTime} />
          </span>
        </p>
        <p className="text-sm font-semibold">{t('bookings.ticketCount', { count: booking.quantity })}</p>
        <p className="text-sm">
          {withElements(details, {
            reference: (
              <bdi dir="ltr" className="font-mono font-semibold tracking-wider">
                {booking.cashReference}
              </bdi>
            ),
          })}
        </p>
      </div>
      <ButtonLink
        to={`/payment?booking=${booking.bookingId}`}
        variant="secondary"
        aria-describedby={titleId}
        className="shrink-0 self-start sm:self-center"
      >
        {t('payment.viewPaymentDetails')}
      </ButtonLink>
    </Card>
  );
}
