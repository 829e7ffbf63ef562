import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Booking } from '../../../../../contracts/bookings';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { cancelledByBuyer, useCancelHold } from '../api/cancel-hold';

const textButton = 'text-sm font-semibold underline-offset-2 hover:underline disabled:opacity-60 disabled:no-underline';

/**
 * Lets the buyer's hold go from the payment page, after a second click: its tickets go back on sale at once
 * instead of when the hold runs out, and the buyer lands on the event's page. Not while a payment is being
 * sent; refused by the server while one is being settled (the booking is read again: it may just have become
 * paid, and the page moves on by itself).
 */
export function CancelReservation({
  bookingId,
  eventId,
  paying,
}: {
  bookingId: string;
  eventId: string;
  /** A payment of this hold is being sent (the card form says so). */
  paying: boolean;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const cancelHold = useCancelHold({ id: bookingId, eventId });
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  useEffect(() => {
    if (asking) keep.current?.focus();
  }, [asking]);

  const close = () => {
    setAsking(false);
    opener.current?.focus();
  };
  // Awaited rather than told through mutate's callbacks, which are dropped once this button is unmounted.
  const confirm = async () => {
    setError(null);
    let booking: Booking;
    try {
      booking = await cancelHold.mutateAsync();
    } catch (failure) {
      setAsking(false);
      // A session that ended is the app's to handle; anything else is said here.
      if (!isSessionEnded(failure)) {
        // The server's refusal is in the page's language (PAYMENT_IN_PROGRESS, BOOKING_PAID…).
        setError(failure instanceof ApiError ? failure.message : t('common.somethingWentWrong'));
      }
      return;
    }
    // Otherwise it had ended already (run out, or replaced by a reservation made in another tab, whose tickets
    // are still held): the page says so once its booking is read again.
    if (cancelledByBuyer(booking)) {
      toast.success(t('payment.holdCancelledToast'));
      navigate(`/event-details/${eventId}`, { replace: true });
    }
  };

  return (
    <>
      <button
        ref={opener}
        type="button"
        onClick={() => (asking ? close() : setAsking(true))}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && asking) close();
        }}
        disabled={paying || cancelHold.isPending}
        aria-expanded={asking}
        className={`${textButton} text-fg-muted`}
      >
        {t('payment.cancelReservation')}
      </button>
      {asking ? (
        <fieldset
          aria-labelledby={questionId}
          className="flex basis-full flex-wrap items-center gap-x-4 gap-y-2 text-sm"
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
          }}
        >
          <span id={questionId} className="basis-full text-fg-muted sm:basis-auto">
            {t('payment.confirmCancelQuestion')}
          </span>
          <button ref={keep} type="button" onClick={close} className={`${textButton} text-accent`}>
            {t('payment.keepReservation')}
          </button>
          <button
            type="button"
            onClick={() => void confirm()}
            disabled={paying || cancelHold.isPending}
            className={`${textButton} text-danger`}
          >
            {cancelHold.isPending ? t('payment.cancelling') : t('payment.confirmCancel')}
          </button>
        </fieldset>
      ) : null}
      {error ? (
        <p role="alert" className="basis-full text-sm text-danger">
          {error}
        </p>
      ) : null}
    </>
  );
}
