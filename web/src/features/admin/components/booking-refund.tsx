import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { Attendee } from '../../../../../contracts/attendees';
import { Button } from '../../../components/ui/button';
import { ConfirmActions } from '../../../components/ui/confirm-actions';
import { Dialog } from '../../../components/ui/dialog';
import { WarningIcon } from '../../../components/ui/warning-icon';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { withElements } from '../../../lib/rich-text';
import { useRefundBooking } from '../api/refund-booking';

/**
 * A booking's refund, on its first ticket of the page: why its last refund failed, if it did, and 'Refund' while
 * it can be refunded, which asks first ('Refund the whole booking: 300 EGP to Mona?'). The list is read again
 * after it; the booking then has nothing left to refund, and the focus goes to the page's heading.
 */
export function BookingRefund({ attendee }: { attendee: Attendee }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const buyerId = useId();
  return (
    <div className="flex flex-col items-start gap-2">
      {attendee.refundFailure ? (
        <p className="flex gap-1.5 text-xs font-medium text-amber-300">
          <WarningIcon className="mt-0.5 size-4" />
          <span>{withElements(t('attendees.refundFailed'), { reason: <bdi>{attendee.refundFailure}</bdi> })}</span>
        </p>
      ) : null}
      {attendee.refundable ? (
        <>
          <Button ref={opener} variant="secondary" size="sm" onClick={() => setOpen(true)} aria-describedby={buyerId}>
            {t('attendees.refund')}
          </Button>
          {/* Whose booking, for the button's description. */}
          <span id={buyerId} hidden>
            {attendee.name}
          </span>
        </>
      ) : null}
      {open ? (
        <RefundDialog
          attendee={attendee}
          onClose={() => setOpen(false)}
          returnFocus={() =>
            opener.current?.isConnected ? null : document.querySelector<HTMLElement>('[data-route-focus]')
          }
        />
      ) : null}
    </div>
  );
}

function RefundDialog({
  attendee,
  onClose,
  returnFocus,
}: {
  attendee: Attendee;
  onClose: () => void;
  returnFocus: () => HTMLElement | null;
}) {
  const { t, price } = useI18n();
  const refund = useRefundBooking();
  const [error, setError] = useState<string | null>(null);
  const question = t('attendees.refundConfirm', { amount: price(attendee.refundPiasters) });

  async function confirm() {
    if (refund.isPending) return;
    setError(null);
    try {
      const answer = await refund.mutateAsync(attendee.bookingId);
      toast.success(t('attendees.refundedToast', { amount: price(answer.refundPiasters), name: attendee.name }));
      onClose();
    } catch (failure) {
      // A session that ended is the app's to handle (it moves to /login); anything else is said here.
      if (isSessionEnded(failure)) return;
      // The server's words in the page's language (REFUND_FAILED, REFUND_IN_PROGRESS, NOT_REFUNDABLE…).
      setError(failure instanceof ApiError ? failure.message : t('common.somethingWentWrong'));
    }
  }

  return (
    <Dialog
      open
      onClose={() => {
        if (!refund.isPending) onClose();
      }}
      title={t('attendees.refundTitle')}
      description={withElements(question, { name: <bdi>{attendee.name}</bdi> })}
      returnFocus={returnFocus}
    >
      <p className="text-sm text-fg-muted">{t('attendees.refundNote')}</p>
      <ConfirmActions
        error={error}
        keepLabel={t('attendees.refundKeep')}
        onKeep={onClose}
        confirmLabel={refund.isPending ? t('attendees.refunding') : t('attendees.refundBooking')}
        onConfirm={() => void confirm()}
        pending={refund.isPending}
      />
    </Dialog>
  );
}
