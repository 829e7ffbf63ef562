import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { Ticket } from '../../../../../contracts/bookings';
import type { I18n } from '../../../../../contracts/i18n/i18n';
import type { RefundQuote } from '../../../../../contracts/refunds';
import { Button } from '../../../components/ui/button';
import { ConfirmActions } from '../../../components/ui/confirm-actions';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { withElements } from '../../../lib/rich-text';
import { serverNow } from '../../../lib/server-clock';
import { deadlineParams } from '../../../lib/wall-clock';
import { useCancelBooking } from '../api/cancel-booking';
import { useRefundQuote } from '../api/get-refund-quote';
import { cancellableTickets } from '../lib/cancellable';
import { QuantityStepper } from './quantity-stepper';

/** What the quote says: what comes back (less the fee), or that refunds have closed. */
function quoteText({ t, price }: Pick<I18n, 't' | 'price'>, quote: RefundQuote): string {
  if (!quote.allowed) return t('bookings.refundsClosed');
  const amount = price(quote.refundPiasters);
  return quote.feePiasters > 0
    ? t('bookings.youGetBackWithFee', { amount, fee: price(quote.feePiasters) })
    : t('bookings.youGetBack', { amount });
}

/**
 * Under a card of Your Tickets: until when the booking can be cancelled, and 'Cancel booking', which asks how
 * many of its tickets (all by default), says what comes back by the event's policy, and cancels them. A booking
 * cancelled whole leaves the list (it goes to Your History): the focus then goes to the list's heading.
 */
export function CancelBooking({
  ticket,
  timeZone,
  headingId,
}: {
  ticket: Ticket;
  timeZone: string;
  headingId: string;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const remaining = cancellableTickets(ticket, serverNow());
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  if (remaining === 0 || !ticket.refundableUntil) return null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-t border-border pt-3 sm:px-3">
      <p className="text-sm text-fg-muted">
        {t('bookings.refundableUntil', deadlineParams(i18n, ticket.refundableUntil, timeZone))}
      </p>
      {/* Its name says which event (several cards each have one); it starts with the words it shows. */}
      <Button
        ref={opener}
        variant="secondary"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={t('bookings.cancelBookingOf', { title: ticket.title })}
      >
        {t('bookings.cancelBooking')}
      </Button>
      {open ? (
        <CancelBookingDialog
          ticket={ticket}
          remaining={remaining}
          onClose={() => setOpen(false)}
          // Cancelled whole, the card and its button are gone: the list's heading takes the focus.
          returnFocus={() => (opener.current?.isConnected ? null : document.getElementById(headingId))}
        />
      ) : null}
    </div>
  );
}

function CancelBookingDialog({
  ticket,
  remaining,
  onClose,
  returnFocus,
}: {
  ticket: Ticket;
  remaining: number;
  onClose: () => void;
  returnFocus: () => HTMLElement | null;
}) {
  const i18n = useI18n();
  const { t, price } = i18n;
  const [quantity, setQuantity] = useState(remaining);
  const [error, setError] = useState<string | null>(null);
  const quote = useRefundQuote(ticket.id, quantity, true);
  const cancel = useCancelBooking({ id: ticket.id, eventId: ticket.eventId });
  const stepperLabelId = useId();
  // Placeholder data is the last quantity's amount, shown dimmed until this one's comes.
  const current = quote.isPlaceholderData ? undefined : quote.data;
  const ready = current?.allowed === true && !cancel.isPending;

  async function confirm() {
    if (!ready) return;
    setError(null);
    try {
      const answer = await cancel.mutateAsync(quantity);
      toast.success(t('bookings.cancelledToast', { count: quantity, amount: price(answer.refundPiasters) }));
      onClose();
    } catch (failure) {
      // A session that ended is the app's to handle (it moves to /login); anything else is said here.
      if (isSessionEnded(failure)) return;
      // The server's words in the page's language: REFUNDS_CLOSED, REFUND_IN_PROGRESS, REFUND_FAILED…
      setError(failure instanceof ApiError ? failure.message : t('common.somethingWentWrong'));
    }
  }

  const failed = quote.isError && !quote.data;
  return (
    <Dialog
      open
      onClose={() => {
        if (!cancel.isPending) onClose();
      }}
      title={t('bookings.cancelBooking')}
      description={withElements(t('bookings.cancelIntro'), { title: <bdi>{ticket.title}</bdi> })}
      returnFocus={returnFocus}
    >
      {remaining > 1 ? (
        <div className="flex flex-col gap-2">
          <span id={stepperLabelId} className="text-sm font-medium">
            {t('bookings.ticketsToCancel')}
          </span>
          <fieldset aria-labelledby={stepperLabelId} disabled={cancel.isPending}>
            <QuantityStepper
              value={quantity}
              onChange={(next) => {
                setError(null);
                setQuantity(next);
              }}
              max={remaining}
              stopAtMax
              label={t('bookings.ticketsToCancel')}
            />
          </fieldset>
        </div>
      ) : null}
      <div aria-live="polite" aria-busy={quote.isFetching || undefined} className="flex flex-col items-start gap-2">
        {failed ? (
          <>
            <p className="text-sm text-danger">
              {quote.error instanceof ApiError && quote.error.status < 500 && quote.error.status > 0
                ? quote.error.message
                : t('bookings.quoteFailed')}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void quote.refetch()}>
              {t('bookings.retryQuote')}
            </Button>
          </>
        ) : quote.data ? (
          <p className={`text-base font-semibold ${current ? '' : 'opacity-60'}`}>{quoteText(i18n, quote.data)}</p>
        ) : (
          <p className="text-sm text-fg-muted">{t('bookings.quoteLoading')}</p>
        )}
      </div>
      <ConfirmActions
        error={error}
        keepLabel={t('bookings.keepBooking')}
        onKeep={onClose}
        confirmLabel={cancel.isPending ? t('bookings.cancelling') : t('bookings.confirmCancel', { count: quantity })}
        onConfirm={() => void confirm()}
        pending={cancel.isPending}
        blocked={!ready}
      />
    </Dialog>
  );
}
