import { useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { MAX_TICKETS_PER_BOOKING } from '../../../../../contracts/constants';
import type { I18n } from '../../../../../contracts/i18n/i18n';
import { isUuid } from '../../../../../contracts/ids';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Notice } from '../../../components/ui/notice';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { TimeRange } from '../../../components/ui/time';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { refundPolicyText } from '../../../lib/refund-policy';
import { serverNow } from '../../../lib/server-clock';
import { useLiveEvents } from '../../catalogue/api/use-live-events';
import { useCreateBooking } from '../api/create-booking';
import { useMyHold } from '../api/get-my-hold';
import { usePaymentConfig } from '../api/get-payment-config';
import { useTicketEvent } from '../api/get-ticket-event';
import { QuantityStepper } from '../components/quantity-stepper';
import { choiceLabelKey } from '../lib/payment-choices';
import { ticketsLeftFor } from '../lib/tickets-left';

/**
 * Why a reservation was refused, in the page's language: the count's refusals from their codes (as the
 * availability line says them), anything else as the server said it.
 */
function refusalText(err: unknown, { t }: I18n): string {
  if (!(err instanceof ApiError)) return t('common.somethingWentWrong');
  if (err.code === 'EVENT_SOLD_OUT') return t('payment.soldOut');
  const { available } = err.body;
  if (err.code === 'NOT_ENOUGH_TICKETS' && typeof available === 'number') {
    return t('payment.notEnoughTickets', { available });
  }
  return err.message;
}

/**
 * Ticket selection: choose 1 to 10 tickets (never more than are left), then reserve and pay. The
 * tickets the buyer already holds on the event count as left for them: reserving again replaces that hold.
 * The event's refund policy is said before paying; an event its organiser cancelled sells nothing.
 */
export function GetTicketRoute() {
  const i18n = useI18n();
  const { t, price, date, weekday } = i18n;
  const { id = '' } = useParams();
  const valid = isUuid(id);
  const navigate = useNavigate();
  const eventQuery = useTicketEvent(valid ? id : '');
  const { data: event, error, refetch, isFetching } = eventQuery;
  const holdQuery = useMyHold(valid ? id : '');
  // Others book meanwhile: the tickets left follow them (the same live stream as the event's page).
  useLiveEvents();
  // The buyer may have reserved in another tab meanwhile: the count fell by their own hold, which this page
  // would otherwise not know of and call the last tickets gone. Asked again when the count changes while it is
  // low enough for the hold to decide what can be chosen (not on every sale of a busy on-sale).
  const ticketsAvailable = eventQuery.data?.ticketsAvailable;
  const refetchHold = holdQuery.refetch;
  const countSeen = useRef(ticketsAvailable);
  useEffect(() => {
    const before = countSeen.current;
    countSeen.current = ticketsAvailable;
    if (before === undefined || ticketsAvailable === undefined || before === ticketsAvailable) return;
    if (ticketsAvailable <= MAX_TICKETS_PER_BOOKING) void refetchHold();
  }, [ticketsAvailable, refetchHold]);
  const { data: config, isError: configFailed } = usePaymentConfig();
  // null until the buyer changes it: the quantity starts at the tickets they already hold here, if any.
  const [chosen, setQuantity] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const createBooking = useCreateBooking();
  // One key per chosen quantity: a repeated click returns the same reservation instead of a second one.
  const keyRef = useRef<{ quantity: number; key: string } | null>(null);
  useDocumentMeta(event ? t('payment.ticketsFor', { title: event.title }) : t('payment.getATicket'));

  if (!valid || (error instanceof ApiError && error.status === 404)) return <Navigate to="/404" replace />;
  if (error) {
    return (
      <PageContainer>
        <LoadError
          onRetry={() => void refetch()}
          retrying={isFetching}
          back={{ to: `/event-details/${id}`, label: t('payment.backToEvent') }}
        />
      </PageContainer>
    );
  }
  if (!event) {
    return (
      <PageContainer>
        <Skeleton className="mx-auto h-96 w-full max-w-2xl" />
      </PageContainer>
    );
  }

  if (event.cancelledAt) {
    return (
      <PageContainer>
        <Card className="mx-auto flex w-full max-w-2xl flex-col gap-6 p-6 sm:p-8">
          <h1 className="text-2xl font-bold sm:text-3xl">
            <bdi>{event.title}</bdi>
          </h1>
          <Notice title={t('catalogue.eventCancelled')}>
            <p>{t('catalogue.eventCancelledDetail')}</p>
          </Notice>
          <ButtonLink to={`/event-details/${event.id}`} variant="secondary" className="self-start">
            {t('payment.backToEvent')}
          </ButtonLink>
        </Card>
      </PageContainer>
    );
  }

  const { available, held } = ticketsLeftFor(event.ticketsAvailable, holdQuery.data?.hold, {
    countIsFresh: eventQuery.isFetchedAfterMount,
    now: serverNow(),
  });
  // Back from the payment page ('… including the 2 held for you'): choosing again starts from those 2.
  const quantity = chosen ?? Math.max(1, held);
  const total = event.pricePiasters * quantity;
  const tooMany = quantity > MAX_TICKETS_PER_BOOKING || quantity > available;
  const availability =
    available === 0
      ? t('payment.soldOut')
      : quantity > available
        ? t('payment.notEnoughTickets', { available })
        : quantity > MAX_TICKETS_PER_BOOKING
          ? t('payment.atMostAtOnce', { count: MAX_TICKETS_PER_BOOKING })
          : held > 0
            ? t('payment.ticketsLeftWithHold', { count: available, held })
            : t('payment.ticketsLeft', { count: available });
  // Unknown until the configuration arrives: a guess would name the wrong method where Stripe is set up. Where
  // several are offered, the payment page asks. (Should it fail, the payment page sends the user to
  // /payment-failed with the event id.)
  const onlyChoice = config?.choices.length === 1 ? config.choices[0] : undefined;
  const method = config
    ? onlyChoice
      ? t(choiceLabelKey(onlyChoice))
      : config.choices.length > 1
        ? t('payment.methodChosenNext')
        : config.provider === 'stripe'
          ? t('payment.methodStripe')
          : t('payment.methodSimulated')
    : undefined;

  async function proceed() {
    if (!event || tooMany) return;
    setProblem(null);
    if (keyRef.current?.quantity !== quantity) keyRef.current = { quantity, key: crypto.randomUUID() };
    try {
      const booking = await createBooking.mutateAsync({
        body: { eventId: event.id, quantity },
        idempotencyKey: keyRef.current.key,
      });
      navigate(`/payment?booking=${booking.id}`);
    } catch (err) {
      keyRef.current = null;
      setProblem(refusalText(err, i18n));
      if (err instanceof ApiError && err.status === 409) {
        void refetch();
        void holdQuery.refetch();
      }
    }
  }

  return (
    <PageContainer>
      <Card className="mx-auto flex w-full max-w-2xl flex-col gap-6 p-6 sm:p-8">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold sm:text-3xl">
            <bdi>{event.title}</bdi>
          </h1>
          <p className="text-fg-muted">
            <TimeRange start={event.startTime} end={event.endTime} />
          </p>
          <p className="text-fg-muted">
            {t('catalogue.weekdayDate', { weekday: weekday(event.eventDate), date: date(event.eventDate) })}
          </p>
          <p className="text-lg font-semibold text-accent">{price(event.pricePiasters)}</p>
        </div>

        <div className="flex flex-col gap-3 border-t border-border pt-6">
          <h2 className="text-sm font-medium text-fg-muted">{t('payment.tickets')}</h2>
          <QuantityStepper value={quantity} onChange={setQuantity} max={Math.min(MAX_TICKETS_PER_BOOKING, available)} />
          <p className="text-sm text-fg-muted" aria-live="polite">
            {availability}
          </p>
        </div>

        <div className="flex items-center justify-between border-t border-border pt-6">
          <span className="text-sm text-fg-muted">{t('payment.paymentMethod')}</span>
          {method ? (
            <span className="font-semibold">{method}</span>
          ) : configFailed ? (
            <span className="font-semibold text-fg-muted">—</span>
          ) : (
            <Skeleton className="h-6 w-32" />
          )}
        </div>

        <p className="text-sm text-fg-muted" data-testid="refund-policy">
          {refundPolicyText(i18n, event, serverNow())}
        </p>

        <Button size="lg" disabled={tooMany || available === 0 || createBooking.isPending} onClick={proceed}>
          {createBooking.isPending
            ? t('payment.processing')
            : tooMany
              ? // No price for tickets that cannot be bought: the line above the button says why.
                t('payment.proceedWithoutTotal')
              : t('payment.proceedToPay', { price: price(total) })}
        </Button>
        {/* The server's refusal, unless the availability line (updated since) already says the same. */}
        {problem && problem !== availability ? (
          <p role="alert" className="text-sm text-danger">
            {problem}
          </p>
        ) : null}
      </Card>
    </PageContainer>
  );
}
