import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { Booking, PaymentChoice } from '../../../../../contracts/bookings';
import type { I18n } from '../../../../../contracts/i18n/i18n';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { TimeRange } from '../../../components/ui/time';
import { ApiError } from '../../../lib/api-client';
import { lazyChunk } from '../../../lib/chunk';
import { useI18n } from '../../../lib/i18n';
import { DEFAULT_TIME_ZONE } from '../../../lib/wall-clock';
import { useEvent } from '../../catalogue/api/get-event';
import { useLiveEvents } from '../../catalogue/api/use-live-events';
import { cancelHold } from '../api/cancel-hold';
import { bookingQueryKey, syncBookingPayment, useBooking } from '../api/get-booking';
import { usePaymentConfig } from '../api/get-payment-config';
import { CancelReservation } from '../components/cancel-reservation';
import { CashPayment } from '../components/cash-payment';
import { HoldCountdown } from '../components/hold-countdown';
import { PaymentMethodPicker } from '../components/payment-method-picker';
import { PaymentOutcome } from '../components/payment-outcome';
import { PaymobForm } from '../components/paymob-form';
import { SimulatedCardForm } from '../components/simulated-card-form';
import { defaultChoice } from '../lib/payment-choices';

// Stripe's SDK is loaded only when Stripe is the provider.
const StripePaymentForm = lazyChunk(
  () => import('../components/stripe-payment-form'),
  (m) => m.StripePaymentForm,
);

/**
 * Why a reservation is over, in the page's language: decided by the booking's status and endedReason (and
 * whether its event is gone), never by the words the server stored. Only a payment the provider itself canceled
 * is told in the provider's words. undefined: no reason to give.
 */
function endedMessage(booking: Booking, eventGone: boolean, { t }: I18n): string | undefined {
  const { status, endedReason, failureMessage } = booking;
  if (eventGone && (status === 'pending' || !failureMessage)) return t('payment.eventGone');
  // Not the last card error of the hold: it ran out.
  if (status === 'expired') return t('payment.holdExpired');
  if (endedReason === 'replaced') return t('payment.holdReplaced');
  if (status === 'refunded') {
    if (endedReason === 'cancelled_by_buyer') return t('payment.holdCancelledRefunded');
    if (endedReason === 'event_deleted' || eventGone) return t('payment.eventCancelledRefunded');
    return t('payment.holdExpiredRefunded');
  }
  if (endedReason === 'cancelled_by_buyer') return t('payment.holdCancelled');
  if (endedReason === 'event_deleted') return t('payment.eventGone');
  if (endedReason === 'payment_canceled') return t('payment.paymentCanceled');
  return undefined;
}

/** Payment, for the booking in ?booking=ID (the browser carries the id, never the data). */
export function PaymentRoute() {
  const i18n = useI18n();
  const { t, price, number, date, weekday } = i18n;
  const [params] = useSearchParams();
  const bookingId = params.get('booking') ?? '';
  const navigate = useNavigate();
  const config = usePaymentConfig();
  // Once the countdown ends, the form goes (the server refuses to charge an ended hold) and the booking is
  // asked again until the server says the hold is over too (the two clocks may differ by a moment).
  const [holdOver, setHoldOver] = useState(false);
  // A payment is being sent: the reservation is not cancelled meanwhile.
  const [paying, setPaying] = useState(false);
  // Polled while it waits for kiosk cash too: the page moves on to the success page once the money comes.
  const booking = useBooking(bookingId, { pollWhilePending: holdOver, pollWhileAwaitingCash: true });
  const unknownBooking = booking.error instanceof ApiError && booking.error.status === 404;
  useDocumentMeta(unknownBooking ? t('payment.failureTitle') : t('payment.heading'));
  const refetchBooking = booking.refetch;
  const onExpire = useCallback(() => {
    setHoldOver(true);
    void refetchBooking();
  }, [refetchBooking]);

  // The way to pay shown: the buyer's pick, else the booking's own payment when it is offered, else the first.
  const choices = config.data?.choices ?? [];
  const [picked, setPicked] = useState<PaymentChoice | null>(null);
  const choice = picked ?? (booking.data ? defaultChoice(choices, booking.data.payment) : undefined);
  // The reference has just been given (not found on coming back): the focus goes to it.
  const [cashJustStarted, setCashJustStarted] = useState(false);
  const picker = useRef<HTMLFieldSetElement>(null);
  const [focusPicker, setFocusPicker] = useState(0);
  useEffect(() => {
    if (focusPicker) picker.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
  }, [focusPicker]);

  // Stripe's form needs the booking's PaymentIntent: one its reservation could not start (Stripe did not answer),
  // or one to start again for a buyer back from another provider's payment. Started here, once each time.
  const queryClient = useQueryClient();
  // The last start came back without a client secret (Stripe did not answer): the page says so.
  const [stripeGaveUp, setStripeGaveUp] = useState(false);
  const needsStripe =
    choice?.provider === 'stripe' &&
    booking.data?.status === 'pending' &&
    (booking.data.payment.provider !== 'stripe' || !booking.data.payment.clientSecret);
  useEffect(() => {
    if (!needsStripe) return;
    setStripeGaveUp(false);
    syncBookingPayment(bookingId, 'stripe')
      .then(
        (started) => queryClient.setQueryData(bookingQueryKey(bookingId), started),
        () => {},
      )
      .finally(() => setStripeGaveUp(true));
  }, [needsStripe, bookingId, queryClient]);

  const eventId = booking.data?.event.id;
  // The event may be deleted while the buyer is here: the live stream refetches it, and a 404 ends the page.
  const pending = booking.data?.status === 'pending';
  useLiveEvents();
  const liveEvent = useEvent(eventId ?? '', { enabled: Boolean(eventId) && pending });
  const deletedMeanwhile = liveEvent.error instanceof ApiError && liveEvent.error.status === 404;
  const eventGone = booking.data?.event.isDeleted === true || deletedMeanwhile;
  // What became of the booking meanwhile (paid just before, or ended by the server) decides what shows.
  useEffect(() => {
    if (deletedMeanwhile) void refetchBooking();
  }, [deletedMeanwhile, refetchBooking]);
  useEffect(() => {
    // When the payment configuration cannot be loaded, go to /payment-failed with the event id (e2e/booking.spec.ts
    // 'a payment configuration that cannot be loaded ends on the failure page and gives the tickets back'). (Not
    // when a later refetch of it fails: the form it gave is still there.) The hold cannot be paid then: its
    // tickets go back on sale at once if the server can be told (best effort; otherwise it runs out).
    if (config.isError && !config.data && !booking.isPending) {
      if (pending) cancelHold(bookingId).catch(() => {});
      navigate(`/payment-failed${eventId ? `?event=${eventId}` : ''}`, { replace: true });
    }
  }, [config.isError, config.data, booking.isPending, pending, bookingId, eventId, navigate]);

  useEffect(() => {
    if (booking.data?.status === 'paid') navigate(`/payment-success?booking=${booking.data.id}`, { replace: true });
  }, [booking.data, navigate]);

  if (!bookingId) return <Navigate to="/" replace />;
  if (unknownBooking) {
    return (
      <PageContainer>
        <PaymentOutcome outcome="failure" eventId={undefined} />
      </PageContainer>
    );
  }
  if (booking.isError) {
    return (
      <PageContainer>
        <LoadError
          onRetry={() => void refetchBooking()}
          retrying={booking.isFetching}
          back={{ to: '/events-page/all', label: t('payment.browseEvents') }}
        />
      </PageContainer>
    );
  }
  // A paid booking goes on to the success page (the effect above): nothing to show on the way.
  if (!booking.data || config.isPending || booking.data.status === 'paid') {
    return (
      <PageContainer>
        <Skeleton className="mx-auto h-[28rem] w-full max-w-xl" />
      </PageContainer>
    );
  }
  const data = booking.data;
  const { event } = data;
  const { payment } = data;
  const awaitingCash =
    choice?.provider === 'paymob' &&
    choice.method === 'cash' &&
    payment.provider === 'paymob' &&
    payment.method === 'cash' &&
    payment.cashReference
      ? payment.cashReference
      : null;
  // From the reference to another way to pay: the first one that is not kiosk cash, and the keyboard on it.
  const otherChoice = choices.find((other) => other.method !== 'cash');
  const chooseAnother = otherChoice
    ? () => {
        setPicked(otherChoice);
        setCashJustStarted(false);
        setFocusPicker((n) => n + 1);
      }
    : undefined;

  if (data.status !== 'pending' || eventGone) {
    return (
      <PageContainer>
        <ReservationEnded
          eventId={eventGone ? null : event.id}
          title={event.title}
          message={endedMessage(data, eventGone, i18n)}
        />
      </PageContainer>
    );
  }

  return (
    <PageContainer>
      <Card className="mx-auto flex w-full max-w-xl flex-col gap-6 p-6 sm:p-8">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold">{t('payment.heading')}</h1>
          <p className="font-semibold">
            <bdi>{event.title}</bdi>
          </p>
          <p className="text-sm text-fg-muted">
            {t('catalogue.weekdayDate', { weekday: weekday(event.eventDate), date: date(event.eventDate) })} ·{' '}
            {/* A phone breaks the line before the hours, not at their dash. */}
            <span className="whitespace-nowrap">
              <TimeRange start={event.startTime} end={event.endTime} />
            </span>
          </p>
          <p className="text-sm text-fg-muted">
            {number(data.quantity)} × {price(data.unitPricePiasters)} ={' '}
            <span className="font-semibold text-fg">{price(data.totalPiasters)}</span>
          </p>
          <HoldCountdown
            expiresAt={data.expiresAt}
            eventId={event.id}
            onExpire={onExpire}
            timeZone={config.data?.timeZone ?? DEFAULT_TIME_ZONE}
            quietWhileFar={awaitingCash !== null}
          />
          <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
            {/* The page has no header (root-layout.tsx): the way back to the quantity, short of the browser's Back. */}
            <Link
              to={`/event-details/${event.id}/get-ticket`}
              className="text-sm font-semibold text-accent underline-offset-2 hover:underline"
            >
              {t('payment.changeTickets')}
            </Link>
            <CancelReservation bookingId={data.id} eventId={event.id} paying={paying} />
          </div>
        </div>
        {holdOver ? null : (
          <div className="flex flex-col gap-6 border-t border-border pt-6">
            {choice && choices.length > 1 ? (
              <PaymentMethodPicker
                ref={picker}
                choices={choices}
                value={choice}
                onChange={(next) => {
                  setPicked(next);
                  setCashJustStarted(false);
                }}
                disabled={paying}
              />
            ) : null}
            {!choice ? (
              <p role="alert" className="text-sm text-danger">
                {t('payment.unexpectedState')}
              </p>
            ) : awaitingCash ? (
              <CashPayment
                reference={awaitingCash}
                totalPiasters={data.totalPiasters}
                expiresAt={data.expiresAt}
                timeZone={config.data?.timeZone ?? DEFAULT_TIME_ZONE}
                focusOnShow={cashJustStarted}
                onChooseAnother={choices.length > 1 ? chooseAnother : undefined}
              />
            ) : choice.provider === 'paymob' ? (
              <PaymobForm
                bookingId={data.id}
                method={choice.method}
                savedPhone={payment.phone}
                onCashReference={() => setCashJustStarted(true)}
                onProcessingChange={setPaying}
              />
            ) : choice.provider === 'stripe' ? (
              needsStripe && !stripeGaveUp ? (
                <Spinner label={t('payment.loadingPaymentForm')} />
              ) : config.data?.publishableKey && payment.provider === 'stripe' && payment.clientSecret ? (
                <Suspense fallback={<Spinner label={t('payment.loadingPaymentForm')} />}>
                  <StripePaymentForm
                    publishableKey={config.data.publishableKey}
                    clientSecret={payment.clientSecret}
                    bookingId={data.id}
                    totalPiasters={data.totalPiasters}
                  />
                </Suspense>
              ) : (
                <p role="alert" className="text-sm text-danger">
                  {t('payment.unexpectedState')}
                </p>
              )
            ) : (
              <SimulatedCardForm
                bookingId={data.id}
                totalPiasters={data.totalPiasters}
                onPaid={() => navigate(`/payment-success?booking=${data.id}`)}
                onProcessingChange={setPaying}
              />
            )}
          </div>
        )}
      </Card>
    </PageContainer>
  );
}

/**
 * The reservation ended (its hold ran out, another took its place, or the event was deleted) while the buyer
 * may be typing a card: the form is gone, so the focus moves to this message, which is also announced.
 * `eventId` is null when the event is gone: there are no tickets to choose again.
 */
function ReservationEnded({
  eventId,
  title,
  message,
}: {
  eventId: string | null;
  title: string;
  message: string | undefined;
}) {
  const { t } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card role="alert" className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-6 py-10 text-center">
      <h1 ref={heading} tabIndex={-1} data-route-focus className="text-2xl font-bold">
        {t('payment.reservationEnded')}
      </h1>
      <p className="font-semibold">
        <bdi>{title}</bdi>
      </p>
      <p className="text-fg-muted">{message ?? t('payment.chooseAgain')}</p>
      {/* The page has no header (root-layout.tsx): a way on to other events too. */}
      <div className="flex flex-col gap-3 sm:flex-row">
        {eventId ? (
          <ButtonLink to={`/event-details/${eventId}/get-ticket`}>{t('payment.chooseTickets')}</ButtonLink>
        ) : null}
        <ButtonLink to="/events-page/all" variant={eventId ? 'secondary' : 'primary'}>
          {t('payment.browseEvents')}
        </ButtonLink>
      </div>
    </Card>
  );
}
