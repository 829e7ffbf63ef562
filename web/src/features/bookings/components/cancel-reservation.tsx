import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { paymentMessages } from '../../../../../contracts/messages/payment';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { useReleaseHold } from '../api/release-hold';

/**
 * Lets the buyer's hold go from the payment page: its tickets go back on sale at once instead of when the hold
 * runs out, and the buyer lands on the event's page. Refused while a payment of the hold is being settled (the
 * booking is read again: it may just have become paid, and the page moves on by itself).
 */
export function CancelReservation({ bookingId, eventId }: { bookingId: string; eventId: string }) {
  const navigate = useNavigate();
  const release = useReleaseHold(bookingId);
  const [error, setError] = useState<string | null>(null);
  // Awaited rather than told through mutate's callbacks, which are dropped once this button is unmounted.
  const cancel = async () => {
    setError(null);
    try {
      await release.mutateAsync(eventId);
    } catch (failure) {
      // A deleted event ends the page by itself (its booking is read again); a session that ended, the app.
      if (isSessionEnded(failure) || (failure instanceof ApiError && failure.status === 404)) return;
      setError((failure as Error).message);
      return;
    }
    toast.success(paymentMessages.holdCancelledToast);
    navigate(`/event-details/${eventId}`, { replace: true });
  };
  return (
    <>
      <button
        type="button"
        onClick={() => void cancel()}
        disabled={release.isPending}
        className="text-sm font-semibold text-fg-muted underline-offset-2 hover:underline disabled:opacity-60"
      >
        {release.isPending ? 'Cancelling…' : paymentMessages.cancelReservation}
      </button>
      {error ? (
        <p role="alert" className="basis-full text-sm text-danger">
          {error}
        </p>
      ) : null}
    </>
  );
}
